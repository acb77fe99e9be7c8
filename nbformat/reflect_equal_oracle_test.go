package nbformat

// The reflective comparison of a value with the node it would be written
// over and its conversion to generic JSON, kept beside the reflective
// writer (reflect_oracle_test.go) as the oracle of the differential tests.

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// equal reports whether v (of type ti) would be written as JSON equal to
// node o.
func (e *encoder) equal(v reflect.Value, ti *typeInfo, o int) bool {
	if o < 0 || e.t == nil {
		return false
	}
	if e.t.Lazy(o) && readsChildren(ti.kind) {
		x, restore, ok := e.expandOrig(o)
		if !ok {
			return false
		}
		defer restore()
		o = x
	}
	switch ti.kind {
	case kPtr:
		if v.IsNil() {
			return e.t.Nodes[o].Kind == jsontree.Null
		}
		return e.equal(v.Elem(), ti.elem, o)
	case kAny:
		if v.IsNil() {
			return e.t.Nodes[o].Kind == jsontree.Null
		}
		x, xi, ok := e.dynamicOf(v.Elem())
		return ok && e.equal(x, xi, o)
	case kSlice:
		return e.equalSlice(v, ti, o)
	case kMap:
		return e.equalMap(v, ti, o)
	case kStruct:
		return e.equalStruct(v, ti.plan, o)
	case kMultiline:
		return e.equalMultiline(mustAssert[MultilineString](v), o)
	case kBundle:
		return e.equalBundle(mustAssert[MimeBundle](v), o)
	case kCell, kOutput:
		return e.equalVariant(v, o)
	}
	return e.equalScalar(v, ti, o)
}

// equalScalar compares a string, number, boolean or raw JSON value.
func (e *encoder) equalScalar(v reflect.Value, ti *typeInfo, o int) bool {
	t := e.t
	n := &t.Nodes[o]
	switch ti.kind {
	case kString:
		return t.StrIs(o, v.String())
	case kInt:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
			return false
		}
		i, err := strconv.ParseInt(string(t.Raw(o)), 10, 64)
		return err == nil && i == v.Int() // "-0" equals 0
	case kUint:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
			return false
		}
		i, err := strconv.ParseUint(strings.TrimPrefix(string(t.Raw(o)), "-"), 10, 64)
		return err == nil && i == v.Uint() && (i == 0 || t.Raw(o)[0] != '-')
	case kFloat:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt != 0 {
			return false
		}
		f, _ := jsontree.NumberValue(t.Raw(o), n.Flags).(float64)
		g := v.Float()
		return f == g && math.Signbit(f) == math.Signbit(g) || math.IsNaN(f) && math.IsNaN(g)
	case kBool:
		return (n.Kind == jsontree.True && v.Bool()) || (n.Kind == jsontree.False && !v.Bool())
	case kNumber:
		return n.Kind == jsontree.Number && v.String() == string(t.Raw(o))
	case kRaw:
		raw := v.Bytes()
		return sameBytes(raw, t.Raw(o)) || jsonEqual(raw, t.Raw(o))
	}
	return false
}

// equalSlice compares a slice with an array, element by element.
func (e *encoder) equalSlice(v reflect.Value, ti *typeInfo, o int) bool {
	t := e.t
	n := &t.Nodes[o]
	if n.Kind != jsontree.Array || int(n.Len) != v.Len() {
		return false
	}
	eq := true
	i := 0
	t.Children(o, func(k int) bool {
		eq = e.equal(v.Index(i), ti.elem, k)
		i++
		return eq
	})
	return eq
}

// equalMap compares a map with an object, member by member (the last of
// duplicate keys counting, as in Python).
func (e *encoder) equalMap(v reflect.Value, ti *typeInfo, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	ms, base := e.members(o)
	defer func() { e.stack = e.stack[:base] }()
	if len(ms) != v.Len() {
		return false
	}
	if m, ok := v.Interface().(map[string]any); ok { // outputs' metadata
		for _, j := range ms {
			n := &t.Nodes[j]
			var x any
			var in bool
			if n.Flags&jsontree.FlagKeyEscaped == 0 {
				x, in = m[string(t.Data[n.Key+1:n.KeyEnd-1])]
			} else {
				x, in = m[t.KeyString(j)]
			}
			if !in || !e.equalAny(x, j) {
				return false
			}
		}
		return true
	}
	for _, j := range ms {
		mv := v.MapIndex(reflect.ValueOf(t.KeyString(j)).Convert(ti.typ.Key()))
		if !mv.IsValid() || !e.equal(mv, ti.elem, j) {
			return false
		}
	}
	return true
}

// equalVariant compares a cell or an output: an unknown one by its JSON,
// a typed one as its struct, inside the cell or output it was decoded as.
func (e *encoder) equalVariant(v reflect.Value, o int) bool {
	if v.IsNil() || v.Elem().IsNil() {
		return false
	}
	t := e.t
	switch x := v.Interface().(type) {
	case *UnknownCell:
		return jsonEqual(x.Raw, t.Raw(o))
	case *UnknownOutput:
		return jsonEqual(x.Raw, t.Raw(o))
	}
	el := v.Elem().Elem()
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	defer e.leave(e.enter(v.Interface()))
	return e.equalStruct(el, infoOf(el.Type()).plan, o)
}

// readsChildren reports whether comparing or writing a value of kind k
// against an original reads the original's children.
func readsChildren(k kind) bool {
	switch k {
	case kSlice, kMap, kStruct, kBundle, kCell, kOutput:
		return true // (MultilineString reads the bytes of lines)
	}
	return false
}

// expandOrig makes the expansion of lazy node o the original (its root,
// node 0, standing for o) until restore is called. Inside it there are no
// cells or outputs of the source to match.
func (e *encoder) expandOrig(o int) (x int, restore func(), ok bool) {
	sub, err := e.t.Expand(o)
	if err != nil {
		return -1, nil, false
	}
	savedT, savedSrc := e.t, e.src
	e.t, e.src = sub, nil
	return 0, func() { e.t, e.src = savedT, savedSrc }, true
}

// field returns the value to write for struct field f and whether it is
// written at all. origHas says whether the original object has the key
// (hasOrig whether there is an original object).
func (e *encoder) field(v reflect.Value, f *fieldInfo, hasOrig, origHas bool) (reflect.Value, bool) {
	fv := v.Field(f.index)
	if f.typeTag && fv.String() == "" && v.CanAddr() {
		if c, ok := v.Addr().Interface().(interface{ Type() string }); ok {
			return reflect.ValueOf(c.Type()), true
		}
	}
	switch fv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		if f.optional {
			return fv, !fv.IsNil()
		}
	}
	if f.optional {
		return fv, !fv.IsZero()
	}
	// Required: always written, except that a required member missing from
	// an invalid file stays missing while it holds its zero value (in
	// values decoded from that file), and an empty cell id is not written
	// before nbformat 4.5. (A member the original has is written whatever
	// its value, but for the id: no need to test a struct for zero.)
	if origHas && f.name != "id" {
		return fv, true
	}
	if fv.IsZero() {
		if hasOrig && e.decoded && !e.fills(v) {
			return fv, origHas
		}
		if f.name == "id" && !e.ids && v.CanAddr() {
			if _, isCell := v.Addr().Interface().(Cell); isCell {
				return fv, false
			}
		}
	}
	return fv, true
}

// equalStruct compares struct v (of plan) with object node o: every
// member of the original must be written, as a field or a value kept in
// AdditionalProperties, with an equal value, and nothing else.
func (e *encoder) equalStruct(v reflect.Value, plan *structPlan, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	var extra map[string]any
	if plan.extra >= 0 {
		extra = mustAssert[map[string]any](v.Field(plan.extra))
	}
	extrasMatched := 0
	var has uint64 // fields whose key the original has (generated structs have few fields)
	ms, base := e.members(o)
	defer func() { e.stack = e.stack[:base] }()
	for _, j := range ms {
		// The member's kept value (x, inExtra) and field (fi, isField), if
		// any. (Found here, not by a function, as this runs for every
		// member compared.)
		n := &t.Nodes[j]
		var x any
		var inExtra bool
		var fi int
		var isField bool
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			kb := t.Data[n.Key+1 : n.KeyEnd-1]
			if extra != nil {
				x, inExtra = extra[string(kb)]
			}
			fi, isField = plan.fieldNamed(kb)
		} else {
			key := t.KeyString(j)
			x, inExtra = extra[key]
			fi, isField = plan.byName[key]
		}
		if isField && fi < 64 {
			has |= 1 << fi
		}
		if inExtra && isField && !v.Field(plan.fields[fi].index).IsZero() {
			inExtra = false // the field was set: it replaces the kept value
		}
		if inExtra {
			if !e.equalAny(x, j) {
				return false
			}
			extrasMatched++
			continue
		}
		if !isField {
			return false
		}
		fv, present := e.field(v, &plan.fields[fi], true, true)
		if !present || !e.equal(fv, plan.fields[fi].ti, j) {
			return false
		}
	}
	return e.nothingElse(v, plan, o, extra, extrasMatched, has)
}

// nothingElse reports, every member of original object o having matched
// a field of v written or one of its kept values (extrasMatched of them;
// has: the fields matched, by bit), whether nothing else is written:
// neither a field the original lacks nor a kept value it lacks.
func (e *encoder) nothingElse(v reflect.Value, plan *structPlan, o int, extra map[string]any, extrasMatched int, has uint64) bool {
	if len(extra) > 0 {
		kept := 0
		for k := range extra {
			if !shadowed(v, plan, k) {
				kept++
			}
		}
		if kept != extrasMatched {
			return false
		}
	}
	for i := range plan.fields {
		if i < 64 && has&(1<<i) != 0 {
			continue // matched by a member
		}
		f := &plan.fields[i]
		if len(extra) > 0 {
			if _, inExtra := extra[f.name]; inExtra && !shadowed(v, plan, f.name) {
				continue // written as the kept value, counted in extrasMatched
			}
		}
		origHas := i < 64 && has&(1<<i) != 0
		if i >= 64 {
			origHas = e.t.Lookup(o, f.name) >= 0
			if origHas {
				continue // matched by a member
			}
		}
		if _, present := e.field(v, f, true, origHas); present {
			return false
		}
	}
	return true
}

// equalAny compares a value kept in AdditionalProperties. (Its own
// function so that only kept values, not every member compared, move to
// the heap for reflection.)
func (e *encoder) equalAny(x any, j int) bool {
	if x == nil {
		return e.t.Nodes[j].Kind == jsontree.Null
	}
	xv, xi, ok := e.dynamicOf(reflect.ValueOf(x))
	return ok && e.equal(xv, xi, j)
}

// dynamic returns the concrete value inside an interface, as a type the
// encoder writes natively; other Go types go through encoding/json.
func (e *encoder) dynamic(v reflect.Value) (reflect.Value, *typeInfo, bool) {
	return e.dynamicOf(v.Elem())
}

// dynamicOf is dynamic for the concrete value x held by an interface.
func (e *encoder) dynamicOf(x reflect.Value) (reflect.Value, *typeInfo, bool) {
	switch x.Interface().(type) {
	case json.RawMessage, map[string]any, []any, []string, map[string]string:
		if x.IsNil() { // null, as encoding/json writes it
			var null any
			return reflect.ValueOf(&null).Elem(), infoOf(anyType), true
		}
		return x, infoOf(x.Type()), true
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float64, json.Number, MultilineString, MimeBundle:
		// float32 goes through encoding/json, which writes it with the
		// shortest digits of its own precision.
		return x, infoOf(x.Type()), true
	}
	if ours(x.Type()) {
		return x, infoOf(x.Type()), true
	}
	g, err := toGeneric(x.Interface())
	if err != nil {
		e.fail(err)
		return x, nil, false
	}
	gv := reflect.ValueOf(&g).Elem()
	if g == nil {
		return gv, infoOf(anyType), true
	}
	return gv.Elem(), infoOf(gv.Elem().Type()), true
}
