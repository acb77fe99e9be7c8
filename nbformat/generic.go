package nbformat

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
)

// The bridge to generic JSON for the module's other packages (convert).
func init() {
	nbgeneric.Encode = encodeCompact
	nbgeneric.ToMap = toMap
	nbgeneric.FromMap = fromMap
	nbgeneric.OutputToMap = func(o any) (map[string]any, error) {
		out, ok := o.(Output)
		if !ok {
			return nil, fmt.Errorf("nbformat: to generic JSON: %T is not an Output", o)
		}
		return outputToMap(out)
	}
	nbgeneric.OutputFromMap = func(m map[string]any) (any, error) { return outputFromMap(m) }
}

// toMap returns a generated struct (or a pointer to one), such as a cell's
// Metadata, as generic JSON: its typed fields and its AdditionalProperties
// together, with the Go types of [Decode], except that arrays and objects
// kept as json.RawMessage (see the package documentation) stay so.
func toMap(v any) (map[string]any, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || !ours(rv.Type()) {
		return nil, fmt.Errorf("nbformat: to generic JSON: %T is not a struct of this package", v)
	}
	e := encoder{st: &pythonStyle, ids: true}
	g, err := e.generic(rv, infoOf(rv.Type()))
	if err != nil {
		return nil, cycleAt(err, rv)
	}
	return g.(map[string]any), nil
}

// generic converts a typed value to generic JSON, as Marshal would write
// it (present members only), without going through JSON text.
func (e *encoder) generic(v reflect.Value, ti *typeInfo) (any, error) {
	switch ti.kind {
	case kString:
		return v.String(), nil
	case kInt:
		return int(v.Int()), nil
	case kUint:
		return int(v.Uint()), nil
	case kFloat:
		return v.Float(), nil
	case kBool:
		return v.Bool(), nil
	case kNumber:
		return numberValue([]byte(v.String()), numberFlags(v.String())), nil
	case kRaw:
		return v.Interface(), nil
	case kPtr, kAny, kCell, kOutput:
		return e.genericIndirect(v, ti)
	case kSlice, kMap:
		if err := e.cycles.enter(v); err != nil {
			return nil, err
		}
		defer e.cycles.leave(v)
		if ti.kind == kSlice {
			return e.genericSlice(v, ti)
		}
		return e.genericMap(v, ti)
	case kStruct:
		return e.genericStruct(v, ti.plan)
	case kMultiline:
		return genericMultiline(mustAssert[MultilineString](v)), nil
	case kBundle:
		return genericBundle(mustAssert[MimeBundle](v))
	}
	return nil, fmt.Errorf("nbformat: cannot convert a %s", ti.typ)
}

// genericIndirect converts what a pointer, an interface, a cell or an
// output holds (null for nil).
func (e *encoder) genericIndirect(v reflect.Value, ti *typeInfo) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	switch ti.kind {
	case kPtr:
		return e.generic(v.Elem(), ti.elem)
	case kAny:
		x, xi, ok := e.dynamic(v)
		if !ok {
			return nil, e.err
		}
		return e.generic(x, xi)
	}
	switch x := v.Interface().(type) {
	case *UnknownCell:
		return Decode(x.Raw)
	case *UnknownOutput:
		return Decode(x.Raw)
	}
	el := v.Elem().Elem()
	return e.generic(el, infoOf(el.Type()))
}

func (e *encoder) genericSlice(v reflect.Value, ti *typeInfo) (any, error) {
	out := make([]any, v.Len())
	for i := range out {
		g, err := e.generic(v.Index(i), ti.elem)
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

func (e *encoder) genericMap(v reflect.Value, ti *typeInfo) (any, error) {
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		g, err := e.generic(it.Value(), ti.elem)
		if err != nil {
			return nil, err
		}
		out[it.Key().String()] = g
	}
	return out, nil
}

// genericStruct converts a generated struct: its present fields and the
// values its AdditionalProperties keeps (unless a set field shadows them).
func (e *encoder) genericStruct(v reflect.Value, plan *structPlan) (any, error) {
	out := map[string]any{}
	for i := range plan.fields {
		f := &plan.fields[i]
		fv, present := e.field(v, f, false, false)
		if !present {
			continue
		}
		g, err := e.generic(fv, infoOf(fv.Type()))
		if err != nil {
			return nil, err
		}
		out[f.name] = g
	}
	if plan.extra >= 0 {
		for k, x := range mustAssert[map[string]any](v.Field(plan.extra)) {
			if shadowed(v, plan, k) {
				continue
			}
			g, err := e.generic(reflect.ValueOf(&x).Elem(), infoOf(anyType))
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
	}
	return out, nil
}

// genericMultiline is text as written: a list of lines, or one string.
func genericMultiline(m MultilineString) any {
	if m.form == formLines || m.raw != nil && m.raw[0] == '[' {
		lines := m.Lines()
		out := make([]any, len(lines))
		for i, l := range lines {
			out[i] = l
		}
		return out
	}
	return m.String()
}

// genericBundle is output data: text entries as genericMultiline, JSON
// entries as jsonEntry.
func genericBundle(b MimeBundle) (any, error) {
	out := make(map[string]any, b.Len())
	if b.b == nil {
		return out, nil
	}
	for _, en := range b.b.entries {
		if en.isJSON {
			g, err := jsonEntry(en.json)
			if err != nil {
				return nil, err
			}
			out[en.mime] = g
			continue
		}
		out[en.mime] = genericMultiline(en.text)
	}
	return out, nil
}

// jsonEntry returns JSON output data as generic JSON: an array or object
// as json.RawMessage (as AdditionalProperties keeps them), a scalar
// decoded.
func jsonEntry(raw []byte) (any, error) {
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, nil)
	if err != nil {
		return nil, syntaxError("", raw, err)
	}
	if t.Lazy(jsontree.Root) {
		n := &t.Nodes[jsontree.Root]
		return json.RawMessage(raw[n.Start:n.End:n.End]), nil
	}
	return genericValue(t, jsontree.Root), nil
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

// fromMap sets the generated struct ptr points to from generic JSON m, as
// reading it from a file would: keys with a typed field fill it, the rest
// (and values of the wrong type) go to AdditionalProperties.
func fromMap(m map[string]any, ptr any) error {
	x, ok := ptr.(codecStruct)
	if !ok {
		return fmt.Errorf("nbformat: from generic JSON: %T is not a pointer to a struct of this package", ptr)
	}
	d, root, err := tempDecoder(m, reflect.TypeOf(ptr).Elem())
	if err != nil {
		return err
	}
	if d.t.Nodes[root].Kind != jsontree.Object {
		return fmt.Errorf("nbformat: from generic JSON: not an object")
	}
	for i := range x.codec().fields {
		x.clearField(i)
	}
	*x.extra() = nil
	d.decStruct(x, root)
	return nil
}

// outputToMap returns an output as generic JSON.
func outputToMap(o Output) (map[string]any, error) {
	if u, ok := o.(*UnknownOutput); ok {
		g, err := Decode(u.Raw)
		if err != nil {
			return nil, err
		}
		m, ok := g.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("nbformat: to generic JSON: output is not an object")
		}
		return m, nil
	}
	v := reflect.ValueOf(o).Elem()
	e := encoder{st: &pythonStyle, ids: true}
	g, err := e.generic(v, infoOf(v.Type()))
	if err != nil {
		return nil, cycleAt(err, v)
	}
	return g.(map[string]any), nil
}

// outputFromMap makes a typed output from generic JSON (an UnknownOutput
// when its output_type is not one of the four). Its text takes the form of
// the notebook it is written in (one string, or lines), as new text does.
func outputFromMap(m map[string]any) (Output, error) {
	d, root, err := tempDecoder(m, outputType)
	if err != nil {
		return nil, err
	}
	o := d.output(root, d.outputVariant(root))
	detachOutput(o)
	return o, nil
}

// tempDecoder parses the JSON encoding of v for decoding as a typ.
func tempDecoder(v any, typ reflect.Type) (*decoder, int, error) {
	raw, err := encodeCompact(v)
	if err != nil {
		return nil, 0, err
	}
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, typeShape(typ))
	if err != nil {
		return nil, 0, err
	}
	src := &source{tape: t}
	return newDecoder(t, src), jsontree.Root, nil
}

// decodeRaw returns x decoded when it is a json.RawMessage (nil when that
// does not parse), else x itself.
func decodeRaw(x any) any {
	if r, ok := x.(json.RawMessage); ok {
		g, err := Decode(r)
		if err != nil {
			return nil
		}
		return g
	}
	return x
}
