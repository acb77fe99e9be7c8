package main

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Sizes of values as encoding/json writes them (json.Marshal: HTML-safe
// escaping, floats as ES6 spells them), computed without writing them.
// They are the rules of encoding/json's appendString, floatEncoder and
// appendCompact (for json.RawMessage); TestOutputSizeCases and
// FuzzOutputSize hold them to encoding/json's output.

// asciiSize is the size encoding/json writes each ASCII character of a
// string in: \" \\ \b \f \n \r \t, other control characters and <, >, &
// as \u00XX.
var asciiSize = func() (s [utf8.RuneSelf]uint8) {
	for c := range s {
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			s[c] = 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			s[c] = 6
		default:
			s[c] = 1
		}
	}
	return s
}()

// encodedStringSize is the size encoding/json writes the string s in,
// with its quotes.
func encodedStringSize(s []byte) int {
	n := 2
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiSize[c])
			i++
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			n += len(`\ufffd`) // a byte that is not UTF-8
		case r == '\u2028' || r == '\u2029':
			n += len(`\u2028`)
		default:
			n += w
		}
		i += w
	}
	return n
}

// numberSize is the size encoding/json writes a number of generic JSON
// in, the number written raw with the flags of its tape node, decoded as
// nbformat decodes it: an int for an integer that fits, json.Number (as
// written) for a larger one, else a float64. It is -1 for NaN and
// infinities, which encoding/json refuses.
func numberSize(raw []byte, flags uint8) int {
	if flags&jsontree.FlagNonFinite != 0 {
		return -1
	}
	var buf [32]byte
	if flags&jsontree.FlagInt != 0 {
		i, err := strconv.ParseInt(string(raw), 10, 0)
		if err != nil {
			return len(raw)
		}
		return len(strconv.AppendInt(buf[:0], i, 10))
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) {
		return -1
	}
	// As encoding/json's floatEncoder: %f, or %e out of [1e-6, 1e21),
	// without the exponent's leading zero.
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(buf[:0], f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		return n - 1
	}
	return len(b)
}

// rawSize is the size encoding/json writes a json.RawMessage holding raw
// (valid JSON to nbformat) in: compacted, with <, >, &, U+2028 and U+2029
// escaped; -1 when encoding/json would refuse it (NaN, Infinity, a raw
// control character in a string).
func rawSize(raw []byte) int {
	n, inString := 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			n += 6
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8:
			n += 6
			i += 2
		case inString && c == '\\':
			n += 2
			i++
		case c == '"':
			inString = !inString
			n++
		case inString && c < 0x20:
			return -1
		case inString:
			n++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == 'N' || c == 'I':
			return -1 // NaN, Infinity
		default:
			n++
		}
	}
	return n
}
