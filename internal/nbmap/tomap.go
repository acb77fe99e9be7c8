package nbmap

// Typed values to generic JSON: the converters of the leaf types that
// map_gen.go calls (gen* functions), and values of any type.

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsoncycle"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
)

// encoder converts typed values, refusing maps and slices that contain
// themselves.
type encoder struct {
	cycles jsoncycle.Guard
}

// errCycle is the error of a value that contains itself (ToMap reports
// nbformat's error for it instead, which names the place).
var errCycle = fmt.Errorf("nbmap: a value contains itself")

func genString(_ *encoder, s string) (any, error) { return s, nil }

func genInt(_ *encoder, i int) (any, error) { return i, nil }

func genFloat64(_ *encoder, f float64) (any, error) { return f, nil }

func genBool(_ *encoder, b bool) (any, error) { return b, nil }

func genAny(e *encoder, v any) (any, error) { return e.any(v) }

func genMultilineString(_ *encoder, m nbformat.MultilineString) (any, error) { return text(m), nil }

func genMimeBundle(_ *encoder, b nbformat.MimeBundle) (any, error) { return bundle(b) }

func genPtrString(_ *encoder, v *string) (any, error) {
	if v == nil {
		return nil, nil
	}
	return *v, nil
}

func genPtrInt(_ *encoder, v *int) (any, error) {
	if v == nil {
		return nil, nil
	}
	return *v, nil
}

func genPtrBool(_ *encoder, v *bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	return *v, nil
}

func genSliceString(_ *encoder, v []string) (any, error) {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out, nil
}

func genMapAny(e *encoder, v map[string]any) (any, error) {
	out := make(map[string]any, len(v))
	for k, x := range v {
		g, err := e.any(x)
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

// genCell and genOutput convert a cell or an output: null for nil, the
// Raw of an unknown one decoded.
func genCell(e *encoder, c nbformat.Cell) (any, error) {
	if u, ok := c.(*nbformat.UnknownCell); ok {
		if u == nil {
			return nil, nil
		}
		return nbformat.Decode(u.Raw)
	}
	return e.variant(c)
}

func genOutput(e *encoder, o nbformat.Output) (any, error) {
	if u, ok := o.(*nbformat.UnknownOutput); ok {
		if u == nil {
			return nil, nil
		}
		return nbformat.Decode(u.Raw)
	}
	return e.variant(o)
}

// variant converts a cell or output of a generated struct (null for nil).
func (e *encoder) variant(v any) (any, error) {
	m, ok, err := structMap(e, v)
	if !ok {
		return nil, nil // nil, or a nil pointer
	}
	return m, err
}

// typeTag is a cell's or output's type member: v, or the variant's type
// when v is empty.
func typeTag(v, typ string) string {
	if v == "" {
		return typ
	}
	return v
}

func zeroFloat(f float64) bool { return math.Float64bits(f) == 0 }

// text is a text as one string (its lines joined), as Python nbformat
// holds it in memory.
func text(m nbformat.MultilineString) any { return m.String() }

// bundle is output data: text entries as one string, JSON entries as
// jsonEntry gives them.
func bundle(b nbformat.MimeBundle) (any, error) {
	keys := b.Keys()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if s, isText := b.Text(k); isText {
			out[k] = s
			continue
		}
		raw, _ := b.RawJSON(k)
		g, err := jsonEntry(raw)
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

// jsonEntry returns JSON output data as generic JSON: an array or object
// as json.RawMessage (as AdditionalProperties keeps them), a scalar
// decoded.
func jsonEntry(raw []byte) (any, error) {
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, nil)
	if err != nil {
		return nil, fmt.Errorf("nbmap: output data: %w", err)
	}
	if t.Lazy(jsontree.Root) {
		n := &t.Nodes[jsontree.Root]
		return json.RawMessage(raw[n.Start:n.End:n.End]), nil
	}
	return scalar(t, jsontree.Root), nil
}

// scalar is the generic value of scalar node j.
func scalar(t *jsontree.Tape, j int) any {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.True:
		return true
	case jsontree.False:
		return false
	case jsontree.String:
		return t.Str(j)
	case jsontree.Number:
		return jsontree.NumberValue(t.Raw(j), n.Flags)
	}
	return nil
}

// any converts generic JSON, or any value encoding/json writes: the types
// of package nbformat and of Decode natively (numbers of every Go type as
// int, or float64), others through their encoding/json form.
func (e *encoder) any(v any) (any, error) {
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
		return unsigned(uint64(x)), nil
	case uint8:
		return int(x), nil
	case uint16:
		return int(x), nil
	case uint32:
		return int(x), nil
	case uint64:
		return unsigned(x), nil
	case json.Number:
		if s := string(x); s != "NaN" && s != "Infinity" && s != "-Infinity" && !json.Valid([]byte(s)) {
			return nil, fmt.Errorf("nbmap: invalid json.Number %q", s)
		}
		return jsontree.NumberValue([]byte(x), numberFlags(string(x))), nil
	case map[string]any:
		if x == nil {
			return nil, nil
		}
		return e.guarded(x, func() (any, error) { return genMapAny(e, x) })
	case []any:
		if x == nil {
			return nil, nil
		}
		return e.guarded(x, func() (any, error) {
			out := make([]any, len(x))
			for i, el := range x {
				g, err := e.any(el)
				if err != nil {
					return nil, err
				}
				out[i] = g
			}
			return out, nil
		})
	case []string:
		if x == nil {
			return nil, nil
		}
		return genSliceString(e, x)
	case map[string]string:
		if x == nil {
			return nil, nil
		}
		out := make(map[string]any, len(x))
		for k, s := range x {
			out[k] = s
		}
		return out, nil
	case nbformat.MultilineString:
		return text(x), nil
	case nbformat.MimeBundle:
		return bundle(x)
	case nbformat.CellID:
		return string(x), nil
	case nbformat.CellType:
		return string(x), nil
	case nbformat.OutputType:
		return string(x), nil
	}
	if m, ok, err := structMap(e, v); ok {
		return m, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("nbmap: cannot write a %T: %w", v, err)
	}
	return nbformat.Decode(b)
}

// unsigned is u as Decode gives its JSON: an int, or a json.Number when it
// does not fit one.
func unsigned(u uint64) any {
	if u > math.MaxInt64 {
		return json.Number(strconv.FormatUint(u, 10))
	}
	return int(u)
}

// guarded converts a map or slice held in an interface, refusing one that
// contains itself.
func (e *encoder) guarded(x any, gen func() (any, error)) (any, error) {
	if !e.cycles.EnterAny(x) {
		return nil, errCycle
	}
	defer e.cycles.LeaveAny(x)
	return gen()
}

// numberFlags classifies the text of a json.Number.
func numberFlags(s string) uint8 {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return jsontree.FlagNonFinite
	}
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' {
			return 0
		}
	}
	return jsontree.FlagInt
}

// The converters of leaf types that the generated code calls only for
// some schemas (map_gen.go writes texts, scalars and pointers to them in
// place), kept for a schema change to use.
var _ = [...]any{genString, genInt, genFloat64, genBool, genMultilineString, genPtrString, genPtrBool, zeroFloat, decFloat64}
