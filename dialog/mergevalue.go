package dialog

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Merging generic JSON values three-way, whatever Go values hold them
// (map[string]any or json.RawMessage, ints or float64 or json.Number):
// values compare as JSON values (jsonvalue.Equal), and objects are merged
// key by key at every depth.

// An object is a JSON object seen for merging: its keys in order (as
// written for raw JSON, sorted for a map) and its members.
type object struct {
	keys []string
	vals map[string]any
	raw  bool // held as json.RawMessage
}

// asObject returns v as an object, if it is one.
func asObject(v any) (object, bool) {
	if r, ok := v.(json.RawMessage); ok {
		ms, ok := jsonvalue.Members(r)
		if !ok {
			return object{}, false
		}
		o := object{keys: make([]string, len(ms)), vals: make(map[string]any, len(ms)), raw: true}
		for i, m := range ms {
			o.keys[i], o.vals[m.Key] = m.Key, m.Value
		}
		return o, true
	}
	if m, ok := jsonvalue.Object(v); ok {
		return object{keys: slices.Sorted(maps.Keys(m)), vals: m}, true
	}
	return object{}, false
}

// asList returns v as a JSON array, if it is one.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case json.RawMessage:
		es, ok := jsonvalue.Elements(x)
		if !ok {
			return nil, false
		}
		out := make([]any, len(es))
		for i, e := range es {
			out[i] = e
		}
		return out, true
	}
	return nil, false
}

// valueMerge is one merge of values: strict merges cleanly or not at all
// (outputs: a line merge of the file would), texts line by line and
// arrays of one length element by element; otherwise (metadata) each
// value both sides changed differently is reported to conflict, which
// keeps ours'.
type valueMerge struct {
	strict   bool
	failed   bool
	conflict func(path []string, v [3]any, in [3]bool)
}

// merge merges one value (in*: whether the side has it), at path.
func (vm *valueMerge) merge(b, o, t any, inB, inO, inT bool, path []string) (any, bool) {
	switch {
	case inO == inB && (!inO || jsonvalue.Equal(o, b)):
		return t, inT
	case inT == inB && (!inT || jsonvalue.Equal(t, b)), inO == inT && (!inO || jsonvalue.Equal(o, t)):
		return o, inO
	}
	if inO && inT {
		ob, okB := asObject(b)
		oo, okO := asObject(o)
		ot, okT := asObject(t)
		if okO && okT && (okB || !inB) {
			return vm.objects(ob, oo, ot, path), true
		}
		if vm.strict && inB {
			if v, ok := vm.strictValue(b, o, t, path); ok {
				return v, true
			}
		}
	}
	vm.failed = true
	if vm.conflict != nil {
		vm.conflict(slices.Clone(path), [3]any{b, o, t}, [3]bool{inB, inO, inT})
	}
	return o, inO
}

// strictValue merges two changed texts line by line, or arrays of one
// length element by element, cleanly or not at all.
func (vm *valueMerge) strictValue(b, o, t any, path []string) (any, bool) {
	if sb, ok := b.(string); ok {
		so, okO := o.(string)
		st, okT := t.(string)
		if okO && okT {
			return textdiff.MergeClean(sb, so, st)
		}
		return nil, false
	}
	lb, okB := asList(b)
	lo, okO := asList(o)
	lt, okT := asList(t)
	if !okB || !okO || !okT || len(lb) != len(lo) || len(lb) != len(lt) {
		return nil, false
	}
	out := make([]any, len(lo))
	for i := range lo {
		v, _ := vm.merge(lb[i], lo[i], lt[i], true, true, true, path)
		if vm.failed {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// objects merges objects key by key: ours' keys in ours' order, then
// those only theirs has in theirs'. The result is held as ours' is (raw
// JSON or a map).
func (vm *valueMerge) objects(b, o, t object, path []string) any {
	keys, vals := vm.members(b, o, t, path)
	if o.raw {
		if raw, err := jsonvalue.AppendObject(nil, keys, vals); err == nil {
			return json.RawMessage(raw)
		}
	}
	return vals
}

// members merges the members of objects, returning the result's keys in
// order and its members.
func (vm *valueMerge) members(b, o, t object, path []string) ([]string, map[string]any) {
	vals := make(map[string]any, len(o.keys)+len(t.keys))
	var keys []string
	seen := make(map[string]bool, len(o.keys)+len(t.keys)+len(b.keys))
	visit := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		vb, inB := b.vals[k]
		vo, inO := o.vals[k]
		vt, inT := t.vals[k]
		if v, in := vm.merge(vb, vo, vt, inB, inO, inT, append(path, k)); in {
			keys = append(keys, k)
			vals[k] = v
		}
	}
	for _, k := range o.keys {
		visit(k)
	}
	for _, k := range t.keys {
		visit(k)
	}
	for _, k := range b.keys { // deleted on both sides, or by one and changed by the other
		visit(k)
	}
	return keys, vals
}
