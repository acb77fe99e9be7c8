package main

import (
	"os/exec"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Names the command prints — file paths, and JSON Pointers, whose keys
// come from the notebook — are quoted as git quotes paths (quote_c_style,
// core.quotePath): a name holding a double quote, a backslash, a control
// character (newline and tab included), DEL or, with core.quotePath
// (git's default), any byte past ASCII is written in double quotes, with
// \" \\ \a \b \t \n \v \f \r and three octal digits for the other bytes
// (`"back\\slash"`, `"\342\200\256"` for U+202E, `"\033"` for ESC), so
// that one name stays on one line, every output line reads the same way
// to a pipe and to a terminal, and it reads as git's own output does
// (git ls-files, git diff). With core.quotePath false, letters past
// ASCII are written as they are, except C1 controls and bidi formatting
// characters (see terminal.go) and bytes that are not UTF-8, which are
// still written in octal. Other names, spaces included, are printed as
// they are.

// Standard input, "-" on the command line, is named <stdin> in every
// message (a file cannot be named "-": that argument means standard
// input, in a --files-from list too).
const stdinName = "<stdin>"

// quoteName returns s, or s quoted when it needs to be (see above);
// "-" is standard input, stdinName.
func quoteName(s string) string {
	if s == "-" {
		return stdinName
	}
	if !needsQuote(s, true) {
		return s // no git config read for a plain name
	}
	return cQuote(s, quotePath())
}

// quoteText returns a text the command prints that comes from a file (a
// metadata key in a conflict's description, say) quoted as quoteName
// quotes a name with core.quotePath false ("-" included), so that one
// conflict stays on one line and letters stay readable; a lone
// surrogate is written as its escape (`\ud83d`, see codeunits.go).
func quoteText(s string) string {
	return cQuote(s, false)
}

// quotePath is git's core.quotePath (true unless set false; true without
// git), read once.
var quotePath = sync.OnceValue(func() bool {
	out, err := exec.Command("git", "config", "--type=bool", "--get", "core.quotePath").Output()
	return err != nil || strings.TrimSpace(string(out)) != "false"
})

// cEscapes are the bytes git writes as a backslash and a letter.
var cEscapes = [256]byte{'\a': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\'}

// cQuote is git's quote_c_style of s, quoting every byte past ASCII when
// fully (core.quotePath), else only those of characters that are not
// UTF-8 or that drive a terminal (needsPicture).
func cQuote(s string, fully bool) string {
	if !needsQuote(s, fully) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	octal := func(c byte) {
		b.WriteByte('\\')
		b.WriteByte('0' + c>>6)
		b.WriteByte('0' + c>>3&7)
		b.WriteByte('0' + c&7)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case cEscapes[c] != 0:
			b.WriteByte('\\')
			b.WriteByte(cEscapes[c])
		case c < 0x20 || c == 0x7f:
			octal(c)
		case c >= utf8.RuneSelf:
			if _, ok := jsonvalue.Surrogate(s[i:]); ok && !fully {
				// A notebook string's lone surrogate, as its escape
				// (codeunits.go).
				var buf [6]byte
				shown, n := jsonvalue.AppendShown(buf[:0], s[i:])
				b.Write(shown)
				i += n
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if fully || r == utf8.RuneError && size == 1 || needsPicture(r) {
				for j := range size {
					octal(s[i+j])
				}
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// needsQuote reports whether cQuote quotes s.
func needsQuote(s string, fully bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if cEscapes[c] != 0 || c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if fully || r == utf8.RuneError && size == 1 || needsPicture(r) {
			return true
		}
		i += size
	}
	return false
}
