package nbformat

// Writing typed values next to their originals: a generated struct
// (encStruct), and the writers of its members' types that codec_gen.go
// calls (enc* functions: the value, whose original is node j or -1, on a
// line indented by ind). A value equal to its original is copied byte for
// byte; a changed object or array keeps the original's layout.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// copyNode writes node j of the tape as it was read.
func (e *encoder) copyNode(j int) { e.verbatim(e.t.Raw(j)) }

// orig returns the original a changed value is written over: o, -1 when
// there is none (or no tape), or, for a value that reads its original's
// children (children) over a lazy node, the root of its expansion, until
// close.
func (e *encoder) orig(o int, children bool) (int, lazySave) {
	if o < 0 || e.t == nil {
		return -1, lazySave{}
	}
	if children && e.t.Lazy(o) {
		x, s, ok := e.open(o)
		if !ok {
			return -1, lazySave{}
		}
		return x, s
	}
	return o, lazySave{}
}

// encStruct writes the struct x.
func (e *encoder) encStruct(x codecStruct, o int, ind string) {
	if o >= 0 && e.eqStruct(x, o) {
		e.copyNode(o)
		return
	}
	o, s := e.orig(o, true)
	defer e.close(s)
	e.writeStruct(x, o, ind)
}

// writeStruct writes the struct x over original o (or -1), changed: the
// members of the original first, in its order, then the others (see
// place).
func (e *encoder) writeStruct(x codecStruct, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	c := x.codec()
	extra := *x.extra()
	var ms []member
	used := map[string]bool{}
	if hasOrig {
		for _, j := range t.UniqueMembers(o) {
			key := t.KeyString(j)
			used[key] = true
			if v, ok := extra[key]; ok && !shadowedIn(x, key) {
				ms = append(ms, member{key: key, orig: j, write: e.anyWriter(v)})
				continue
			}
			if fi := x.fieldNamed(key); fi >= 0 && e.present(x, fi, true, true) {
				ms = append(ms, member{key: key, orig: j, write: e.fieldWriter(x, fi)})
			}
		}
	}
	var added []member
	for i := range c.fields {
		f := &c.fields[i]
		if used[f.name] {
			continue
		}
		if _, inExtra := extra[f.name]; inExtra && x.fieldZero(i) {
			continue
		}
		if e.present(x, i, hasOrig, false) {
			added = append(added, member{key: f.name, orig: -1, write: e.fieldWriter(x, i)})
		}
	}
	for k, v := range extra {
		if !used[k] && !shadowedIn(x, k) {
			added = append(added, member{key: k, orig: -1, write: e.anyWriter(v)})
		}
	}
	e.object(o, ind, e.place(ms, added, c.id), hasOrig)
}

func (e *encoder) fieldWriter(x codecStruct, i int) func(int, string) {
	return func(j int, ind string) { x.writeField(e, i, j, ind) }
}

func (e *encoder) anyWriter(v any) func(int, string) {
	return func(j int, ind string) { encAny(e, v, j, ind) }
}

func encString(e *encoder, s string, j int, _ string) {
	if j >= 0 && eqString(e, s, j) {
		e.copyNode(j)
		return
	}
	e.str(s)
}

func encInt(e *encoder, i int, j int, _ string) {
	if j >= 0 && eqInt(e, i, j) {
		e.copyNode(j)
		return
	}
	e.buf = strconv.AppendInt(e.buf, int64(i), 10)
}

func encFloat64(e *encoder, f float64, j int, _ string) {
	if j >= 0 && eqFloat64(e, f, j) {
		e.copyNode(j)
		return
	}
	e.buf = jsontree.AppendPythonFloat(e.buf, f)
}

func encBool(e *encoder, b bool, j int, _ string) {
	if j >= 0 && eqBool(e, b, j) {
		e.copyNode(j)
		return
	}
	e.buf = strconv.AppendBool(e.buf, b)
}

func encMultilineString(e *encoder, m MultilineString, j int, ind string) {
	if j >= 0 && e.equalMultiline(m, j) {
		e.copyNode(j)
		return
	}
	j, _ = e.orig(j, false)
	e.multiline(m, j, ind, true)
}

func encMimeBundle(e *encoder, m MimeBundle, j int, ind string) {
	if j >= 0 && eqMimeBundle(e, m, j) {
		e.copyNode(j)
		return
	}
	j, s := e.orig(j, true)
	defer e.close(s)
	e.bundle(m, j, ind)
}

func encCell(e *encoder, c Cell, j int, ind string) { e.encVariant(c, j, ind) }

func encOutput(e *encoder, o Output, j int, ind string) { e.encVariant(o, j, ind) }

// encVariant writes a Cell or an Output: an unknown one as its bytes, a
// typed one as its struct.
func (e *encoder) encVariant(x any, j int, ind string) {
	if isNilVariant(x) {
		what := "output"
		if _, ok := x.(Cell); ok {
			what = "cell"
		}
		e.fail(fmt.Errorf("nbformat: nil %s in a notebook", what))
		e.buf = append(e.buf, "null"...)
		return
	}
	if j >= 0 && e.eqVariant(x, j) {
		e.copyNode(j)
		return
	}
	j, s := e.orig(j, true)
	defer e.close(s)
	switch x := x.(type) {
	case *UnknownCell:
		e.rawJSON(x.Raw, ind)
		return
	case *UnknownOutput:
		e.rawJSON(x.Raw, ind)
		return
	}
	defer e.leave(e.enter(x))
	e.writeStruct(x.(codecStruct), j, ind)
}

func encSliceString(e *encoder, v []string, j int, ind string) {
	encSlice(e, v, j, ind, eqString, encString)
}

func encSliceCell(e *encoder, v []Cell, j int, ind string) {
	if j >= 0 && eqSliceCell(e, v, j) {
		e.copyNode(j)
		return
	}
	j, s := e.orig(j, true)
	defer e.close(s)
	e.writeVariants(len(v), func(i int) any { return v[i] }, j, ind, true, func(i, k int, ind string) { encCell(e, v[i], k, ind) })
}

func encSliceOutput(e *encoder, v []Output, j int, ind string) {
	v = e.madeOutputs(v) // (see deferredOutput)
	if j >= 0 && eqSliceOutput(e, v, j) {
		e.copyNode(j)
		return
	}
	j, s := e.orig(j, true)
	defer e.close(s)
	e.writeVariants(len(v), func(i int) any { return v[i] }, j, ind, false, func(i, k int, ind string) { encOutput(e, v[i], k, ind) })
}

// writeVariants writes n cells or outputs (at(i) is the i-th), each next to
// its original in array o (see matchVariants).
func (e *encoder) writeVariants(n int, at func(int) any, o int, ind string, cells bool, enc func(i, k int, ind string)) {
	hasOrig := o >= 0 && e.t.Nodes[o].Kind == jsontree.Array
	var kids []int
	if hasOrig {
		kids = e.t.ChildList(o)
	}
	var origs []int
	if e.src != nil {
		origs = e.matchVariants(n, at, cells && hasOrig, kids)
	} else {
		origs = positional(n, kids)
	}
	e.array(o, ind, n, hasOrig, func(i int, ind string) { enc(i, origs[i], ind) })
}

// positional returns, for n elements, the original at the same place in
// kids (-1 past its end).
func positional(n int, kids []int) []int {
	origs := make([]int, n)
	for i := range origs {
		origs[i] = -1
		if i < len(kids) {
			origs[i] = kids[i]
		}
	}
	return origs
}

func encMapAny(e *encoder, v map[string]any, j int, ind string) {
	encMap(e, v, j, ind, eqAny, encAny)
}

func encMapMimeBundle(e *encoder, v map[string]MimeBundle, j int, ind string) {
	encMap(e, v, j, ind, eqMimeBundle, encMimeBundle)
}

func encPtrString(e *encoder, v *string, j int, ind string) { encPtr(e, v, j, ind, encString) }

func encPtrInt(e *encoder, v *int, j int, ind string) { encPtr(e, v, j, ind, encInt) }

func encPtrBool(e *encoder, v *bool, j int, ind string) { encPtr(e, v, j, ind, encBool) }

func encPtr[T any](e *encoder, v *T, j int, ind string, enc func(*encoder, T, int, string)) {
	if v == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	enc(e, *v, j, ind)
}

func encPtrStruct[T any, P structPtr[T]](e *encoder, v P, j int, ind string) {
	if v == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.encStruct(v, j, ind)
}

func encSlice[T any](e *encoder, v []T, j int, ind string, eq func(*encoder, T, int) bool, enc func(*encoder, T, int, string)) {
	if j >= 0 && eqSlice(e, v, j, eq) {
		e.copyNode(j)
		return
	}
	writeSlice(e, v, j, ind, enc)
}

// writeSlice writes a slice over original j (or -1), matching each element
// to the original's element at its place.
func writeSlice[T any](e *encoder, v []T, j int, ind string, enc func(*encoder, T, int, string)) {
	j, s := e.orig(j, true)
	defer e.close(s)
	hasOrig := j >= 0 && e.t.Nodes[j].Kind == jsontree.Array
	var kids []int
	if hasOrig {
		kids = e.t.ChildList(j)
	}
	origs := positional(len(v), kids)
	e.array(j, ind, len(v), hasOrig, func(i int, ind string) { enc(e, v[i], origs[i], ind) })
}

func encSliceStruct[T any, P structPtr[T]](e *encoder, v []T, j int, ind string) {
	if j >= 0 && eqSliceStruct[T, P](e, v, j) {
		e.copyNode(j)
		return
	}
	j, s := e.orig(j, true)
	defer e.close(s)
	hasOrig := j >= 0 && e.t.Nodes[j].Kind == jsontree.Array
	var kids []int
	if hasOrig {
		kids = e.t.ChildList(j)
	}
	origs := positional(len(v), kids)
	e.array(j, ind, len(v), hasOrig, func(i int, ind string) { e.encStruct(P(&v[i]), origs[i], ind) })
}

func encMap[T any](e *encoder, v map[string]T, j int, ind string, eq func(*encoder, T, int) bool, enc func(*encoder, T, int, string)) {
	if j >= 0 && eqMap(e, v, j, eq) {
		e.copyNode(j)
		return
	}
	writeMap(e, v, j, ind, enc)
}

// writeMap writes a map over original j (or -1): the original's members
// the map has, in its order, then the map's others (see place).
func writeMap[T any](e *encoder, v map[string]T, j int, ind string, enc func(*encoder, T, int, string)) {
	j, s := e.orig(j, true)
	defer e.close(s)
	t := e.t
	hasOrig := j >= 0 && t.Nodes[j].Kind == jsontree.Object
	var ms []member
	used := map[string]bool{}
	writer := func(x T) func(int, string) { return func(k int, ind string) { enc(e, x, k, ind) } }
	if hasOrig {
		for _, k := range t.UniqueMembers(j) {
			key := t.KeyString(k)
			x, ok := v[key]
			if !ok {
				continue
			}
			used[key] = true
			ms = append(ms, member{key: key, orig: k, write: writer(x)})
		}
	}
	var added []member
	for key, x := range v {
		if !used[key] {
			added = append(added, member{key: key, orig: -1, write: writer(x)})
		}
	}
	e.object(j, ind, e.place(ms, added, -1), hasOrig)
}

func encMapStruct[T any, P structPtr[T]](e *encoder, v map[string]T, j int, ind string) {
	encMap(e, v, j, ind, eqMapStructElem[T, P], func(e *encoder, x T, k int, ind string) { e.encStruct(P(&x), k, ind) })
}

func eqMapStructElem[T any, P structPtr[T]](e *encoder, x T, k int) bool { return e.eqStruct(P(&x), k) }

// encAny writes generic JSON, or any value encoding/json writes: the
// types of this package and of Decode natively, others through their
// encoding/json form.
func encAny(e *encoder, v any, j int, ind string) {
	if j >= 0 && eqAny(e, v, j) {
		e.copyNode(j)
		return
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case json.RawMessage:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.rawJSON(x, ind)
	case string:
		e.str(x)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int8:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int16:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case uint:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint8:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint16:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint32:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, x, 10)
	case float64:
		e.buf = jsontree.AppendPythonFloat(e.buf, x)
	case json.Number:
		s := string(x)
		if !json.Valid([]byte(s)) && s != "NaN" && s != "Infinity" && s != "-Infinity" {
			e.fail(fmt.Errorf("nbformat: invalid json.Number %q", s))
		}
		e.buf = append(e.buf, s...)
	case map[string]any:
		e.guarded(x, x == nil, func() { writeMap(e, x, j, ind, encAny) })
	case []any:
		e.guarded(x, x == nil, func() { writeSlice(e, x, j, ind, encAny) })
	case []string:
		e.guarded(x, x == nil, func() { writeSlice(e, x, j, ind, encString) })
	case map[string]string:
		e.guarded(x, x == nil, func() { writeMap(e, x, j, ind, encString) })
	case MultilineString:
		encMultilineString(e, x, j, ind)
	case MimeBundle:
		encMimeBundle(e, x, j, ind)
	default:
		if s, ok := generatedStruct(v); ok {
			o, sv := e.orig(j, true)
			defer e.close(sv)
			e.writeStruct(s, o, ind)
			return
		}
		if s, ok := namedString(v); ok {
			e.str(s)
			return
		}
		g, err := toGeneric(v)
		if err != nil {
			e.fail(err)
			e.buf = append(e.buf, "null"...)
			return
		}
		encAny(e, g, j, ind)
	}
}

// guarded writes a map or slice held in an interface (null when nil),
// refusing one that contains itself (see cycle.go).
func (e *encoder) guarded(x any, isNil bool, write func()) {
	if isNil {
		e.buf = append(e.buf, "null"...)
		return
	}
	if !e.cycles.EnterAny(x) {
		e.fail(cycleError(reflect.ValueOf(x), ""))
		e.buf = append(e.buf, "null"...)
		return
	}
	write()
	e.cycles.LeaveAny(x)
}
