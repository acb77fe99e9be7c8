package dialog

import (
	"strings"
	"unicode/utf8"
)

// A row builds one line of a summary (Preview, Show, Summary) from
// pieces: at most width characters (runes; 0: no limit), ending in "…"
// when cut, as if the pieces were joined and cut as a whole, but looking
// at no more than width+1 characters of them, so that a message of many
// megabytes costs its row, not its size. With newlines set, each "\n" is
// shown as the two characters \n (counted as two).
//
// A row cut keeps width-1 characters, an invalid UTF-8 byte among them
// written as U+FFFD (as converting the string to runes and back does); a
// row not cut keeps its bytes as they are.
type row struct {
	out      *strings.Builder // where the row goes (directly when no width)
	width    int
	newlines bool
	buf      []byte // the characters kept (at most width of them)
	n        int    // characters seen, at most width+1
	cut      int    // len(buf) when the row holds width-1 characters
	invalid  bool   // an invalid UTF-8 byte among buf[:cut]
}

// reset starts a new row of width characters at most (0: no limit),
// written to out.
func (r *row) reset(out *strings.Builder, width int, newlines bool) {
	r.out, r.width, r.newlines = out, width, newlines
	r.buf, r.n, r.cut, r.invalid = r.buf[:0], 0, 0, false
}

// add appends s to the row.
func (r *row) add(s string) {
	if r.width <= 0 {
		r.addAll(s)
		return
	}
	for i := 0; i < len(s) && r.n <= r.width; {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == '\n' && r.newlines {
			r.char(`\`, false)
			r.char("n", false)
		} else {
			r.char(s[i:i+size], c == utf8.RuneError && size == 1)
		}
		i += size
	}
}

// char appends one character (its bytes, bad when it is an invalid
// UTF-8 byte) to a row with a width.
func (r *row) char(c string, bad bool) {
	if r.n > r.width {
		return
	}
	if r.n == r.width-1 {
		r.cut = len(r.buf)
	}
	if r.n < r.width {
		r.buf = append(r.buf, c...)
		if bad && r.n < r.width-1 {
			r.invalid = true
		}
	}
	r.n++
}

// addAll writes s whole to the row's out (a row without a width).
func (r *row) addAll(s string) {
	if !r.newlines {
		r.out.WriteString(s)
		return
	}
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			r.out.WriteString(s)
			return
		}
		r.out.WriteString(s[:i])
		r.out.WriteString(`\n`)
		s = s[i+1:]
	}
}

// end writes what a row with a width kept to its out.
func (r *row) end() {
	switch {
	case r.width <= 0:
	case r.n <= r.width:
		r.out.Write(r.buf)
	case r.invalid:
		r.out.WriteString(string([]rune(string(r.buf[:r.cut]))) + "…")
	default:
		r.out.Write(r.buf[:r.cut])
		r.out.WriteString("…")
	}
}
