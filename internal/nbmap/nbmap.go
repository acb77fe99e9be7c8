// Package nbmap converts package nbformat's typed values to and from
// generic JSON, for the module's other packages (convert keeps a dialog's
// metadata and outputs as generic JSON, internal/v3write compares cells in
// that form); it is not part of the public API.
//
// Generic JSON values are those of nbformat.Decode, with the arrays and
// objects that nbformat keeps as json.RawMessage (the values of
// AdditionalProperties and of members of type any) kept so. The
// conversions go through nbformat's exported fields and methods only: the
// code over each generated struct is generated from nbformat/schema_gen.go
// (map_gen.go, by internal/cmd/gencodec -map), over the algorithms of
// tomap.go and frommap.go, so that a member added to the schema is
// converted with no handwritten change and no reflection.
package nbmap

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/nbformat"
)

// ToMap returns a generated struct of package nbformat (or a non-nil
// pointer to one), such as a cell or a cell's Metadata, as a generic
// object: the fields nbformat writes and the values its
// AdditionalProperties keeps (but for keys of fields that are set), with
// every text (a MultilineString, a text entry of a MimeBundle) as one
// string, its lines joined, as Python nbformat holds texts in memory:
// the form a text is stored in is the writer's concern (it keeps the
// form read for texts it writes back).
func ToMap(v any) (map[string]any, error) {
	var e encoder
	m, ok, err := structMap(&e, v)
	if !ok {
		return nil, fmt.Errorf("nbmap: to generic JSON: %T is not a struct of package nbformat", v)
	}
	if err != nil {
		return nil, writeError(v, err)
	}
	return m, nil
}

// OutputToMap returns an output as a generic object, its texts as ToMap
// gives them (an UnknownOutput's Raw decoded).
func OutputToMap(o nbformat.Output) (map[string]any, error) {
	if u, ok := o.(*nbformat.UnknownOutput); ok && u != nil {
		g, err := nbformat.Decode(u.Raw)
		if err != nil {
			return nil, err
		}
		m, ok := g.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("nbmap: to generic JSON: output is not an object")
		}
		return m, nil
	}
	var e encoder
	m, ok, err := structMap(&e, o)
	if !ok || m == nil && err == nil {
		return nil, fmt.Errorf("nbmap: to generic JSON: %T is not an output", o)
	}
	if err != nil {
		return nil, writeError(o, err)
	}
	return m, nil
}

// FromMap sets the generated struct ptr points to (metadata: not a cell or
// an output) from the generic object m, as reading m's JSON from a file
// would: keys with a field fill it, the rest (and values that do not fit
// their field) go to AdditionalProperties, arrays and objects there as
// json.RawMessage.
func FromMap(m map[string]any, ptr any) error {
	d := decoder{top: m}
	if !structFromMap(&d, val{g: m, depth: 1}, ptr) {
		return fmt.Errorf("nbmap: from generic JSON: %T is not a pointer to a metadata struct of package nbformat", ptr)
	}
	return d.failed()
}

// OutputFromMap makes an output from the generic object m, as reading m's
// JSON in a notebook would (an UnknownOutput when its output_type is not
// one of the four), but for its texts, which are new (nbformat.Text): they
// take the form of the notebook they are written in.
func OutputFromMap(m map[string]any) (nbformat.Output, error) {
	d := decoder{top: m}
	var typ string
	if g, ok := m["output_type"]; ok {
		typ, _ = decString(&d, val{g: g, depth: 2}, true)
	}
	o, dec := newOutput(typ)
	if o == nil {
		raw, err := nbjson.Encode(m)
		if err != nil {
			return nil, err
		}
		return &nbformat.UnknownOutput{Raw: raw}, d.failed()
	}
	dec(&d, val{g: m, depth: 1})
	if err := d.failed(); err != nil {
		return nil, err
	}
	return o, nil
}

// writeError is the error of converting root to generic JSON, err: the
// one nbformat's writer gives for root, which names the place of a value
// that contains itself (a *nbformat.FormatError), when it gives one.
func writeError(root any, err error) error {
	if _, werr := nbjson.Encode(root); werr != nil {
		return werr
	}
	return err
}
