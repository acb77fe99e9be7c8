package jsontree

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendUnescaped appends the decoded form of raw, the validated contents of
// a JSON string between its quotes. A \u escape naming a lone UTF-16
// surrogate (which Python keeps, but UTF-8 cannot encode) decodes to the
// surrogate's WTF-8 bytes (see AppendRune), so that nothing is lost:
// AppendQuoted writes them back as the escape.
func AppendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := nextBackslash(raw, i+1)
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		r, n := Unescape(raw[i:])
		dst = AppendRune(dst, r)
		i += n
	}
	return dst
}

// AppendRune appends the UTF-8 encoding of r, or, for a UTF-16 surrogate
// (U+D800 to U+DFFF, which UTF-8 cannot encode), its WTF-8 bytes: the
// three bytes UTF-8's scheme gives it (ED A0 80 to ED BF BF), which no
// valid UTF-8 text holds.
func AppendRune(dst []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(dst, 0xed, byte(0x80|(r>>6)&0x3f), byte(0x80|r&0x3f))
	}
	return utf8.AppendRune(dst, r)
}

// surrogateAt returns the surrogate whose WTF-8 bytes start s, if they do.
func surrogateAt(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2] < 0x80 || s[2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}

// Unescape decodes the escape at the start of s (validated JSON string
// contents starting with a backslash), returning the rune and the number
// of bytes used. A \u escape naming a lone UTF-16 surrogate returns the
// surrogate itself (encode it with AppendRune).
func Unescape(s []byte) (rune, int) {
	switch s[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r := hex4(s[2:6])
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2 := utf16.DecodeRune(r, hex4(s[8:12])); r2 != utf8.RuneError {
					return r2, 12
				}
			}
			return r, 6 // a lone surrogate
		}
		return r, 6
	default: // '"', '\\', '/'
		return rune(s[1]), 2
	}
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		r = r<<4 | rune(unhex(c))
	}
	return r
}

// UnescapeString returns the decoded string of raw (validated JSON string
// contents), copying the bytes once.
func UnescapeString(raw []byte) string {
	var b strings.Builder
	b.Grow(len(raw))
	WriteUnescaped(&b, raw)
	return b.String()
}

// WriteUnescaped writes the decoded form of raw (validated JSON string
// contents) to b.
func WriteUnescaped(b *strings.Builder, raw []byte) {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := nextBackslash(raw, i+1)
			b.Write(raw[i:j])
			i = j
			continue
		}
		r, n := Unescape(raw[i:])
		if utf16.IsSurrogate(r) {
			b.Write(AppendRune(nil, r))
		} else {
			b.WriteRune(r)
		}
		i += n
	}
}

// EqualUnescaped reports whether raw (validated JSON string contents)
// decodes to s, without allocating.
func EqualUnescaped(raw []byte, s string) bool {
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(raw); {
		if raw[i] != '\\' { // a run of plain bytes, compared at once
			j := nextBackslash(raw, i+1)
			if len(s) < j-i || string(raw[i:j]) != s[:j-i] {
				return false
			}
			s = s[j-i:]
			i = j
			continue
		}
		r, n := Unescape(raw[i:])
		i += n
		w := len(AppendRune(buf[:0], r))
		if len(s) < w || s[:w] != string(buf[:w]) {
			return false
		}
		s = s[w:]
	}
	return len(s) == 0
}

// Escaping says how strings are quoted when written. The zero value is
// Python's json.dumps(ensure_ascii=False): only '"', '\\' and control
// characters are escaped, with lower-case hex digits.
type Escaping struct {
	ASCII   bool // escape every character outside ' '..'~' (Python's ensure_ascii)
	Upper   bool // upper-case hex digits in \u escapes
	HTML    bool // escape '<', '>' and '&' (Go's encoding/json)
	LineSep bool // escape U+2028 and U+2029 (Go's encoding/json)
	Slash   bool // escape '/' as "\/"
}

const hexLower = "0123456789abcdef"
const hexUpper = "0123456789ABCDEF"

// AppendQuoted appends s as a JSON string. The WTF-8 bytes of a lone
// surrogate (see AppendRune) are written as its \u escape, whatever the
// escaping. It reports false if s is otherwise not valid UTF-8 (the
// invalid bytes are then written as U+FFFD).
func AppendQuoted(dst []byte, s string, e Escaping) ([]byte, bool) {
	ok := true
	digits := hexLower
	if e.Upper {
		digits = hexUpper
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
			!(e.HTML && (c == '<' || c == '>' || c == '&')) && !(e.Slash && c == '/') {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			// An ASCII character to escape: by its short escape where
			// JSON has one, else as \u00xx (DEL only with e.ASCII).
			dst = append(dst, s[start:i]...)
			if x := shortEscape[c]; x != 0 {
				dst = append(dst, '\\', x)
			} else if c == 0x7f && !e.ASCII {
				dst = append(dst, c)
			} else {
				dst = appendU(dst, rune(c), digits)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if sr, isSurrogate := surrogateAt(s[i:]); isSurrogate {
			r, size = sr, 3
		}
		switch {
		case utf16.IsSurrogate(r):
			dst = appendU(append(dst, s[start:i]...), r, digits)
			start = i + size
		case r == utf8.RuneError && size == 1:
			ok = false
			dst = append(dst, s[start:i]...)
			if e.ASCII {
				dst = appendU(dst, utf8.RuneError, digits)
			} else {
				dst = append(dst, "\uFFFD"...)
			}
			start = i + size
		case r > 0xFFFF && e.ASCII:
			r1, r2 := utf16.EncodeRune(r)
			dst = appendU(appendU(append(dst, s[start:i]...), r1, digits), r2, digits)
			start = i + size
		case e.ASCII || e.LineSep && (r == '\u2028' || r == '\u2029'):
			dst = appendU(append(dst, s[start:i]...), r, digits)
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), ok
}

// shortEscape is the letter of the two-character escape of each ASCII
// character JSON has one for, else 0.
var shortEscape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '/': '/', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// appendU appends \uXXXX for r (at most 0xFFFF) with the hex digits given.
func appendU(dst []byte, r rune, digits string) []byte {
	return append(dst, '\\', 'u', digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15])
}

// EachString calls f with the contents (between the quotes, still escaped)
// of each string in raw, a validated JSON array of strings.
func EachString(raw []byte, f func(contents []byte)) {
	for i := 0; i < len(raw); i++ {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			return
		}
		i += q
		j := i + 1
		for {
			// The next quote ends the string unless a backslash before
			// it starts an escape (which may be \").
			q := j + bytes.IndexByte(raw[j:], '"')
			e := bytes.IndexByte(raw[j:q], '\\')
			if e < 0 {
				j = q
				break
			}
			j += e + 2
		}
		f(raw[i+1 : j])
		i = j
	}
}

// nextBackslash is the index of the first backslash in raw from i, or
// len(raw).
func nextBackslash(raw []byte, i int) int {
	if k := bytes.IndexByte(raw[i:], '\\'); k >= 0 {
		return i + k
	}
	return len(raw)
}

// IsPythonToken reports whether the string token raw (with its quotes and
// node flags) is spelled exactly as Python's json.dumps spells its value,
// with ensure_ascii=ascii: only '"', '\\' and control characters escaped
// (as \" \\ \n \r \t \b \f, else \u00xx), and with ascii every character
// from DEL up as lower-case \uxxxx.
func IsPythonToken(raw []byte, ascii bool, flags uint8) bool {
	if ascii && flags&FlagASCII == 0 {
		return false
	}
	if ascii && bytes.IndexByte(raw, 0x7f) >= 0 {
		return false
	}
	if flags&FlagEscaped == 0 {
		return true
	}
	for i := 1; i < len(raw)-1; i++ {
		k := bytes.IndexByte(raw[i:len(raw)-1], '\\')
		if k < 0 {
			break
		}
		i += k
		switch raw[i+1] {
		case '"', '\\', 'n', 'r', 't', 'b', 'f':
			i++
		case 'u':
			var cp rune
			for _, h := range raw[i+2 : i+6] {
				if h >= 'A' && h <= 'F' {
					return false
				}
				cp = cp<<4 | rune(unhex(h))
			}
			switch {
			case cp < 0x20:
				if cp == '\b' || cp == '\t' || cp == '\n' || cp == '\f' || cp == '\r' {
					return false
				}
			case ascii && cp >= 0x7f:
			default:
				return false
			}
			i += 5
		default:
			return false
		}
	}
	return true
}
