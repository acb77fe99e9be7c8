package nbformat

// Comparing multiline texts, bundles and generic JSON with the nodes they
// were read from (for codec_equal_values.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// ---- equality with the original ----

// enter notes whether the cell or output x was decoded from the file, for
// the values inside it; it returns the previous state, for leave.
func (e *encoder) enter(x any) (saved bool) {
	saved = e.decoded
	_, e.decoded = originIn(e.src, x)
	return saved
}

// leave restores the state enter saved.
func (e *encoder) leave(saved bool) { e.decoded = saved }

func (e *encoder) equalMultiline(m MultilineString, o int) bool {
	t := e.t
	n := &t.Nodes[o]
	if n.Kind != jsontree.String && n.Kind != jsontree.Array {
		return false
	}
	raw := t.Raw(o)
	switch {
	case m.raw != nil:
		if sameBytes(m.raw, raw) || bytes.Equal(m.raw, raw) {
			return true
		}
		if (m.raw[0] == '"') != (n.Kind == jsontree.String) || !t.IsMultiline(o) {
			return false
		}
		var eq bool
		eq, e.scratch = jsontree.EqualStrings(m.raw, raw, e.scratch[:0])
		return eq
	case m.lines != nil:
		return n.Kind == jsontree.Array && t.IsMultiline(o) && jsontree.EqualLines(raw, m.lines)
	}
	if !t.IsMultiline(o) {
		return false
	}
	switch m.form {
	case formString:
		if n.Kind != jsontree.String {
			return false
		}
	case formLines:
		if n.Kind != jsontree.Array {
			return false
		}
	}
	if n.Kind == jsontree.String {
		return t.StrIs(o, m.text)
	}
	var eq bool
	eq, e.scratch = jsontree.EqualJoined(raw, m.text, e.scratch[:0])
	return eq
}

func (e *encoder) equalBundle(m MimeBundle, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	if m.b == nil {
		return t.Nodes[o].Len == 0
	}
	if !m.b.dirty && m.b.raw != nil && sameBytes(m.b.raw, t.Raw(o)) {
		return true
	}
	ms, base := e.members(o)
	defer func() { e.stack = e.stack[:base] }()
	if len(ms) != len(m.b.entries) {
		return false
	}
	for _, j := range ms {
		i := m.find(t.KeyString(j))
		if i < 0 || !e.equalEntry(&m.b.entries[i], j) {
			return false
		}
	}
	return true
}

func (e *encoder) equalEntry(en *mimeEntry, j int) bool {
	if en.isJSON {
		return jsonEqual(en.json, e.t.Raw(j))
	}
	return e.equalMultiline(en.text, j)
}

// sameBytes reports whether a and b are the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// jsonEqual reports whether two JSON texts hold equal values.
func jsonEqual(a, b []byte) bool {
	if bytes.Equal(a, b) || jsontree.EqualIgnoringSpace(a, b) {
		return true
	}
	x, err1 := Decode(a)
	y, err2 := Decode(b)
	return err1 == nil && err2 == nil && genericEqual(x, y)
}

// genericEqual reports whether two values of Decode are equal (NaN equal
// to NaN).
func genericEqual(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !genericEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !genericEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		f, ok := y.(float64)
		return ok && (x == f || math.IsNaN(x) && math.IsNaN(f))
	}
	return x == y
}

// members is uniqueMembers on the encoder's stack of node lists, so that
// the comparison walk allocates nothing: the list stays valid until
// e.stack is cut back to base (which the caller does when done with it).
func (e *encoder) members(o int) (ms []int, base int) {
	if e.stack == nil {
		e.stack = make([]int, 0, 64)
	}
	base = len(e.stack)
	e.stack = e.t.AppendUniqueMembers(e.stack, o)
	return e.stack[base:len(e.stack):len(e.stack)], base
}

func toGeneric(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("nbformat: cannot write a %T: %w", v, err)
	}
	return Decode(b)
}
