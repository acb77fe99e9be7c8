package nbstyle

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Copying string tokens as they were read. A text read from a file and
// written again in a new place (a cell or output Heal rebuilt, a raw JSON
// value written in the file's style) is written by copying its JSON token
// when that token is already spelled exactly as the encoder would spell
// its value (QuotedAs), which spares decoding it and escaping it again;
// any other token is decoded and escaped as before. The bytes written are
// the same either way: QuotedAs(tok, esc) holds exactly when
// jsontree.AppendQuoted(nil, value of tok, esc) == tok.

// QuotedAs reports whether tok, a JSON string token with its quotes, is
// exactly what jsontree.AppendQuoted writes for its value with escaping
// esc: only the characters esc escapes are escaped, each by the escape
// AppendQuoted uses (the two-character one where JSON has one, else \u
// with esc's case of hex digits; a character beyond U+FFFF by its
// surrogate pair; a lone surrogate by its escape, always), and the rest is
// valid UTF-8 as it is. An invalid or unneeded escape, or invalid UTF-8,
// gives false.
func QuotedAs(tok []byte, esc jsontree.Escaping) bool {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return false
	}
	s := tok[1 : len(tok)-1]
	fast := !esc.HTML && !esc.Slash
	for i := 0; i < len(s); {
		if fast {
			// Eight bytes at a time while none needs a look.
			for i+8 <= len(s) && !special8(binary.LittleEndian.Uint64(s[i:])) {
				i += 8
			}
			if i >= len(s) {
				break
			}
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			if esc.HTML && (c == '<' || c == '>' || c == '&') || esc.Slash && c == '/' {
				return false
			}
			i++
			continue
		}
		switch {
		case c == '\\':
			if i+1 < len(s) && shortEscapes[s[i+1]] {
				i += 2 // \" \\ \n \r \t \b \f: always written so
				continue
			}
			n := escapeAs(s[i:], esc)
			if n == 0 {
				return false
			}
			i += n
		case c < 0x20 || c == '"':
			return false
		case c == 0x7f:
			if esc.ASCII {
				return false
			}
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 || esc.ASCII || esc.LineSep && (r == '\u2028' || r == '\u2029') {
				return false
			}
			i += size
		}
	}
	return true
}

// special8 reports whether one of the eight bytes of x (in any order) is
// a control character, '"', '\\', DEL or a byte of a multi-byte UTF-8
// sequence: a byte that QuotedAs must look at (with neither HTML nor
// Slash escaping). Each test is exact: (v - 0x01…01) &^ v & 0x80…80 is
// non-zero exactly when a byte of v is zero, and (x - n…n) &^ x & 0x80…80
// exactly when a byte of x is below n (n <= 0x80).
func special8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v & highs }
	return (x-0x20*ones)&^x&highs|x&highs|zero(x^'"'*ones)|zero(x^'\\'*ones)|zero(x^0x7f*ones) != 0
}

// escapeAs returns the length of the escape at the start of s when it is
// the escape AppendQuoted writes (with esc) for the character it stands
// for, else 0.
func escapeAs(s []byte, esc jsontree.Escaping) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', 'n', 'r', 't', 'b', 'f':
		return 2
	case '/':
		if esc.Slash {
			return 2
		}
		return 0
	case 'u':
	default:
		return 0
	}
	cp, ok := hex4As(s[2:], esc.Upper)
	if !ok {
		return 0
	}
	switch {
	case cp < 0x20:
		if cp < utf8.RuneSelf && shortEscaped(byte(cp)) {
			return 0
		}
		return 6
	case cp < 0x7f:
		if esc.HTML && (cp == '<' || cp == '>' || cp == '&') {
			return 6
		}
		return 0
	case cp == 0x7f:
		if esc.ASCII {
			return 6
		}
		return 0
	case cp >= 0xd800 && cp < 0xdc00:
		// A high surrogate: with the low one after it, a character
		// beyond U+FFFF, escaped only with ASCII; alone, always escaped
		// (AppendQuoted writes its WTF-8 bytes so).
		if len(s) < 12 || s[6] != '\\' || s[7] != 'u' {
			return 6
		}
		if lo, ok := hex4Any(s[8:]); !ok || lo < 0xdc00 || lo >= 0xe000 {
			return 6
		}
		if lo, ok := hex4As(s[8:], esc.Upper); !esc.ASCII || !ok || lo < 0xdc00 || lo >= 0xe000 {
			return 0
		}
		return 12
	case cp >= 0xdc00 && cp < 0xe000:
		return 6 // a lone low surrogate: always escaped
	}
	if esc.ASCII || esc.LineSep && (cp == 0x2028 || cp == 0x2029) {
		return 6
	}
	return 0
}

// shortEscapes are the letters of the two-character escapes AppendQuoted
// writes whatever the escaping (\/ only with Slash: see escapeAs).
var shortEscapes = [256]bool{'"': true, '\\': true, 'n': true, 'r': true, 't': true, 'b': true, 'f': true}

// shortEscaped reports whether AppendQuoted writes the control character
// c by its two-character escape.
func shortEscaped(c byte) bool {
	switch c {
	case '\n', '\r', '\t', '\b', '\f':
		return true
	}
	return false
}

// hex4As decodes the four hex digits at the start of s, which must all be
// of the case given (digits 0-9 are of both).
// hex4Any reads four hexadecimal digits of any case.
func hex4Any(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var cp rune
	for _, h := range s[:4] {
		switch {
		case h >= '0' && h <= '9':
			cp = cp<<4 | rune(h-'0')
		case h|0x20 >= 'a' && h|0x20 <= 'f':
			cp = cp<<4 | rune(h|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return cp, true
}

func hex4As(s []byte, upper bool) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var cp rune
	for _, h := range s[:4] {
		var d byte
		switch {
		case h >= '0' && h <= '9':
			d = h - '0'
		case h >= 'a' && h <= 'f' && !upper:
			d = h - 'a' + 10
		case h >= 'A' && h <= 'F' && upper:
			d = h - 'A' + 10
		default:
			return 0, false
		}
		cp = cp<<4 | rune(d)
	}
	return cp, true
}
