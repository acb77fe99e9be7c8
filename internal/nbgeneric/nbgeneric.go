// Package nbgeneric converts between package nbformat's typed values and
// generic JSON values, for the module's other packages (convert keeps a
// dialog's metadata and outputs as generic JSON); it is not part of the
// public API.
//
// Generic JSON values are those of nbformat.Decode, with the arrays and
// objects of metadata kept as json.RawMessage (see package nbformat).
//
// The functions are package nbformat's own, which sets them when it is
// initialized: every importer of this package also imports nbformat (they
// convert its values), and Go initializes an imported package before its
// importer, so they are never nil when used. Outputs are passed as any
// because this package cannot import nbformat (nbformat imports it); To
// and FromOutput take and return nbformat.Output values.
package nbgeneric

var (
	// ToMap returns a generated struct of package nbformat (or a pointer
	// to one), such as a cell's Metadata, as a generic object: its typed
	// fields and its AdditionalProperties together.
	ToMap func(v any) (map[string]any, error)

	// FromMap sets the generated struct ptr points to from a generic
	// object, as reading it from a file would: keys with a typed field
	// fill it, the rest (and values of the wrong type) go to
	// AdditionalProperties.
	FromMap func(m map[string]any, ptr any) error

	// OutputToMap returns an nbformat.Output as a generic object.
	OutputToMap func(o any) (map[string]any, error)

	// OutputFromMap makes an nbformat.Output from a generic object (an
	// *nbformat.UnknownOutput when its output_type is not one of the
	// four). Its text takes the form of the notebook it is written in.
	OutputFromMap func(m map[string]any) (any, error)
)
