package jsonvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoding JSON text into generic values, exactly: strings keep every
// UTF-16 code unit their escapes name (a lone surrogate, which UTF-8
// cannot hold, is carried as its WTF-8 bytes: see AppendQuoted), numbers
// keep their spelling (json.Number), and Python's NaN, Infinity and
// -Infinity, which notebooks may hold, are float64.

// ErrSyntax is the cause of every error of Decode, Members and Elements.
var ErrSyntax = errors.New("jsonvalue: not JSON")

// maxDepth bounds the nesting Decode follows (as package nbformat's
// reader bounds it).
const maxDepth = 10000

// Decode decodes one JSON value: objects as map[string]any (the last of
// repeated keys wins, as in Python), arrays as []any, strings as Go
// strings (lone surrogates as WTF-8), numbers as json.Number holding
// their text, NaN and ±Infinity as float64, true, false and null as bool
// and nil. Text after the value is an error.
func Decode(data []byte) (any, error) {
	d := decoder{s: data}
	v, err := d.value(0)
	if err == nil {
		d.space()
		if d.i != len(d.s) {
			err = d.fail("text after the value")
		}
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// A Member is one member of an object, its value as written.
type Member struct {
	Key   string
	Value json.RawMessage
}

// A Span is where one member of an object is in its text: its key
// (decoded), the offsets of the key's opening quote and of the value's
// first byte, and the end of the value.
type Span struct {
	Key               string
	Start, Value, End int
}

// Spans returns where each member of the JSON object raw is, in order
// (a repeated key each time); ok is false if raw is not one JSON object.
func Spans(raw []byte) (ss []Span, ok bool) {
	d := decoder{s: raw}
	d.space()
	if !d.peek('{') {
		return nil, false
	}
	for first := true; ; first = false {
		d.space()
		if first && d.peek('}') {
			break
		}
		start := d.i
		k, err := d.str()
		if err != nil || d.colon() != nil {
			return nil, false
		}
		d.space()
		v := d.i
		if err := d.skip(0); err != nil {
			return nil, false
		}
		ss = append(ss, Span{k, start, v, d.i})
		d.space()
		if d.peek('}') {
			break
		}
		if !d.peek(',') {
			return nil, false
		}
	}
	d.space()
	return ss, d.i == len(d.s)
}

// Members returns the members of the JSON object raw in the order of their
// keys' first occurrence, each with the value of its last (the order and
// values Python's json gives), values as sub-slices of raw; ok is false if
// raw is not one JSON object.
func Members(raw []byte) (ms []Member, ok bool) {
	d := decoder{s: raw}
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != '{' {
		return nil, false
	}
	d.i++
	index := map[string]int{}
	for first := true; ; first = false {
		d.space()
		if first && d.peek('}') {
			break
		}
		k, err := d.str()
		if err != nil || d.colon() != nil {
			return nil, false
		}
		d.space()
		start := d.i
		if err := d.skip(0); err != nil {
			return nil, false
		}
		v := json.RawMessage(raw[start:d.i])
		if j, seen := index[k]; seen {
			ms[j].Value = v
		} else {
			index[k] = len(ms)
			ms = append(ms, Member{k, v})
		}
		d.space()
		if d.peek('}') {
			break
		}
		if !d.peek(',') {
			return nil, false
		}
	}
	d.space()
	if d.i != len(d.s) {
		return nil, false
	}
	if ms == nil {
		ms = []Member{}
	}
	return ms, true
}

// Elements returns the elements of the JSON array raw as sub-slices of
// it; ok is false if raw is not one JSON array.
func Elements(raw []byte) (es []json.RawMessage, ok bool) {
	spans, ok := ElementSpans(raw)
	if !ok {
		return nil, false
	}
	es = make([]json.RawMessage, len(spans))
	for i, sp := range spans {
		es[i] = raw[sp[0]:sp[1]]
	}
	return es, true
}

// ElementSpans returns where each element of the JSON array raw is: the
// offsets of its first byte and of its end; ok is false if raw is not one
// JSON array.
func ElementSpans(raw []byte) (spans [][2]int, ok bool) {
	d := decoder{s: raw}
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != '[' {
		return nil, false
	}
	d.i++
	spans = [][2]int{}
	for first := true; ; first = false {
		d.space()
		if first && d.peek(']') {
			break
		}
		start := d.i
		if err := d.skip(0); err != nil {
			return nil, false
		}
		spans = append(spans, [2]int{start, d.i})
		d.space()
		if d.peek(']') {
			break
		}
		if !d.peek(',') {
			return nil, false
		}
	}
	d.space()
	return spans, d.i == len(d.s)
}

type decoder struct {
	s []byte
	i int
	// discard: the value is checked, not built (skip): strings, maps,
	// lists and numbers are not made.
	discard bool
}

func (d *decoder) fail(what string) error {
	return fmt.Errorf("%w: offset %d: %s", ErrSyntax, d.i, what)
}

func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek consumes c if it is next.
func (d *decoder) peek(c byte) bool {
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *decoder) colon() error {
	d.space()
	if !d.peek(':') {
		return d.fail("want ':'")
	}
	return nil
}

// value decodes the value at d.i.
func (d *decoder) value(depth int) (any, error) {
	d.space()
	if d.i >= len(d.s) {
		return nil, d.fail("unexpected end")
	}
	if depth > maxDepth {
		return nil, d.fail("nested too deep")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		d.i++
		var m map[string]any
		if !d.discard {
			m = map[string]any{}
		}
		for first := true; ; first = false {
			d.space()
			if first && d.peek('}') {
				return m, nil
			}
			k, err := d.str()
			if err != nil {
				return nil, err
			}
			if err := d.colon(); err != nil {
				return nil, err
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if !d.discard {
				m[k] = v
			}
			d.space()
			if d.peek('}') {
				return m, nil
			}
			if !d.peek(',') {
				return nil, d.fail("want ',' or '}'")
			}
		}
	case c == '[':
		d.i++
		var l []any
		if !d.discard {
			l = []any{}
		}
		for first := true; ; first = false {
			d.space()
			if first && d.peek(']') {
				return l, nil
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if !d.discard {
				l = append(l, v)
			}
			d.space()
			if d.peek(']') {
				return l, nil
			}
			if !d.peek(',') {
				return nil, d.fail("want ',' or ']'")
			}
		}
	case c == '"':
		return d.str()
	}
	return d.scalar()
}

// skip passes over the value at d.i, checking it.
func (d *decoder) skip(depth int) error {
	d.space()
	if d.i >= len(d.s) {
		return d.fail("unexpected end")
	}
	switch d.s[d.i] {
	case '{', '[', '"':
		// (Checked as value and str check it, nothing built.)
		was := d.discard
		d.discard = true
		_, err := d.value(depth)
		d.discard = was
		return err
	}
	_, err := d.scalar()
	return err
}

// literals are the words a value may be.
var literals = []struct {
	word string
	v    any
}{{"true", true}, {"false", false}, {"null", nil},
	{"NaN", math.NaN()}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}}

// scalar decodes a number or a literal.
func (d *decoder) scalar() (any, error) {
	rest := d.s[d.i:]
	for _, l := range literals {
		if len(rest) >= len(l.word) && string(rest[:len(l.word)]) == l.word {
			d.i += len(l.word)
			return l.v, nil
		}
	}
	// A number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
	start := d.i
	d.peek('-')
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.peek('0') {
		// no more integer digits
	} else if digits() == 0 {
		d.i = start
		return nil, d.fail("want a value")
	}
	if d.peek('.') && digits() == 0 {
		return nil, d.fail("want a digit")
	}
	if d.peek('e') || d.peek('E') {
		if !d.peek('+') {
			d.peek('-')
		}
		if digits() == 0 {
			return nil, d.fail("want a digit")
		}
	}
	if d.discard {
		return nil, nil
	}
	return json.Number(d.s[start:d.i]), nil
}

// str decodes the string at d.i: escapes decoded, a lone surrogate as
// its WTF-8 bytes; raw control characters and invalid UTF-8 are errors.
func (d *decoder) str() (string, error) {
	if !d.peek('"') {
		return "", d.fail("want a string")
	}
	start := d.i
	for d.i < len(d.s) && d.s[d.i] != '"' && d.s[d.i] != '\\' && d.s[d.i] >= 0x20 && d.s[d.i] < utf8.RuneSelf {
		d.i++
	}
	if d.i < len(d.s) && d.s[d.i] == '"' {
		d.i++
		if d.discard {
			return "", nil
		}
		return string(d.s[start : d.i-1]), nil
	}
	var b []byte // (nil, and left so, when discarding)
	if !d.discard {
		b = append(b, d.s[start:d.i]...)
	}
	for {
		if d.i >= len(d.s) {
			return "", d.fail("unterminated string")
		}
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			if d.discard {
				return "", nil
			}
			return string(b), nil
		case c < 0x20:
			return "", d.fail("control character in a string")
		case c == '\\':
			r, n, ok := unescape(d.s[d.i:])
			if !ok {
				return "", d.fail("bad escape")
			}
			if !d.discard {
				b = AppendRune(b, r)
			}
			d.i += n
		case c < utf8.RuneSelf:
			if !d.discard {
				b = append(b, c)
			}
			d.i++
		default:
			r, n := utf8.DecodeRune(d.s[d.i:])
			if r == utf8.RuneError && n == 1 {
				return "", d.fail("invalid UTF-8")
			}
			if !d.discard {
				b = append(b, d.s[d.i:d.i+n]...)
			}
			d.i += n
		}
	}
}

// unescape decodes the escape at the start of s: the code point (a
// surrogate pair as one character, a lone surrogate as itself), its
// length, and whether it is a valid escape.
func unescape(s []byte) (rune, int, bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, 0, false
		}
		if r >= 0xd800 && r < 0xdc00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, ok := hex4(s[8:]); ok && lo >= 0xdc00 && lo < 0xe000 {
				return utf16.DecodeRune(r, lo), 12, true
			}
		}
		return r, 6, true
	}
	return 0, 0, false
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// At returns the value at the path of keys (array indexes in decimal)
// inside v, and whether there is one: objects of any map type and raw
// JSON objects by key, arrays ([]any or raw JSON) by index; a value
// inside raw JSON is raw JSON.
func At(v any, path []string) (any, bool) {
	for _, k := range path {
		if r, ok := v.(json.RawMessage); ok {
			if ms, ok := Members(r); ok {
				found := false
				for _, m := range ms {
					if m.Key == k {
						v, found = m.Value, true
						break
					}
				}
				if !found {
					return nil, false
				}
				continue
			}
			es, ok := Elements(r)
			i, isIndex := index(k, len(es))
			if !ok || !isIndex {
				return nil, false
			}
			v = es[i]
			continue
		}
		if l, ok := v.([]any); ok {
			i, isIndex := index(k, len(l))
			if !isIndex {
				return nil, false
			}
			v = l[i]
			continue
		}
		m, ok := Object(v)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// index reads an array index of RFC 6901 (decimal, no leading zeros)
// below n.
func index(k string, n int) (int, bool) {
	if k == "" || len(k) > 1 && k[0] == '0' {
		return 0, false
	}
	i := 0
	for _, c := range []byte(k) {
		if c < '0' || c > '9' || i > n {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i < n
}
