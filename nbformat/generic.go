package nbformat

import (
	"fmt"
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// ToMap returns a generated struct (or a pointer to one), such as a cell's
// Metadata, as generic JSON: its typed fields and its AdditionalProperties
// together, with the Go types of [Decode].
func ToMap(v any) (map[string]any, error) {
	raw, err := encodeCompact(v)
	if err != nil {
		return nil, err
	}
	g, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	m, ok := g.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("nbformat: ToMap: %T is not an object", v)
	}
	return m, nil
}

// FromMap sets the generated struct ptr points to from generic JSON m, as
// reading it from a file would: keys with a typed field fill it, the rest
// (and values of the wrong type) go to AdditionalProperties.
func FromMap(m map[string]any, ptr any) error {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("nbformat: FromMap: %T is not a pointer to a struct", ptr)
	}
	d, root, err := tempDecoder(m)
	if err != nil {
		return err
	}
	if d.t.Nodes[root].Kind != jsontree.Object {
		return fmt.Errorf("nbformat: FromMap: not an object")
	}
	v.Elem().SetZero()
	d.decodeStruct(v.Elem(), infoOf(v.Elem().Type()).plan, root)
	return nil
}

// OutputToMap returns an output as generic JSON.
func OutputToMap(o Output) (map[string]any, error) {
	if u, ok := o.(*UnknownOutput); ok {
		g, err := Decode(u.Raw)
		if err != nil {
			return nil, err
		}
		m, ok := g.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("nbformat: OutputToMap: output is not an object")
		}
		return m, nil
	}
	return ToMap(o)
}

// OutputFromMap makes a typed output from generic JSON (an UnknownOutput
// when its output_type is not one of the four). Its text takes the form of
// the notebook it is written in (one string, or lines), as new text does.
func OutputFromMap(m map[string]any) (Output, error) {
	d, root, err := tempDecoder(m)
	if err != nil {
		return nil, err
	}
	o := d.output(root)
	detachOutput(o)
	return o, nil
}

// tempDecoder parses the JSON encoding of v for decoding.
func tempDecoder(v any) (*decoder, int, error) {
	raw, err := encodeCompact(v)
	if err != nil {
		return nil, 0, err
	}
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: DefaultMaxDepth})
	if err != nil {
		return nil, 0, err
	}
	src := &source{tape: t, cells: map[Cell]int32{}, outputs: map[Output]int32{}, order: map[reflect.Type][]string{}}
	return &decoder{t: t, src: src}, jsontree.Root, nil
}
