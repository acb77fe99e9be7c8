package nbformat

// The comparers of struct members' types that codec_gen.go calls (eq*
// functions): whether a value would be written as JSON equal to node j.

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

func (e *encoder) isNull(j int) bool { return e.t.Nodes[j].Kind == jsontree.Null }

func eqString(e *encoder, s string, j int) bool { return e.t.StrIs(j, s) }

func eqInt(e *encoder, i int, j int) bool { return eqInt64(e, int64(i), j) }

func eqInt64(e *encoder, i int64, j int) bool {
	n := &e.t.Nodes[j]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
		return false
	}
	v, ok := parseInt(e.t.Raw(j))
	return ok && v == i // "-0" equals 0
}

func eqUint64(e *encoder, u uint64, j int) bool {
	n := &e.t.Nodes[j]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
		return false
	}
	raw := e.t.Raw(j)
	v, err := strconv.ParseUint(strings.TrimPrefix(string(raw), "-"), 10, 64)
	return err == nil && v == u && (v == 0 || raw[0] != '-')
}

func eqFloat64(e *encoder, g float64, j int) bool {
	n := &e.t.Nodes[j]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt != 0 {
		return false
	}
	f, _ := jsontree.NumberValue(e.t.Raw(j), n.Flags).(float64)
	return f == g && math.Signbit(f) == math.Signbit(g) || math.IsNaN(f) && math.IsNaN(g)
}

func eqBool(e *encoder, b bool, j int) bool {
	k := e.t.Nodes[j].Kind
	return k == jsontree.True && b || k == jsontree.False && !b
}

func eqMultilineString(e *encoder, m MultilineString, j int) bool { return e.equalMultiline(m, j) }

func eqMimeBundle(e *encoder, m MimeBundle, j int) bool {
	j, s, ok := e.open(j)
	if !ok {
		return false
	}
	defer e.close(s)
	return e.equalBundle(m, j)
}

// eqCell compares a cell: an unknown one by its JSON, a typed one as its
// struct, inside the cell it was decoded as.
func eqCell(e *encoder, c Cell, j int) bool { return e.eqVariant(c, j) }

func eqOutput(e *encoder, o Output, j int) bool { return e.eqVariant(o, j) }

func (e *encoder) eqVariant(x any, j int) bool {
	v, ref, ok := variantOf(x)
	if !ok {
		return e.eqUnknown(x, j)
	}
	if !e.t.Lazy(j) {
		return e.eqVariantAt(v, ref, j)
	}
	j, s, ok := e.open(j)
	if !ok {
		return false
	}
	eq := e.eqVariantAt(v, ref, j)
	e.close(s)
	return eq
}

// eqVariantAt compares the struct v of a typed cell or output (ref: the
// node it was read from) with node j, which is not lazy.
func (e *encoder) eqVariantAt(v codecStruct, ref *nodeRef, j int) bool {
	saved := e.decoded
	e.decoded = e.src != nil && ref.src == e.src
	eq := e.eqObject(v, j)
	e.decoded = saved
	return eq
}

// eqUnknown compares a cell or output of no known type by its JSON.
//
//go:noinline
func (e *encoder) eqUnknown(x any, j int) bool {
	switch x := x.(type) {
	case *UnknownCell:
		return x != nil && jsonEqual(x.Raw, e.t.Raw(j))
	case *UnknownOutput:
		return x != nil && jsonEqual(x.Raw, e.t.Raw(j))
	}
	return false
}

func eqSliceString(e *encoder, v []string, j int) bool { return eqSlice(e, v, j, eqString) }

func eqSliceCell(e *encoder, v []Cell, j int) bool { return eqSlice(e, v, j, eqCell) }

func eqSliceOutput(e *encoder, v []Output, j int) bool {
	return eqSlice(e, e.madeOutputs(v), j, eqOutput) // (see deferredOutput)
}

func eqMapAny(e *encoder, v map[string]any, j int) bool { return eqMap(e, v, j, eqAny) }

func eqMapMimeBundle(e *encoder, v map[string]MimeBundle, j int) bool {
	return eqMap(e, v, j, eqMimeBundle)
}

func eqPtrString(e *encoder, v *string, j int) bool { return eqPtr(e, v, j, eqString) }

func eqPtrInt(e *encoder, v *int, j int) bool { return eqPtr(e, v, j, eqInt) }

func eqPtrBool(e *encoder, v *bool, j int) bool { return eqPtr(e, v, j, eqBool) }

func eqPtr[T any](e *encoder, v *T, j int, eq func(*encoder, T, int) bool) bool {
	if v == nil {
		return e.isNull(j)
	}
	return eq(e, *v, j)
}

func eqPtrStruct[T any, P structPtr[T]](e *encoder, v P, j int) bool {
	if v == nil {
		return e.isNull(j)
	}
	return e.eqStruct(v, j)
}

func eqSlice[T any](e *encoder, v []T, j int, eq func(*encoder, T, int) bool) bool {
	if !e.t.Lazy(j) {
		return eqElems(e, v, j, eq)
	}
	j, s, ok := e.open(j)
	if !ok {
		return false
	}
	r := eqElems(e, v, j, eq)
	e.close(s)
	return r
}

// eqElems is eqSlice over node j, which is not lazy.
func eqElems[T any](e *encoder, v []T, j int, eq func(*encoder, T, int) bool) bool {
	t := e.t
	if n := &t.Nodes[j]; n.Kind != jsontree.Array || int(n.Len) != len(v) {
		return false
	}
	k := j + 1
	for i := range v {
		if !eq(e, v[i], k) {
			return false
		}
		k = t.Next(k)
	}
	return true
}

func eqSliceStruct[T any, P structPtr[T]](e *encoder, v []T, j int) bool {
	j, s, ok := e.open(j)
	if !ok {
		return false
	}
	defer e.close(s)
	t := e.t
	if n := &t.Nodes[j]; n.Kind != jsontree.Array || int(n.Len) != len(v) {
		return false
	}
	k := j + 1
	for i := range v {
		if !e.eqStruct(P(&v[i]), k) {
			return false
		}
		k = t.Next(k)
	}
	return true
}

// eqMap compares a map with an object, member by member (the last of
// duplicate keys counting, as in Python).
func eqMap[T any](e *encoder, v map[string]T, j int, eq func(*encoder, T, int) bool) bool {
	j, s, ok := e.open(j)
	if !ok {
		return false
	}
	defer e.close(s)
	t := e.t
	if t.Nodes[j].Kind != jsontree.Object {
		return false
	}
	ms, base := e.members(j)
	defer func() { e.stack = e.stack[:base] }()
	if len(ms) != len(v) {
		return false
	}
	for _, k := range ms {
		n := &t.Nodes[k]
		var x T
		var in bool
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			x, in = v[string(t.Data[n.Key+1:n.KeyEnd-1])]
		} else {
			x, in = v[t.KeyString(k)]
		}
		if !in || !eq(e, x, k) {
			return false
		}
	}
	return true
}

func eqMapStruct[T any, P structPtr[T]](e *encoder, v map[string]T, j int) bool {
	return eqMap(e, v, j, func(e *encoder, x T, k int) bool { return e.eqStruct(P(&x), k) })
}

// eqAny compares generic JSON, or any value encoding/json writes: the
// types of this package and of Decode natively, others through their
// encoding/json form.
func eqAny(e *encoder, v any, j int) bool {
	switch x := v.(type) {
	case nil:
		return e.isNull(j)
	case json.RawMessage:
		if x == nil {
			return e.isNull(j)
		}
		return sameBytes(x, e.t.Raw(j)) || jsonEqual(x, e.t.Raw(j))
	case string:
		return eqString(e, x, j)
	case bool:
		return eqBool(e, x, j)
	case int:
		return eqInt64(e, int64(x), j)
	case int8:
		return eqInt64(e, int64(x), j)
	case int16:
		return eqInt64(e, int64(x), j)
	case int32:
		return eqInt64(e, int64(x), j)
	case int64:
		return eqInt64(e, x, j)
	case uint:
		return eqUint64(e, uint64(x), j)
	case uint8:
		return eqUint64(e, uint64(x), j)
	case uint16:
		return eqUint64(e, uint64(x), j)
	case uint32:
		return eqUint64(e, uint64(x), j)
	case uint64:
		return eqUint64(e, x, j)
	case float64:
		return eqFloat64(e, x, j)
	case json.Number:
		return e.t.Nodes[j].Kind == jsontree.Number && string(x) == string(e.t.Raw(j))
	case map[string]any:
		if x == nil {
			return e.isNull(j)
		}
		return eqMapAny(e, x, j)
	case []any:
		if x == nil {
			return e.isNull(j)
		}
		return eqSlice(e, x, j, eqAny)
	case []string:
		if x == nil {
			return e.isNull(j)
		}
		return eqSliceString(e, x, j)
	case map[string]string:
		if x == nil {
			return e.isNull(j)
		}
		return eqMap(e, x, j, eqString)
	case MultilineString:
		return eqMultilineString(e, x, j)
	case MimeBundle:
		return eqMimeBundle(e, x, j)
	}
	if s, ok := generatedStruct(v); ok {
		return e.eqStruct(s, j)
	}
	if s, ok := namedString(v); ok {
		return eqString(e, s, j)
	}
	g, err := toGeneric(v)
	if err != nil {
		e.fail(err)
		return false
	}
	return eqAny(e, g, j)
}
