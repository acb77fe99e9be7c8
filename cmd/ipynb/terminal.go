package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
//   - Bytes that are not UTF-8 (in file names) as <0xXX>.
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
			fmt.Fprintf(&b, "<0x%02X>", s[i])
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
