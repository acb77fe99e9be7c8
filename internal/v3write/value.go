package v3write

// Version 4 cells as generic JSON, normalized as Python's reader holds them,
// and obj, a JSON object built in member order.

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Values: a version 4 cell in the two forms the writer uses (its generic
// JSON, which keeps the bytes and member order of nested arrays and
// objects, and its decoded form with texts joined, which is compared),
// and version 3 objects built member by member in a chosen order.

// v4Cell is a version 4 cell as generic JSON (g: what nbmap.ToMap
// gives, texts joined, json.RawMessage inside) and, once asked
// (normalized), decoded all the way down, its texts joined (those of a
// cell of an unknown type too), and without its id (n).
type v4Cell struct {
	g map[string]any
	n map[string]any
}

// cellForms returns the generic form of cell c.
func cellForms(c nbformat.Cell) (*v4Cell, error) {
	if u, ok := c.(*nbformat.UnknownCell); ok {
		v, err := nbformat.Decode(u.Raw)
		if err != nil {
			return nil, err
		}
		g, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a cell of unknown type is not an object")
		}
		return &v4Cell{g: g}, nil
	}
	g, err := nbmap.ToMap(c)
	if err != nil {
		return nil, err
	}
	return &v4Cell{g: g}, nil
}

// normalized sets c.n.
func (c *v4Cell) normalized() error {
	if c.n != nil {
		return nil
	}
	n, err := decoded(c.g)
	if err != nil {
		return err
	}
	m, _ := n.(map[string]any)
	if m == nil {
		return fmt.Errorf("a cell is not an object")
	}
	delete(m, "id")
	normCell(m)
	c.n = m
	return nil
}

// decoded returns generic JSON decoded all the way down (no
// json.RawMessage left).
func decoded(v any) (any, error) {
	raw, err := nbjson.Encode(v)
	if err != nil {
		return nil, err
	}
	return nbformat.Decode(raw)
}

// normCell joins, in place, the texts of a decoded version 4 cell as
// Python nbformat's version 4 reader does: the source, stream texts, and
// the text entries of output data and attachments stored as lists.
func normCell(c map[string]any) {
	joinIn(c, "source")
	if atts, ok := c["attachments"].(map[string]any); ok {
		for _, b := range atts {
			if bm, ok := b.(map[string]any); ok {
				normBundle(bm)
			}
		}
	}
	if outs, ok := c["outputs"].([]any); ok {
		for _, o := range outs {
			if om, ok := o.(map[string]any); ok {
				normOutput(om)
			}
		}
	}
}

// normOutput joins the texts of a decoded version 4 output.
func normOutput(o map[string]any) {
	switch o["output_type"] {
	case "execute_result", "display_data":
		if d, ok := o["data"].(map[string]any); ok {
			normBundle(d)
		}
	case "error":
	default:
		joinIn(o, "text")
	}
}

// normBundle joins the text entries (those of MIME types not stored as
// JSON) of a decoded mime bundle stored as lists of strings.
func normBundle(b map[string]any) {
	for k := range b {
		if !mimetype.IsJSON(k) {
			joinIn(b, k)
		}
	}
}

// joinIn replaces m[k], a list of strings, by their concatenation.
func joinIn(m map[string]any, k string) {
	if l, ok := m[k].([]any); ok {
		if s, ok := lines.Join(l); ok {
			m[k] = s
		}
	}
}

// equal reports whether two decoded values are equal JSON values.
func equal(a, b any) bool { return jsonvalue.Equal(a, b) }

// member returns m[k] and whether m has k, for decoded maps that may be
// nil.
func member(m map[string]any, k string) (any, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m[k]
	return v, ok
}

// sameMember reports whether a and b agree on member k (both lacking it,
// or both holding equal values).
func sameMember(a, b map[string]any, k string) bool {
	x, okA := member(a, k)
	y, okB := member(b, k)
	return okA == okB && (!okA || equal(x, y))
}

// obj is a JSON object built member by member: its keys in order.
type obj struct {
	keys []string
	vals map[string]any
}

func newObj() *obj { return &obj{vals: map[string]any{}} }

// set gives member k the value v (generic JSON, json.RawMessage, or an
// *obj), appending k if it is new.
func (o *obj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *obj) del(k string) {
	if _, ok := o.vals[k]; ok {
		delete(o.vals, k)
		o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
	}
}

func (o *obj) has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

// order sorts the keys by their rank in order (keys it lacks after all
// others, keeping their order).
func (o *obj) order(order []string) {
	rank := func(k string) int {
		if i := slices.Index(order, k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(o.keys, func(a, b string) int { return rank(a) - rank(b) })
}

// generic returns o as a map whose *obj values are compact JSON of their
// own (json.RawMessage), as package nbformat's writer takes them: it
// writes the members of a map matched to the original object's members,
// and an object new to the file from its JSON in the file's style.
func (o *obj) generic() (map[string]any, error) {
	m := make(map[string]any, len(o.keys))
	for _, k := range o.keys {
		v, err := rawObjs(o.vals[k])
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

// rawObjs returns v with an *obj, or the *obj elements of a list, as
// their compact JSON.
func rawObjs(v any) (any, error) {
	switch x := v.(type) {
	case *obj:
		return x.compact()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if eo, ok := e.(*obj); ok {
				raw, err := eo.compact()
				if err != nil {
					return nil, err
				}
				e = raw
			}
			out[i] = e
		}
		return out, nil
	}
	return v, nil
}

// compact returns o as compact JSON, its members in order.
func (o *obj) compact() (json.RawMessage, error) {
	buf := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf, _ = jsontree.AppendQuoted(buf, k, jsontree.Escaping{})
		buf = append(buf, ':')
		var raw []byte
		var err error
		switch v := o.vals[k].(type) {
		case *obj:
			raw, err = v.compact()
		case []any:
			raw, err = compactList(v)
		default:
			raw, err = nbjson.Encode(v)
		}
		if err != nil {
			return nil, err
		}
		buf = append(buf, raw...)
	}
	return append(buf, '}'), nil
}

// compactList is compact for a list that may hold *obj values.
func compactList(l []any) ([]byte, error) {
	buf := []byte{'['}
	for i, v := range l {
		if i > 0 {
			buf = append(buf, ',')
		}
		var raw []byte
		var err error
		if x, ok := v.(*obj); ok {
			raw, err = x.compact()
		} else {
			raw, err = nbjson.Encode(v)
		}
		if err != nil {
			return nil, err
		}
		buf = append(buf, raw...)
	}
	return append(buf, ']'), nil
}

// strings returns a list of strings as generic JSON.
func stringList(ls []string) []any {
	out := make([]any, len(ls))
	for i, l := range ls {
		out[i] = l
	}
	return out
}
