package nbmap

// Generic JSON to typed values, as reading its JSON would fill them: the
// values (val), the decoders of the leaf types that map_gen.go calls (dec*
// functions: a value into a Go value, false when it does not fit the Go
// type; req says whether null may stand for a nil value), and the
// iteration over objects and arrays.

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
)

// A val is a value being decoded: a Go value (t nil) or a node of the tape
// of a value's JSON. A Go value whose JSON decodes to another Go value (a
// json.RawMessage, a json.Number, an int64, a value of another type) is
// decoded from its JSON, written as nbformat writes generic JSON
// (internal/nbjson) and read back (norm): the values that read back as
// themselves (nil, bool, int, float64, strings of valid UTF-8, and []any
// and map[string]any holding such values) are decoded as they are.
type val struct {
	t      *jsontree.Tape
	j      int
	g      any
	depth  int  // the nesting of a container here in the object decoded (that object: 1)
	normed bool // g reads back as itself
}

// decoder decodes one generic object. Decoding goes on past a failure (a
// value nbformat cannot write, or one nested too deep): failed then
// reports the error that writing the whole object gives.
type decoder struct {
	top map[string]any
	err error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// failed returns nil, or the error of writing and reading the whole object
// (which names the place of a value that contains itself), or else the
// first failure.
func (d *decoder) failed() error {
	if d.err == nil {
		return nil
	}
	raw, err := nbjson.Encode(d.top)
	if err != nil {
		return err
	}
	if _, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, nil); err != nil {
		return err
	}
	return d.err
}

// limit is the depth the JSON of v may have alone.
func (v val) limit() int { return nblimits.DefaultMaxDepth - max(v.depth-1, 0) }

// encode returns the JSON of the Go value v, checked against the depth v
// may have.
func (d *decoder) encode(v val) ([]byte, bool) {
	raw, err := nbjson.Encode(v.g)
	if err != nil {
		d.fail(err)
		return nil, false
	}
	if len(raw) >= v.limit() { // (a shorter text cannot be as deep)
		if _, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: v.limit()}, nil); err != nil {
			d.fail(err)
			return nil, false
		}
	}
	return raw, true
}

// norm returns v as it reads back: itself, or the root of its JSON's tape
// (a val of kind invalid when it cannot be written).
func (d *decoder) norm(v val) val {
	if v.t != nil || v.normed {
		return v
	}
	switch g := v.g.(type) {
	case nil, bool, int, float64:
		v.normed = true
		return v
	case string:
		if utf8.ValidString(g) {
			v.normed = true
			return v
		}
	case []any:
		if v.depth <= nblimits.DefaultMaxDepth {
			v.normed = true
			return v
		}
	case map[string]any:
		if v.depth <= nblimits.DefaultMaxDepth && validKeys(g) {
			v.normed = true
			return v
		}
	}
	return d.parse(v)
}

// parse returns the root of the tape of the Go value v's JSON (a val of
// kind invalid when it cannot be written).
func (d *decoder) parse(v val) val {
	raw, ok := d.encode(v)
	if !ok {
		return val{normed: true, g: invalid{}}
	}
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: v.limit()})
	if err != nil {
		d.fail(err)
		return val{normed: true, g: invalid{}}
	}
	return val{t: t, j: jsontree.Root, depth: v.depth, normed: true}
}

// invalid is the Go value of a val that could not be written: it fits
// nothing.
type invalid struct{}

func validKeys(m map[string]any) bool {
	for k := range m {
		if !utf8.ValidString(k) {
			return false
		}
	}
	return true
}

// kind is the JSON type of a normed v.
func (v val) kind() jsontree.Kind {
	if v.t != nil {
		return v.t.Nodes[v.j].Kind
	}
	switch g := v.g.(type) {
	case nil:
		return jsontree.Null
	case bool:
		if g {
			return jsontree.True
		}
		return jsontree.False
	case int, float64:
		return jsontree.Number
	case string:
		return jsontree.String
	case []any:
		return jsontree.Array
	case map[string]any:
		return jsontree.Object
	}
	return jsontree.Invalid
}

func (d *decoder) isNull(v val) bool   { return d.norm(v).kind() == jsontree.Null }
func (d *decoder) isObject(v val) bool { return d.norm(v).kind() == jsontree.Object }

// object calls set with each member of object v (which must be one), in
// order, and returns the members set did not take (reporting false) as
// AdditionalProperties keeps them; of repeated keys the last one wins.
func (d *decoder) object(v val, set func(key string, c val) bool) map[string]any {
	v = d.norm(v)
	var extra map[string]any
	if v.t == nil {
		m, _ := v.g.(map[string]any)
		for k, g := range m {
			c := val{g: g, depth: v.depth + 1}
			if set(k, c) {
				continue
			}
			if extra == nil {
				extra = make(map[string]any, min(len(m), 8))
			}
			extra[k] = d.generic(c)
		}
		return extra
	}
	t := v.t
	j := t.FirstChild(v.j)
	for range t.Nodes[v.j].Len {
		k, c := t.KeyString(j), val{t: t, j: j, depth: v.depth + 1}
		if set(k, c) {
			delete(extra, k)
		} else {
			if extra == nil {
				extra = make(map[string]any, 8)
			}
			extra[k] = d.generic(c)
		}
		j = t.Next(j)
	}
	if len(extra) == 0 {
		return nil
	}
	return extra
}

// array calls make with the length of array v and then elem with each
// element, in order, until it reports false; it reports whether v is an
// array whose every element elem took.
func (d *decoder) array(v val, make func(n int), elem func(i int, c val) bool) bool {
	v = d.norm(v)
	switch v.kind() {
	case jsontree.Array:
	default:
		return false
	}
	if v.t == nil {
		s := v.g.([]any)
		make(len(s))
		for i, g := range s {
			if !elem(i, val{g: g, depth: v.depth + 1}) {
				return false
			}
		}
		return true
	}
	t := v.t
	make(int(t.Nodes[v.j].Len))
	j := t.FirstChild(v.j)
	for i := range int(t.Nodes[v.j].Len) {
		if !elem(i, val{t: t, j: j, depth: v.depth + 1}) {
			return false
		}
		j = t.Next(j)
	}
	return true
}

// generic returns v as AdditionalProperties keeps it: a scalar decoded, an
// array or object as json.RawMessage (compact JSON).
func (d *decoder) generic(v val) any {
	if v.t == nil {
		switch g := v.g.(type) {
		case nil, bool, int, float64:
			return g
		case string:
			if utf8.ValidString(g) {
				return g
			}
		case invalid:
			return nil
		}
		raw, ok := d.encode(v)
		if !ok {
			return nil
		}
		if raw[0] == '[' || raw[0] == '{' {
			return json.RawMessage(raw)
		}
		v = d.norm(v)
		if v.t == nil {
			return nil
		}
	}
	n := &v.t.Nodes[v.j]
	if n.Kind == jsontree.Array || n.Kind == jsontree.Object {
		return json.RawMessage(v.t.Data[n.Start:n.End:n.End])
	}
	return scalar(v.t, v.j)
}

func decString(d *decoder, v val, _ bool) (string, bool) {
	v = d.norm(v)
	if v.t == nil {
		s, ok := v.g.(string)
		return s, ok
	}
	if v.kind() != jsontree.String {
		return "", false
	}
	return v.t.Str(v.j), true
}

func decInt(d *decoder, v val, _ bool) (int, bool) {
	v = d.norm(v)
	if v.t == nil {
		i, ok := v.g.(int)
		return i, ok
	}
	n := &v.t.Nodes[v.j]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
		return 0, false
	}
	i, ok := jsontree.NumberValue(v.t.Raw(v.j), n.Flags).(int)
	return i, ok
}

func decFloat64(d *decoder, v val, _ bool) (float64, bool) {
	v = d.norm(v)
	if v.t == nil {
		f, ok := v.g.(float64)
		return f, ok
	}
	n := &v.t.Nodes[v.j]
	if n.Kind != jsontree.Number {
		return 0, false
	}
	f, ok := jsontree.NumberValue(v.t.Raw(v.j), n.Flags).(float64)
	return f, ok // (an integer is kept as it is spelled)
}

func decBool(d *decoder, v val, _ bool) (bool, bool) {
	switch d.norm(v).kind() {
	case jsontree.True:
		return true, true
	case jsontree.False:
		return false, true
	}
	return false, false
}

func decAny(d *decoder, v val, req bool) (any, bool) {
	g := d.generic(v)
	if g == nil {
		return nil, req
	}
	return g, true
}

func decPtrString(d *decoder, v val, req bool) (*string, bool) { return decPtr(d, v, req, decString) }

func decPtrInt(d *decoder, v val, req bool) (*int, bool) { return decPtr(d, v, req, decInt) }

func decPtrBool(d *decoder, v val, req bool) (*bool, bool) { return decPtr(d, v, req, decBool) }

func decPtr[T any](d *decoder, v val, req bool, dec func(*decoder, val, bool) (T, bool)) (*T, bool) {
	v = d.norm(v)
	if v.kind() == jsontree.Null {
		return nil, req
	}
	x, ok := dec(d, v, true)
	if !ok {
		return nil, false
	}
	return &x, true
}

func decSliceString(d *decoder, v val, _ bool) ([]string, bool) {
	var out []string
	ok := d.array(v, func(n int) { out = make([]string, n) }, func(i int, c val) bool {
		s, ok := decString(d, c, true)
		out[i] = s
		return ok
	})
	if !ok {
		return nil, false
	}
	return out, true
}

func decMapAny(d *decoder, v val, _ bool) (map[string]any, bool) {
	v = d.norm(v)
	if v.kind() != jsontree.Object {
		return nil, false
	}
	out := map[string]any{}
	d.object(v, func(key string, c val) bool {
		out[key] = d.generic(c)
		return true
	})
	return out, true
}

// decMultilineString decodes text, new (nbformat.Text): its form is the
// notebook's it is written in.
func decMultilineString(d *decoder, v val, _ bool) (nbformat.MultilineString, bool) {
	s, ok := d.text(v)
	if !ok {
		return nbformat.MultilineString{}, false
	}
	return nbformat.Text(s), true
}

// text returns the text of v, a string or an array of strings (joined).
func (d *decoder) text(v val) (string, bool) {
	v = d.norm(v)
	if v.t == nil {
		switch g := v.g.(type) {
		case string:
			return g, true
		case []any:
			var b strings.Builder
			for _, el := range g {
				switch s := el.(type) {
				case string:
					if utf8.ValidString(s) {
						b.WriteString(s)
						continue
					}
				case nil, bool, int, float64, []any, map[string]any:
					return "", false
				}
				return d.text(d.parse(v)) // an element decoded from its JSON
			}
			return b.String(), true
		}
		return "", false
	}
	t := v.t
	if !t.IsMultiline(v.j) {
		return "", false
	}
	if v.kind() == jsontree.String {
		return t.Str(v.j), true
	}
	var b strings.Builder
	for _, k := range t.ChildList(v.j) {
		b.WriteString(t.Str(k))
	}
	return b.String(), true
}

// decMimeBundle decodes output data: entries of MIME types that are not
// JSON holding a string or an array of strings as text (new, as
// decMultilineString makes it), the others as JSON, in the order of the
// JSON (a Go map's keys sorted).
func decMimeBundle(d *decoder, v val, _ bool) (nbformat.MimeBundle, bool) {
	v = d.norm(v)
	if v.kind() != jsontree.Object {
		return nbformat.MimeBundle{}, false
	}
	var b nbformat.MimeBundle
	entry := func(k string, c val) {
		if !mimetype.IsJSON(k) {
			if s, ok := d.text(c); ok {
				b.SetText(k, s)
				return
			}
		}
		var raw []byte
		if c = d.norm(c); c.t != nil {
			n := &c.t.Nodes[c.j]
			raw = c.t.Data[n.Start:n.End:n.End]
		} else if raw, _ = d.encode(c); raw == nil {
			return
		}
		if b.SetJSON(k, json.RawMessage(raw)) != nil {
			// Not JSON to encoding/json: it holds NaN or an infinity, which
			// SetJSON takes as json.Number (its members then sorted).
			t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth})
			if err == nil {
				err = b.SetJSON(k, numbers(t, jsontree.Root))
			}
			if err != nil {
				d.fail(err)
			}
		}
	}
	if v.t != nil {
		d.object(v, func(k string, c val) bool {
			entry(k, c)
			return true
		})
		return b, true
	}
	m := v.g.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		entry(k, val{g: m[k], depth: v.depth + 1})
	}
	return b, true
}

// numbers is node j as generic JSON with its numbers as json.Number, as
// they are spelled.
func numbers(t *jsontree.Tape, j int) any {
	switch n := &t.Nodes[j]; n.Kind {
	case jsontree.Number:
		return json.Number(t.Raw(j))
	case jsontree.Array:
		out := make([]any, 0, n.Len)
		for _, k := range t.ChildList(j) {
			out = append(out, numbers(t, k))
		}
		return out
	case jsontree.Object:
		out := make(map[string]any, n.Len)
		for _, k := range t.ChildList(j) {
			out[t.KeyString(k)] = numbers(t, k)
		}
		return out
	}
	return scalar(t, j)
}
