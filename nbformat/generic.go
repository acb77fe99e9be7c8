package nbformat

// Typed values to and from generic JSON (the conversions internal/nbgeneric
// hands to convert).

import (
	"encoding/json"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// The bridge to generic JSON for the module's other packages (convert).
func init() {
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
	x, ok := generatedStruct(v)
	if !ok {
		return nil, fmt.Errorf("nbformat: to generic JSON: %T is not a struct of this package", v)
	}
	e := encoder{st: &nbstyle.Python, ids: true}
	g, err := e.genStruct(x)
	if err != nil {
		return nil, cycleAt(err, x)
	}
	return g.(map[string]any), nil
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
	if b.b == nil {
		return map[string]any{}, nil
	}
	out := make(map[string]any, len(b.b.entries))
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
	d, root, err := tempDecoder(m, &typeDesc{kind: kindStruct, codec: x.codec()})
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
	x, ok := o.(codecStruct)
	if !ok || isNilVariant(o) {
		return nil, fmt.Errorf("nbformat: to generic JSON: %T is not an output", o)
	}
	e := encoder{st: &nbstyle.Python, ids: true}
	g, err := e.genStruct(x)
	if err != nil {
		return nil, cycleAt(err, x)
	}
	return g.(map[string]any), nil
}

// outputFromMap makes a typed output from generic JSON (an UnknownOutput
// when its output_type is not one of the four). Its text takes the form of
// the notebook it is written in (one string, or lines), as new text does.
func outputFromMap(m map[string]any) (Output, error) {
	d, root, err := tempDecoder(m, &descOutput)
	if err != nil {
		return nil, err
	}
	o := d.output(root, d.outputVariant(root))
	detachOutput(o)
	return o, nil
}

// tempDecoder parses the JSON encoding of v for decoding as the type td
// describes.
func tempDecoder(v any, td *typeDesc) (*decoder, int, error) {
	raw, err := encodeCompact(v)
	if err != nil {
		return nil, 0, err
	}
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, typeShape(td))
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
