// Package jsonsize gives the size encoding/json writes a value in
// (json.Marshal: HTML-safe escaping, floats as ES6 spells them,
// json.RawMessage compacted), computed without writing it. It follows
// encoding/json's appendString, floatEncoder and appendCompact; its tests
// and FuzzValue hold it to encoding/json's output. It is not part of the
// public API: package convert sizes the outputs it reads with it (see
// dialog.OutputSource.Size).
//
// Every function reports ok false (or -1) where encoding/json would refuse
// the value (NaN, infinities, invalid json.RawMessage) or where the value
// is not one this package knows: callers then encode it.
package jsonsize

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
)

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

// String is the size encoding/json writes s in, with its quotes.
func String(s string) int {
	n := 2
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiSize[c])
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		n += runeSize(r, w)
		i += w
	}
	return n
}

// Bytes is String for a string held as bytes.
func Bytes(s []byte) int {
	n := 2
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiSize[c])
			i++
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		n += runeSize(r, w)
		i += w
	}
	return n
}

// runeSize is the size encoding/json writes a non-ASCII rune in, decoded
// from w bytes.
func runeSize(r rune, w int) int {
	switch {
	case r == utf8.RuneError && w == 1:
		return len(`\ufffd`) // a byte that is not UTF-8
	case r == '\u2028' || r == '\u2029':
		return len(`\u2028`)
	}
	return w
}

// Int is the size encoding/json writes i in.
func Int(i int) int {
	var buf [24]byte
	return len(strconv.AppendInt(buf[:0], int64(i), 10))
}

// Float is the size encoding/json writes f in (ok false for NaN and
// infinities, which it refuses).
func Float(f float64) (int, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	// As encoding/json's floatEncoder: %f, or %e out of [1e-6, 1e21),
	// without the exponent's leading zero.
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		return n - 1, true
	}
	return len(b), true
}

// Literal is the size encoding/json writes a number of generic JSON in,
// given as written in JSON with the flags of its tape node, decoded as
// nbformat decodes it: an int for an integer that fits, json.Number (as
// written) for a larger one, else a float64.
func Literal(raw []byte, flags uint8) (int, bool) {
	if flags&jsontree.FlagNonFinite != 0 {
		return 0, false
	}
	if flags&jsontree.FlagInt != 0 {
		i, err := strconv.ParseInt(string(raw), 10, 0)
		if err != nil {
			return len(raw), true
		}
		return Int(int(i)), true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, false
	}
	return Float(f)
}

// Number is the size encoding/json writes n in: as it is, "0" for the
// empty json.Number (ok false when it is not a JSON number: encoding/json
// refuses it).
func Number(n json.Number) (int, bool) {
	if n == "" {
		return 1, true
	}
	if c := n[0]; c != '-' && (c < '0' || c > '9') || !json.Valid([]byte(n)) {
		return 0, false
	}
	return len(n), true
}

// Raw is the size encoding/json writes a json.RawMessage holding raw in:
// compacted, with <, >, &, U+2028 and U+2029 escaped; "null" when empty.
// raw must be valid JSON to nbformat (which also reads NaN and
// Infinity): ok is false where encoding/json refuses it (NaN, Infinity, a
// raw control character in a string).
func Raw(raw []byte) (int, bool) {
	if len(raw) == 0 {
		return len("null"), true
	}
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
			return 0, false
		case inString:
			n++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == 'N' || c == 'I':
			return 0, false // NaN, Infinity
		default:
			n++
		}
	}
	return n, true
}

// Value is the size encoding/json writes a value of generic JSON in, as
// nbformat gives it (string, int, float64, json.Number, bool, nil,
// json.RawMessage, []any, map[string]any; a nil slice or map is empty, as
// nbformat's conversion to generic JSON makes it). ok is false for
// anything else and for what encoding/json refuses.
func Value(v any) (int, bool) {
	switch v := v.(type) {
	case nil:
		return 4, true
	case bool:
		if v {
			return 4, true
		}
		return 5, true
	case string:
		return String(v), true
	case int:
		return Int(v), true
	case float64:
		return Float(v)
	case json.Number:
		return Number(v)
	case json.RawMessage:
		return Raw(v)
	case []any:
		n := 2 + max(0, len(v)-1)
		for _, x := range v {
			s, ok := Value(x)
			if !ok {
				return 0, false
			}
			n += s
		}
		return n, true
	case map[string]any:
		n := 2 + max(0, len(v)-1)
		for k, x := range v {
			s, ok := Value(x)
			if !ok {
				return 0, false
			}
			n += String(k) + 1 + s
		}
		return n, true
	}
	return 0, false
}

// Escaped is the size encoding/json writes a string in, given as the
// contents of a JSON string (between its quotes, escapes as written,
// validated), decoded as nbformat decodes it (jsontree.AppendUnescaped: a
// \u escape naming a lone UTF-16 surrogate is its three WTF-8 bytes,
// which encoding/json writes as three \ufffd), without decoding
// it: the decoded string is the runs of bytes between escapes and the
// runes the escapes name, each of them whole (an escape starts with an
// ASCII byte and names a whole rune), so their sizes add up.
func Escaped(raw []byte) int {
	n := 2
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' {
			j++
		}
		n += Bytes(raw[i:j]) - 2
		if j == len(raw) {
			break
		}
		r, w := jsontree.Unescape(raw[j:])
		switch {
		case r < utf8.RuneSelf:
			n += int(asciiSize[r])
		case r >= 0xd800 && r < 0xe000: // a lone surrogate, as WTF-8
			n += 3 * len(`\ufffd`)
		default:
			n += runeSize(r, utf8.RuneLen(r))
		}
		i = j + w
	}
	return n
}

// Decoded is the size encoding/json writes raw (one validated JSON value)
// in, decoded whole as nbformat.Decode decodes it. ok is false where
// encoding/json refuses it, and where the decoded value is not sure:
// objects with a key given twice or escaped.
func Decoded(raw []byte) (int, bool) {
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth})
	if err != nil {
		return 0, false
	}
	return node(t, jsontree.Root)
}

// node is the size of node j of full tape t, decoded.
func node(t *jsontree.Tape, j int) (int, bool) {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.Null, jsontree.True:
		return 4, true
	case jsontree.False:
		return 5, true
	case jsontree.String:
		return Escaped(t.Raw(j)[1 : n.End-n.Start-1]), true
	case jsontree.Number:
		return Literal(t.Raw(j), n.Flags)
	case jsontree.Array, jsontree.Object:
	default:
		return 0, false
	}
	if n.Kind == jsontree.Object && !uniqueKeys(t, j) {
		return 0, false
	}
	size, items, ok := 2, 0, true
	t.Children(j, func(m int) bool {
		v, good := node(t, m)
		if !good {
			ok = false
			return false
		}
		if n.Kind == jsontree.Object {
			k := t.KeyRaw(m)
			size += Escaped(k[1:len(k)-1]) + 1
		}
		size += v
		items++
		return true
	})
	return size + max(0, items-1), ok
}

// uniqueKeys reports whether object o's keys are all different and none
// is escaped (an escaped key might equal another).
func uniqueKeys(t *jsontree.Tape, o int) bool {
	seen := make(map[string]bool, t.Nodes[o].Len)
	ok := true
	t.Children(o, func(j int) bool {
		if t.Nodes[j].Flags&jsontree.FlagKeyEscaped != 0 || seen[string(t.KeyRaw(j))] {
			ok = false
			return false
		}
		seen[string(t.KeyRaw(j))] = true
		return true
	})
	return ok
}

// Text is the size encoding/json writes the text of a multiline string in
// (raw: one validated JSON string, or an array of them, joined), from its
// JSON without decoding it: the one string's contents, or the sum of the
// strings' (an escape names a whole rune, decoded string by string as
// nbformat decodes them, so sizes add up).
func Text(raw []byte) int {
	if raw[0] == '"' {
		return Escaped(raw[1 : len(raw)-1])
	}
	n := 2
	jsontree.EachString(raw, func(s []byte) { n += Escaped(s) - 2 })
	return n
}
