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
// scanner must look at one by one. (Bits above the lowest may be set for
// ordinary bytes, by borrows; only the lowest is used.) It is 0 when all
// 8 bytes are ordinary.
func specialMask(x uint64) uint64 {
	quote := x ^ (lsb * '"')
	bslash := x ^ (lsb * '\\')
	return ((quote-lsb)&^quote | (bslash-lsb)&^bslash | (x - lsb*0x20) | x) & msb
}

// flagUEscape is a scanString result beside the node flags (never stored
// in a node): the string has a \u escape.
const flagUEscape uint8 = 1 << 7

// scanString scans the string starting at p.pos (an opening quote) and
// leaves p.pos just past its closing quote. It returns the string's node
// flags (FlagASCII, FlagEscaped) and flagUEscape.
func (p *parser) scanString() (uint8, error) {
	d := p.data
	i := p.pos + 1
	flags := FlagASCII
	for {
		// Ordinary bytes 8 at a time, up to the first that is not (a
		// shrinking slice, for the compiler to see every load in bounds).
		for rest := d[i:]; len(rest) >= 8; rest = rest[8:] {
			if m := specialMask(binary.LittleEndian.Uint64(rest)); m != 0 {
				i = len(d) - len(rest) + bits.TrailingZeros64(m)>>3
				break
			}
			i += 8
		}
		if i >= len(d) {
			return 0, p.errorf(p.pos, "unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			if p.lim.MaxString > 0 && i-p.pos-1 > p.lim.MaxString {
				return 0, &SyntaxError{Offset: int64(p.pos), Msg: fmt.Sprintf("a string of %d bytes, more than the limit of %d", i-p.pos-1, p.lim.MaxString), Limit: true}
			}
			p.pos = i + 1
			return flags, nil
		case c == '\\':
			flags |= FlagEscaped
			if i+1 >= len(d) {
				return 0, p.errorf(p.pos, "unterminated string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					return 0, p.errorf(i, "unterminated \\u escape")
				}
				for _, h := range d[i+2 : i+6] {
					if unhex(h) < 0 {
						return 0, p.errorf(i, "invalid \\u escape %q", d[i:i+6])
					}
				}
				flags |= flagUEscape
				i += 6
			default:
				return 0, p.errorf(i, "invalid escape %q in string", d[i:i+2])
			}
		case c < 0x20:
			return 0, p.errorf(i, "invalid control character 0x%02x in string", c)
		case c < utf8.RuneSelf:
			i++ // in the last 7 bytes of the input
		default:
			flags &^= FlagASCII
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return 0, p.errorf(i, "invalid UTF-8 in string")
			}
			i += size
		}
	}
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
