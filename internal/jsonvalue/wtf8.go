package jsonvalue

import "unicode/utf8"

// Strings that are not valid UTF-16. A JSON string may name a lone UTF-16
// surrogate (`"\ud83d"`), which Python reads and keeps, but which UTF-8,
// and so a Go string holding text, cannot encode. The module carries
// such a code unit as its WTF-8 bytes (https://simonsapin.github.io/wtf-8/):
// the three bytes UTF-8's scheme gives U+D800..U+DFFF (ED A0 80 to ED BF
// BF), which no valid UTF-8 holds, so they are never confused with text.
// Two strings are then equal exactly when Python's are, and writers turn
// the bytes back into their \u escapes.

// AppendRune appends the UTF-8 encoding of r, or the WTF-8 bytes of a
// surrogate.
func AppendRune(b []byte, r rune) []byte {
	if r >= 0xd800 && r < 0xe000 {
		return append(b, 0xed, byte(0x80|(r>>6)&0x3f), byte(0x80|r&0x3f))
	}
	return utf8.AppendRune(b, r)
}

// Surrogate returns the surrogate whose WTF-8 bytes start s, if they do.
func Surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2] < 0x80 || s[2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}

// hexDigits are the lower-case hexadecimal digits.
const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON string, compactly, as encoding/json
// writes it without HTML escaping, but with the WTF-8 bytes of a lone
// surrogate written as its \u escape (bytes that are not UTF-8 otherwise
// as U+FFFD, as encoding/json does).
func AppendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch {
		case c < utf8.RuneSelf:
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
		default:
			if r, ok := Surrogate(s[i:]); ok {
				b = append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
				i += 3
				break
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, "\ufffd"...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
