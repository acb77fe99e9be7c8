package nbformat

// Converting typed values to generic JSON (the values of Decode, with the
// arrays and objects of metadata kept as json.RawMessage), as Marshal
// would write them, without going through JSON text: a generated struct
// (genStruct), and the converters of its members' types that codec_gen.go
// calls (gen* functions).

import (
	"encoding/json"
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// genStruct converts a generated struct: its present fields and the
// values its AdditionalProperties keeps (unless a set field shadows them).
func (e *encoder) genStruct(x codecStruct) (any, error) {
	out := map[string]any{}
	for i, f := range x.codec().fields {
		if !e.present(x, i, false, false) {
			continue
		}
		g, err := x.genericField(e, i)
		if err != nil {
			return nil, err
		}
		out[f.name] = g
	}
	for k, v := range *x.extra() {
		if shadowedIn(x, k) {
			continue
		}
		g, err := genAny(e, v)
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

func genString(_ *encoder, s string) (any, error) { return s, nil }

func genInt(_ *encoder, i int) (any, error) { return i, nil }

func genFloat64(_ *encoder, f float64) (any, error) { return f, nil }

func genBool(_ *encoder, b bool) (any, error) { return b, nil }

func genMultilineString(_ *encoder, m MultilineString) (any, error) { return genericMultiline(m), nil }

func genMimeBundle(_ *encoder, b MimeBundle) (any, error) { return genericBundle(b) }

func genCell(e *encoder, c Cell) (any, error) { return e.genVariant(c) }

func genOutput(e *encoder, o Output) (any, error) { return e.genVariant(o) }

// genVariant converts a cell or an output (null for nil).
func (e *encoder) genVariant(x any) (any, error) {
	if isNilVariant(x) {
		return nil, nil
	}
	switch x := x.(type) {
	case *UnknownCell:
		return Decode(x.Raw)
	case *UnknownOutput:
		return Decode(x.Raw)
	}
	return e.genStruct(x.(codecStruct))
}

func genSliceString(e *encoder, v []string) (any, error) { return genSlice(e, v, genString) }

func genSliceCell(e *encoder, v []Cell) (any, error) { return genSlice(e, v, genCell) }

func genSliceOutput(e *encoder, v []Output) (any, error) { return genSlice(e, v, genOutput) }

func genMapAny(e *encoder, v map[string]any) (any, error) { return genMap(e, v, genAny) }

func genMapMimeBundle(e *encoder, v map[string]MimeBundle) (any, error) {
	return genMap(e, v, genMimeBundle)
}

func genPtrString(e *encoder, v *string) (any, error) { return genPtr(e, v, genString) }

func genPtrInt(e *encoder, v *int) (any, error) { return genPtr(e, v, genInt) }

func genPtrBool(e *encoder, v *bool) (any, error) { return genPtr(e, v, genBool) }

func genPtr[T any](e *encoder, v *T, gen func(*encoder, T) (any, error)) (any, error) {
	if v == nil {
		return nil, nil
	}
	return gen(e, *v)
}

func genPtrStruct[T any, P structPtr[T]](e *encoder, v P) (any, error) {
	if v == nil {
		return nil, nil
	}
	return e.genStruct(v)
}

func genSlice[T any](e *encoder, v []T, gen func(*encoder, T) (any, error)) (any, error) {
	out := make([]any, len(v))
	for i := range v {
		g, err := gen(e, v[i])
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

func genSliceStruct[T any, P structPtr[T]](e *encoder, v []T) (any, error) {
	out := make([]any, len(v))
	for i := range v {
		g, err := e.genStruct(P(&v[i]))
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

func genMap[T any](e *encoder, v map[string]T, gen func(*encoder, T) (any, error)) (any, error) {
	out := make(map[string]any, len(v))
	for k, x := range v {
		g, err := gen(e, x)
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

func genMapStruct[T any, P structPtr[T]](e *encoder, v map[string]T) (any, error) {
	return genMap(e, v, func(e *encoder, x T) (any, error) { return e.genStruct(P(&x)) })
}

// genAny converts generic JSON, or any value encoding/json writes: the
// types of this package and of Decode natively (numbers of every Go type
// as int, or float64), others through their encoding/json form.
func genAny(e *encoder, v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, int, float64:
		return x, nil
	case json.RawMessage:
		if x == nil {
			return nil, nil
		}
		return x, nil
	case int8:
		return int(x), nil
	case int16:
		return int(x), nil
	case int32:
		return int(x), nil
	case int64:
		return int(x), nil
	case uint:
		return int(x), nil
	case uint8:
		return int(x), nil
	case uint16:
		return int(x), nil
	case uint32:
		return int(x), nil
	case uint64:
		return int(x), nil
	case json.Number:
		return jsontree.NumberValue([]byte(x), numberFlags(string(x))), nil
	case map[string]any:
		if x == nil {
			return nil, nil
		}
		return e.guardedGen(x, func() (any, error) { return genMapAny(e, x) })
	case []any:
		if x == nil {
			return nil, nil
		}
		return e.guardedGen(x, func() (any, error) { return genSlice(e, x, genAny) })
	case []string:
		if x == nil {
			return nil, nil
		}
		return genSliceString(e, x)
	case map[string]string:
		if x == nil {
			return nil, nil
		}
		return genMap(e, x, genString)
	case MultilineString:
		return genericMultiline(x), nil
	case MimeBundle:
		return genericBundle(x)
	}
	if s, ok := generatedStruct(v); ok {
		return e.genStruct(s)
	}
	if s, ok := namedString(v); ok {
		return s, nil
	}
	return toGeneric(v)
}

// guardedGen converts a map or slice held in an interface, refusing one
// that contains itself (see cycle.go).
func (e *encoder) guardedGen(x any, gen func() (any, error)) (any, error) {
	if !e.cycles.EnterAny(x) {
		return nil, cycleError(reflect.ValueOf(x), "")
	}
	defer e.cycles.LeaveAny(x)
	return gen()
}
