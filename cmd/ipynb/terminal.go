package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Notebook content printed to a terminal must not drive it: an escape
// sequence in a cell could clear the screen, retitle the window, write
// hyperlinks or fake text (a bare carriage return overprints a line, a
// bidi override reorders it). When standard output is a terminal, show
// and md print such characters visibly instead:
//
//   - C0 controls other than newline, tab and the CR of a CRLF line end
//     (harmless), as their Unicode control
//     pictures: ESC as ␛ (U+241B), CR as ␍, BEL as ␇, backspace as ␈, NUL
//     as ␀ … (U+2400 + the code); DEL as ␡ (U+2421). Each stays one
//     column wide, so widths hold.
//   - C1 controls (U+0080–U+009F, which include the one-byte CSI and OSC)
//     and the bidirectional formatting characters (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069) as <U+XXXX>.
//   - A lone surrogate's WTF-8 bytes as its escape (\ud83d), other bytes
//     that are not UTF-8 as <0xXX> (codeunits.go).
//
// Output that is not a terminal is left as it is.

// needsPicture reports whether r is made visible on a terminal.
func needsPicture(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// termSafe returns s with the characters that could drive a terminal made
// visible (see above).
func termSafe(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (needsPicture(r) && !crlf(s, i)) || (r == utf8.RuneError && size == 1) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			var buf [6]byte
			shown, n := jsonvalue.AppendShown(buf[:0], s[i:])
			b.Write(shown)
			size = n
		case crlf(s, i):
			b.WriteByte('\r')
		case r < 0x20 && needsPicture(r):
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		case needsPicture(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// crlf reports whether s[i] is the CR of a CRLF.
func crlf(s string, i int) bool {
	return s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n'
}

// termSafeJSON escapes, in JSON text, the characters termSafe makes
// visible that JSON encoders leave as they are (DEL, C1 controls, bidi
// formatting), as \uXXXX: the JSON keeps its meaning and the terminal is
// not driven. (Such characters occur only inside JSON strings.)
func termSafeJSON(s string) string {
	if !strings.ContainsFunc(s, needsPicture) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if needsPicture(r) && r >= 0x20 {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// forTerminal returns s made safe when standard output is a terminal.
func (e *env) forTerminal(s string) string {
	if e.stdoutTTY {
		return termSafe(s)
	}
	return s
}

// termWriter is a stream as every command writes to it (results,
// errors, -v reports): what is written goes through show, termSafe for a
// terminal, so that no file name, pointer or message taken from a
// notebook can drive the terminal, whichever code path prints it;
// unitText elsewhere (codeunits.go). A write ending in the middle of a
// UTF-8 sequence or of a surrogate's WTF-8 bytes, or in a CR that may
// start a CRLF, holds those bytes back until the next write or Flush.
type termWriter struct {
	w    io.Writer
	held []byte
	show func(string) string // nil: termSafe
}

func (t *termWriter) shown(s string) string {
	if t.show == nil {
		return termSafe(s)
	}
	return t.show(s)
}

func (t *termWriter) Write(p []byte) (int, error) {
	data := p
	if len(t.held) > 0 {
		data = append(t.held, p...)
		t.held = nil
	}
	cut := len(data)
	if cut > 0 && data[cut-1] == '\r' {
		cut--
	} else {
		cut -= heldTail(data)
	}
	if cut < len(data) {
		t.held = append([]byte(nil), data[cut:]...)
	}
	if _, err := io.WriteString(t.w, t.shown(string(data[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back.
func (t *termWriter) Flush() error {
	if len(t.held) == 0 {
		return nil
	}
	s := t.shown(string(t.held))
	t.held = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// guardTerminals makes e's streams termWriters: a terminal's through
// termSafe, standard error elsewhere, and standard output when text is
// set (the command prints text: textCommands), through unitText. The
// progress line, which writes its own control sequences, keeps the raw
// stream. The function returned flushes them.
func (e *env) guardTerminals(text bool) (flush func()) {
	e.rawStderr = e.stderr
	var ws []*termWriter
	if e.stdoutTTY || text {
		tw := &termWriter{w: e.stdout}
		if !e.stdoutTTY {
			tw.show = unitText
		}
		e.stdout, ws = tw, append(ws, tw)
	}
	tw := &termWriter{w: e.stderr}
	if !e.stderrTTY {
		tw.show = unitText
	}
	e.stderr, ws = tw, append(ws, tw)
	return func() {
		for _, w := range ws {
			w.Flush()
		}
	}
}
