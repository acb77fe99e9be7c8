package jsontree

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// The scanning of scalars: literals, numbers and strings, each checked
// against the JSON grammar (with Python's NaN, Infinity and -Infinity)
// and left at p.pos's end, the flags the tape records worked out on the
// way. The parser (parse.go) calls these for every scalar value and key.

// scalar scans the literal or number at p.pos, which starts with c.
func (p *parser) scalar(c byte) (Kind, uint8, error) {
	switch c {
	case 't':
		return True, 0, p.literal("true")
	case 'f':
		return False, 0, p.literal("false")
	case 'n':
		return Null, 0, p.literal("null")
	case 'N':
		return Number, FlagNonFinite, p.literal("NaN")
	case 'I':
		return Number, FlagNonFinite, p.literal("Infinity")
	}
	if c == '-' || isDigit(c) {
		flags, err := p.scanNumber()
		return Number, flags, err
	}
	return Invalid, 0, p.unexpected("a value")
}

// literal scans the literal lit at p.pos, pointing an error at the first
// byte that differs.
func (p *parser) literal(lit string) error {
	if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
		p.pos += len(lit)
		return nil
	}
	// Point at the first byte that differs.
	for i := 0; i < len(lit); i++ {
		if p.pos+i >= len(p.data) || p.data[p.pos+i] != lit[i] {
			p.pos += i
			return p.unexpected(fmt.Sprintf("%q", lit))
		}
	}
	return nil
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber scans the number at p.pos (or -Infinity), returning
// FlagInt for an integer, FlagNonFinite for -Infinity.
func (p *parser) scanNumber() (uint8, error) {
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
		if i < len(d) && d[i] == 'I' {
			p.pos = i
			if err := p.literal("Infinity"); err != nil {
				return 0, err
			}
			return FlagNonFinite, nil
		}
	}
	if i >= len(d) {
		p.pos = i
		return 0, p.unexpected("a digit")
	}
	flags := FlagInt
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		p.pos = i
		return 0, p.unexpected("a digit")
	}
	if i < len(d) && d[i] == '.' {
		flags = 0
		i++
		if i >= len(d) || !isDigit(d[i]) {
			p.pos = i
			return 0, p.unexpected("a digit after the decimal point")
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		flags = 0
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			p.pos = i
			return 0, p.unexpected("a digit in the exponent")
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	p.pos = i
	return flags, nil
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialMask returns, for 8 bytes (the first in the low byte), a mask
// whose lowest set bit is the high bit of the first byte that is a quote,
// a backslash, a control character or non-ASCII: the bytes the string
// scanner must look at one by one. It is 0 when all 8 bytes are ordinary.
//
// A byte b is flagged by (b^2)-0x21 (a borrow: b^2 is at most 0x20, so b
// is below 0x20 or is '"', 0x22, which the flip of bit 1 makes 0x20),
// b^'\\'-1 (a borrow out of 0: b is '\\') or b itself (b >= 0x80), each
// at its high bit. The first two also flag bytes from 0x80 up (b is
// flagged then anyway: the flips keep the high bit), and a borrow out of
// a flagged byte may flag the byte above it (only above the first): the
// lowest flag is always exact. (Quotes and control characters in one
// subtraction: seven operations a word instead of nine.)
func specialMask(x uint64) uint64 {
	quoteCtl := (x ^ (lsb * 0x02)) - lsb*0x21
	bslash := (x ^ (lsb * '\\')) - lsb
	return (quoteCtl | bslash | x) & msb
}

// flagUEscape is a scanStr result beside the node flags (never stored in
// a node): the string has a \u escape.
const flagUEscape uint8 = 1 << 7

// badString reports whether the string at p.pos, which scanStr scanned
// to end, is an error ([parser.stringError]): it breaks the grammar (end
// is -1) or MaxString.
func (p *parser) badString(end int) bool {
	return end < 0 || end-p.pos-2 > p.maxString
}

// scanStr scans the string token at d[start] (an opening quote): it
// returns the offset just past its closing quote and its flags, or -1
// and the offset of the first byte that breaks the grammar (len(d) when
// the input ends first), which [parser.stringError] describes. Ordinary
// bytes are skipped 8 at a time, up to the first that is not.
func scanStr(d []byte, start int) (end int, flags uint8, bad int) {
	i := start + 1
	flags = FlagASCII
	for {
		for ; i < len(d)-7; i += 8 {
			if m := specialMask(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
		}
		if i >= len(d) {
			return -1, 0, len(d)
		}
		c := d[i]
		switch {
		case c == '"':
			return i + 1, flags, 0
		case c == '\\':
			flags |= FlagEscaped
			if i+1 >= len(d) {
				return -1, 0, i
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || unhex(d[i+2])|unhex(d[i+3])|unhex(d[i+4])|unhex(d[i+5]) < 0 {
					return -1, 0, i
				}
				flags |= flagUEscape
				i += 6
			default:
				return -1, 0, i
			}
		case c < 0x20:
			return -1, 0, i
		case c < utf8.RuneSelf:
			i++ // in the last 7 bytes of the input
		default:
			flags &^= FlagASCII
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return -1, 0, i
			}
			i += size
		}
	}
}

// stringError describes what is wrong with the string at p.pos, which
// scanStr scanned to end, or, when end is -1, to a byte at bad that
// breaks the grammar.
func (p *parser) stringError(end, bad int) error {
	d := p.data
	switch {
	case end >= 0:
		n := end - p.pos - 2
		return &SyntaxError{Offset: int64(p.pos), Msg: fmt.Sprintf("a string of %d bytes, more than the limit of %d", n, p.lim.MaxString), Limit: true}
	case bad >= len(d) || d[bad] == '\\' && bad+1 >= len(d):
		return p.errorf(p.pos, "unterminated string")
	case d[bad] == '\\' && d[bad+1] == 'u' && bad+6 > len(d):
		return p.errorf(bad, "unterminated \\u escape")
	case d[bad] == '\\' && d[bad+1] == 'u':
		return p.errorf(bad, "invalid \\u escape %q", d[bad:bad+6])
	case d[bad] == '\\':
		return p.errorf(bad, "invalid escape %q in string", d[bad:bad+2])
	case d[bad] < 0x20:
		return p.errorf(bad, "invalid control character 0x%02x in string", d[bad])
	}
	return p.errorf(bad, "invalid UTF-8 in string")
}

// unhex returns the value of hex digit c, -1 if c is not one.
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
