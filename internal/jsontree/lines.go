package jsontree

import "bytes"

// Comparing multiline values (a string, or an array of strings) as they
// are written, in memory bounded by their longest string rather than by
// the value: a stream output of 300,000 lines is compared a line at a
// time.

// nextString returns the contents (between the quotes, still escaped) of
// the first string of raw, a validated JSON string or array of strings,
// at or after offset i, and the offset after it; ok is false when no
// string is left.
func nextString(raw []byte, i int) (contents []byte, next int, ok bool) {
	q := bytes.IndexByte(raw[i:], '"')
	if q < 0 {
		return nil, len(raw), false
	}
	i += q
	end := stringEnd(raw, i)
	return raw[i+1 : end-1], end, true
}

// EqualStrings reports whether a and b, validated JSON texts that are
// each a string or an array of strings, hold the same strings in the
// same order (escapes decoded). Strings are unescaped into scratch two
// at a time; it returns scratch for reuse.
func EqualStrings(a, b, scratch []byte) (bool, []byte) {
	i, j := 0, 0
	for {
		ca, ni, oka := nextString(a, i)
		cb, nj, okb := nextString(b, j)
		if oka != okb {
			return false, scratch
		}
		if !oka {
			return true, scratch
		}
		i, j = ni, nj
		if bytes.Equal(ca, cb) {
			continue
		}
		if bytes.IndexByte(ca, '\\') < 0 && bytes.IndexByte(cb, '\\') < 0 {
			return false, scratch
		}
		scratch = AppendUnescaped(scratch[:0], ca)
		mid := len(scratch)
		scratch = AppendUnescaped(scratch, cb)
		if !bytes.Equal(scratch[:mid], scratch[mid:]) {
			return false, scratch
		}
	}
}

// EqualLines reports whether raw, a validated JSON array of strings,
// holds exactly lines, in order, escapes decoded.
func EqualLines(raw []byte, lines []string) bool {
	i := 0
	for _, l := range lines {
		c, next, ok := nextString(raw, i)
		if !ok || !EqualUnescaped(c, l) {
			return false
		}
		i = next
	}
	_, _, more := nextString(raw, i)
	return !more
}

// EqualJoined reports whether the strings of raw, a validated JSON string
// or array of strings, joined, are s. Each string is unescaped into
// scratch in turn; it returns scratch for reuse.
func EqualJoined(raw []byte, s string, scratch []byte) (bool, []byte) {
	for i := 0; ; {
		c, next, ok := nextString(raw, i)
		if !ok {
			return s == "", scratch
		}
		i = next
		scratch = AppendUnescaped(scratch[:0], c)
		if len(scratch) > len(s) || string(scratch) != s[:len(scratch)] {
			return false, scratch
		}
		s = s[len(scratch):]
	}
}

// EqualJoinedRaw reports whether the strings of a and b, validated JSON
// strings or arrays of strings, joined, are the same text, however each
// splits it. Each side's strings are unescaped one at a time.
func EqualJoinedRaw(a, b []byte) bool {
	x, y := joinedCursor{raw: a}, joinedCursor{raw: b}
	for {
		x.fill()
		y.fill()
		if len(x.rest) == 0 || len(y.rest) == 0 {
			return len(x.rest) == 0 && len(y.rest) == 0
		}
		n := min(len(x.rest), len(y.rest))
		if !bytes.Equal(x.rest[:n], y.rest[:n]) {
			return false
		}
		x.rest, y.rest = x.rest[n:], y.rest[n:]
	}
}

// joinedCursor reads the joined text of a validated JSON string or array
// of strings a string at a time, for EqualJoinedRaw.
type joinedCursor struct {
	raw  []byte
	next int    // the offset in raw of the strings not yet read
	buf  []byte // the string read last, unescaped
	rest []byte // what of buf is not compared yet
}

// fill reads strings until rest is not empty or no string is left.
func (c *joinedCursor) fill() {
	for len(c.rest) == 0 {
		s, next, ok := nextString(c.raw, c.next)
		if !ok {
			return
		}
		c.next = next
		c.buf = AppendUnescaped(c.buf[:0], s)
		c.rest = c.buf
	}
}

// IsStrings reports whether raw, valid JSON text, is a string or an array
// whose items are all strings (a multiline string as the schema writes
// it), without allocating.
func IsStrings(raw []byte) bool {
	i := skipWS(raw, 0)
	if i == len(raw) {
		return false
	}
	if raw[i] == '"' {
		return true
	}
	if raw[i] != '[' {
		return false
	}
	for i = skipWS(raw, i+1); i < len(raw); i = skipWS(raw, i) {
		switch raw[i] {
		case ']':
			return true
		case ',':
			i++
		case '"':
			i = stringEnd(raw, i)
		default:
			return false
		}
	}
	return false
}
