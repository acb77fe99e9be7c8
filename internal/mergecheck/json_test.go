package mergecheck

// The property test's JSON: objects keeping their members' order, lone
// surrogates kept, files written in a detected style.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The JSON values of this package are those encoding/json decodes with
// UseNumber, except that objects are *obj (members in their order), and
// that a string's lone surrogate escape ("\ud83d" without its pair),
// which encoding/json would turn into U+FFFD, is kept as the sentinel
// U+FDD0 followed by the code unit's four lowercase hex digits (and a
// U+FDD0 of the text itself as U+FDD0 "fdd0"): strings compare as the
// file spells them, and write back as they were.

// obj is a JSON object keeping its members' order.
type obj struct {
	keys []string
	vals map[string]any
}

func newObj(kv ...any) *obj {
	o := &obj{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

func (o *obj) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// set replaces k's value, or appends k.
func (o *obj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *obj) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
}

// sub returns the object under k, made (and set) if make is true and k
// holds no object.
func (o *obj) sub(k string, make bool) *obj {
	if v, ok := o.vals[k].(*obj); ok {
		return v
	}
	if !make {
		return nil
	}
	v := newObj()
	o.set(k, v)
	return v
}

func str(v any) string { s, _ := v.(string); return s }

// clone copies a value deeply.
func clone(v any) any {
	switch v := v.(type) {
	case *obj:
		c := &obj{keys: slices.Clone(v.keys), vals: make(map[string]any, len(v.vals))}
		for k, x := range v.vals {
			c.vals[k] = clone(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = clone(x)
		}
		return c
	}
	return v
}

const sentinel = '\uFDD0'

// markLone rewrites the lone surrogate escapes inside the strings of a
// JSON text as sentinel escapes ("\ud83d" → "\ufdd0d83d"), and the
// sentinel itself as "\ufdd0fdd0", so that decoding keeps them.
func markLone(data []byte) []byte {
	var out []byte
	copied := 0
	inStr := false
	unit := func(i int) (rune, bool) {
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	emit := func(from, to int, u rune) {
		out = append(out, data[copied:from]...)
		out = append(out, fmt.Sprintf(`\ufdd0%04x`, u)...)
		copied = to
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !inStr:
			inStr = c == '"'
		case c == '"':
			inStr = false
		case c == 0xEF && i+2 < len(data) && data[i+1] == 0xB7 && data[i+2] == 0x90: // U+FDD0 itself
			emit(i, i+3, sentinel)
			i += 2
		case c == '\\':
			u, ok := unit(i)
			if !ok {
				i++ // a two-character escape
				continue
			}
			switch {
			case u == sentinel:
				emit(i, i+6, u)
			case u >= 0xD800 && u < 0xDC00:
				if lo, ok := unit(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
					i += 11
					continue
				}
				emit(i, i+6, u)
			case u >= 0xDC00 && u < 0xE000:
				emit(i, i+6, u)
			}
			i += 5
		}
	}
	if out == nil {
		return data
	}
	return append(out, data[copied:]...)
}

// parseJSON decodes one JSON text (nothing but space after it). The
// value is the caller's own: a deep copy of the one decoded.
func parseJSON(data []byte) (any, error) {
	p := decoded.get(data, func(data []byte) parse {
		v, err := decodeJSON(data)
		return parse{v, err}
	})
	if p.err != nil {
		return nil, p.err
	}
	return clone(p.v), nil
}

type parse struct {
	v   any
	err error
}

var decoded = newMemo[parse](512)

// decodeJSON decodes one JSON text (nothing but space after it).
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(markLone(data)))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value (%v)", err)
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := newObj()
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k.(string), v)
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	case json.Delim('}'), json.Delim(']'):
		return nil, errors.New("unexpected " + tok.(json.Delim).String())
	}
	return tok, nil
}

// style is how a notebook file is written.
type style struct {
	indent string // "" writes one line
	sorted bool   // keys sorted (else in order)
	ascii  bool   // non-ASCII escaped
	noNL   bool   // no final newline
}

var (
	jupyterStyle = style{indent: " ", sorted: true}
	colabStyle   = style{indent: "  "}
	asciiStyle   = style{indent: " ", sorted: true, ascii: true}
	oneLineStyle = style{noNL: true}
	indent4Style = style{indent: "    ", noNL: true}
	styles       = []style{jupyterStyle, colabStyle, asciiStyle, oneLineStyle, indent4Style}
)

// write returns v's JSON text in style s.
func (s style) write(v any) []byte {
	var b bytes.Buffer
	s.value(&b, v, 0)
	if !s.noNL {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func (s style) nl(b *bytes.Buffer, depth int) {
	if s.indent != "" {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(s.indent, depth))
	}
}

func (s style) value(b *bytes.Buffer, v any, depth int) {
	switch v := v.(type) {
	case *obj:
		keys := v.keys
		if s.sorted {
			keys = slices.Clone(keys)
			slices.Sort(keys)
		}
		if len(keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			s.nl(b, depth+1)
			s.str(b, k)
			if s.indent == "" {
				b.WriteByte(':')
			} else {
				b.WriteString(": ")
			}
			s.value(b, v.vals[k], depth+1)
		}
		s.nl(b, depth)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			s.nl(b, depth+1)
			s.value(b, x, depth+1)
		}
		s.nl(b, depth)
		b.WriteByte(']')
	case string:
		s.str(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("mergecheck: no JSON for %T", v))
	}
}

func (s style) str(b *bytes.Buffer, v string) {
	b.WriteByte('"')
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		if r == sentinel && i+n+4 <= len(v) {
			b.WriteString(`\u` + v[i+n:i+n+4])
			i += n + 4
			continue
		}
		i += n
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		case s.ascii && r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		case s.ascii && r >= 0x80:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// equal reports whether two values are the same JSON value: objects
// whatever their members' order, numbers by value.
func equal(a, b any) bool {
	switch a := a.(type) {
	case *obj:
		b, ok := b.(*obj)
		if !ok || len(a.vals) != len(b.vals) {
			return false
		}
		for k, x := range a.vals {
			y, ok := b.vals[k]
			if !ok || !equal(x, y) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equal)
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == b {
			return true
		}
		x, ok1 := new(big.Rat).SetString(a.String())
		y, ok2 := new(big.Rat).SetString(b.String())
		return ok1 && ok2 && x.Cmp(y) == 0
	}
	return a == b
}

// at returns the value at an RFC 6901 pointer below v.
func at(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case *obj:
			var ok bool
			if v, ok = x.get(tok); !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// pointerTo appends an escaped member name to a pointer.
func pointerTo(ptr, key string) string {
	return ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// compact is a short text of a value for messages.
func compact(v any, ok bool) string {
	if !ok {
		return "(absent)"
	}
	s := string(oneLineStyle.write(v))
	if len(s) > 160 {
		s = s[:150] + "…" + s[len(s)-8:]
	}
	return s
}
