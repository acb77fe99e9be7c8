package jsonvalue

import "unicode/utf8"

// How text that is not valid UTF-8 is shown. Every text form of the
// module (the command's printed text, and pages) shows a lone surrogate's
// WTF-8 bytes as the surrogate's JSON escape, in lower case as Python's
// json writes it (`\ud83d`), and any other byte that is not UTF-8 as
// <0xXX>, as on a terminal. What is shown is then always valid UTF-8, and
// two different surrogates never look the same.

// AppendShown appends how s, which starts with a byte that is not UTF-8,
// is shown, and returns the number of bytes of s shown: 3 for a
// surrogate's WTF-8 bytes, else 1.
func AppendShown(b []byte, s string) ([]byte, int) {
	if r, ok := Surrogate(s); ok {
		return append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15]), 3
	}
	return append(b, '<', '0', 'x', upperHex[s[0]>>4], upperHex[s[0]&15], '>'), 1
}

const upperHex = "0123456789ABCDEF"

// validPrefix returns the length of the valid UTF-8 that starts s: the
// index of its first byte that is not UTF-8, or len(s).
func validPrefix(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(s)
}

// Shown is s as it is shown: its surrogates as escapes, other bytes that
// are not UTF-8 as <0xXX> (AppendShown); s itself when it is valid UTF-8.
func Shown(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	i := validPrefix(s)
	b := make([]byte, 0, len(s)+16)
	for i < len(s) {
		b = append(b, s[:i]...)
		var n int
		b, n = AppendShown(b, s[i:])
		s = s[i+n:]
		i = validPrefix(s)
	}
	return string(append(b, s...))
}
