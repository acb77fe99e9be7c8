// encoding/json for notebooks, single cells and outputs, texts and MIME
// bundles: each marshals as the JSON nbformat writes for it and unmarshals
// from any JSON value of its kind.

package nbformat

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Cells and outputs implement [json.Marshaler] and [json.Unmarshaler], so
// that encoding/json writes and reads them as they are in a notebook:
//
//   - MarshalJSON returns the JSON [Marshal] writes for the value as a cell
//     of a new notebook (an output as an output of a code cell): a value
//     read from a notebook gives the JSON value it was read from, but for
//     members the schema requires that it lacks, which are written as for
//     a new cell (an empty "outputs" of a code cell).
//   - UnmarshalJSON reads the value from one cell (or output) of notebook
//     JSON, as [Unmarshal] reads it in a notebook: nothing is repaired or
//     validated. A JSON value of another type (a markdown cell given to a
//     *CodeCell, say) is an error; an *UnknownCell or *UnknownOutput takes
//     any JSON value as its Raw.
//
// A [Notebook] marshals as [Marshal] writes it (in the style it was read
// in) and unmarshals as [Unmarshal] reads it; a [MultilineString] and a
// [MimeBundle] marshal as the "source" of a new notebook's cell and the
// "data" of its output, and unmarshal from a JSON value that fits: a
// string or an array of strings, an object. JSON null unmarshals as
// nothing (the value is left as it was). encoding/json re-indents what
// MarshalJSON returns.
var (
	_ json.Marshaler   = Notebook{}
	_ json.Unmarshaler = (*Notebook)(nil)
	_ json.Marshaler   = MultilineString{}
	_ json.Unmarshaler = (*MultilineString)(nil)
	_ json.Marshaler   = MimeBundle{}
	_ json.Unmarshaler = (*MimeBundle)(nil)
	_ json.Marshaler   = CodeCell{}
	_ json.Unmarshaler = (*CodeCell)(nil)
	_ json.Marshaler   = UnknownOutput{}
	_ json.Unmarshaler = (*UnknownOutput)(nil)
)

// MarshalJSON returns the notebook's JSON, as [Marshal] writes it.
func (nb Notebook) MarshalJSON() ([]byte, error) { return Marshal(&nb) }

// UnmarshalJSON sets nb to the notebook b holds, as [Unmarshal] reads it
// (a notebook of version 3 or earlier is upgraded).
func (nb *Notebook) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	x, err := Unmarshal(bytes.Clone(b))
	if err != nil {
		return err
	}
	*nb = *x
	return nil
}

// MarshalJSON returns the text's JSON: as read, or as a new cell's source.
func (m MultilineString) MarshalJSON() ([]byte, error) {
	b, err := marshalCellJSON(&MarkdownCell{CellType: CellTypeMarkdown, Source: m})
	if err != nil {
		return nil, err
	}
	return memberJSON(b, "source", "text")
}

// UnmarshalJSON sets m to the text b holds: a JSON string or an array of
// strings.
func (m *MultilineString) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	doc := make([]byte, 0, len(b)+64)
	doc = append(doc, `{"cell_type": "markdown", "metadata": {}, "source": `...)
	doc = append(doc, b...)
	doc = append(doc, '}')
	c, err := unmarshalCellJSON(doc)
	if err != nil {
		return fmt.Errorf("nbformat: reading a text: %w", err)
	}
	md, ok := c.(*MarkdownCell)
	if !ok || md.AdditionalProperties["source"] != nil {
		return fmt.Errorf("nbformat: reading a text: %.40s is neither a string nor an array of strings", b)
	}
	*m = md.Source
	return nil
}

// MarshalJSON returns the bundle's JSON: as read, or as a new output's
// data.
func (m MimeBundle) MarshalJSON() ([]byte, error) {
	b, err := marshalOutputJSON(&DisplayData{OutputType: OutputTypeDisplayData, Data: m, Metadata: map[string]any{}})
	if err != nil {
		return nil, err
	}
	return memberJSON(b, "data", "MIME bundle")
}

// UnmarshalJSON sets m to the bundle b holds: a JSON object whose values
// fit their MIME types (see [MimeBundle]).
func (m *MimeBundle) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	var d DisplayData
	doc := make([]byte, 0, len(b)+64)
	doc = append(doc, `{"output_type": "display_data", "metadata": {}, "data": `...)
	doc = append(doc, b...)
	doc = append(doc, '}')
	if err := unmarshalOutputAs(doc, &d); err != nil {
		return fmt.Errorf("nbformat: reading a MIME bundle: %w", err)
	}
	if d.AdditionalProperties["data"] != nil {
		return fmt.Errorf("nbformat: reading a MIME bundle: %.40s is not an object of MIME types", b)
	}
	*m = d.Data
	return nil
}

// isNull reports whether b is the JSON null (which encoding/json passes
// to an Unmarshaler for it to ignore).
func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// memberJSON returns the JSON of member key of the object b.
func memberJSON(b []byte, key, what string) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj[key] == nil {
		return nil, fmt.Errorf("nbformat: a %s written does not read back: %v", what, err)
	}
	return obj[key], nil
}

// MarshalJSON returns the cell's JSON (see [Cell]).
func (c CodeCell) MarshalJSON() ([]byte, error) { return marshalCellJSON(&c) }

// MarshalJSON returns the cell's JSON (see [Cell]).
func (c MarkdownCell) MarshalJSON() ([]byte, error) { return marshalCellJSON(&c) }

// MarshalJSON returns the cell's JSON (see [Cell]).
func (c RawCell) MarshalJSON() ([]byte, error) { return marshalCellJSON(&c) }

// MarshalJSON returns Raw, which must hold a JSON value.
func (c UnknownCell) MarshalJSON() ([]byte, error) { return unknownJSON(c.Raw, "cell") }

// UnmarshalJSON sets c to the code cell b holds.
func (c *CodeCell) UnmarshalJSON(b []byte) error { return unmarshalCellAs(b, c) }

// UnmarshalJSON sets c to the markdown cell b holds.
func (c *MarkdownCell) UnmarshalJSON(b []byte) error { return unmarshalCellAs(b, c) }

// UnmarshalJSON sets c to the raw cell b holds.
func (c *RawCell) UnmarshalJSON(b []byte) error { return unmarshalCellAs(b, c) }

// UnmarshalJSON sets Raw to a copy of b.
func (c *UnknownCell) UnmarshalJSON(b []byte) error {
	c.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON returns the output's JSON (see [Output]).
func (o ExecuteResult) MarshalJSON() ([]byte, error) { return marshalOutputJSON(&o) }

// MarshalJSON returns the output's JSON (see [Output]).
func (o DisplayData) MarshalJSON() ([]byte, error) { return marshalOutputJSON(&o) }

// MarshalJSON returns the output's JSON (see [Output]).
func (o Stream) MarshalJSON() ([]byte, error) { return marshalOutputJSON(&o) }

// MarshalJSON returns the output's JSON (see [Output]).
func (o ErrorOutput) MarshalJSON() ([]byte, error) { return marshalOutputJSON(&o) }

// MarshalJSON returns Raw, which must hold a JSON value.
func (o UnknownOutput) MarshalJSON() ([]byte, error) { return unknownJSON(o.Raw, "output") }

// UnmarshalJSON sets o to the execute_result output b holds.
func (o *ExecuteResult) UnmarshalJSON(b []byte) error { return unmarshalOutputAs(b, o) }

// UnmarshalJSON sets o to the display_data output b holds.
func (o *DisplayData) UnmarshalJSON(b []byte) error { return unmarshalOutputAs(b, o) }

// UnmarshalJSON sets o to the stream output b holds.
func (o *Stream) UnmarshalJSON(b []byte) error { return unmarshalOutputAs(b, o) }

// UnmarshalJSON sets o to the error output b holds.
func (o *ErrorOutput) UnmarshalJSON(b []byte) error { return unmarshalOutputAs(b, o) }

// UnmarshalJSON sets Raw to a copy of b.
func (o *UnknownOutput) UnmarshalJSON(b []byte) error {
	o.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// unknownJSON returns raw, refusing an empty one.
func unknownJSON(raw json.RawMessage, what string) ([]byte, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("nbformat: an unknown %s without Raw JSON", what)
	}
	return raw, nil
}

// marshalCellJSON writes c as the only cell of a notebook and returns that
// cell's JSON: a notebook of version 4.5, or 4.4 for a cell without an id
// (which 4.5 would write as "id": "").
func marshalCellJSON(c Cell) ([]byte, error) {
	nb := New()
	nb.Cells = []Cell{c}
	if CellIDOf(c) == "" {
		nb.NbformatMinor = 4
	}
	b, err := Marshal(nb)
	if err != nil {
		return nil, err
	}
	var doc struct{ Cells []json.RawMessage }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Cells) != 1 {
		return nil, fmt.Errorf("nbformat: a %s cell written does not read back: %v", c.Type(), err)
	}
	return doc.Cells[0], nil
}

// marshalOutputJSON writes o as the only output of a code cell and returns that
// output's JSON.
func marshalOutputJSON(o Output) ([]byte, error) {
	c := &CodeCell{CellType: CellTypeCode, ID: "output", Source: Text(""), Outputs: []Output{o}}
	b, err := marshalCellJSON(c)
	if err != nil {
		return nil, err
	}
	var cell struct{ Outputs []json.RawMessage }
	if err := json.Unmarshal(b, &cell); err != nil || len(cell.Outputs) != 1 {
		return nil, fmt.Errorf("nbformat: a %s output written does not read back: %v", o.Type(), err)
	}
	return cell.Outputs[0], nil
}

// unmarshalCellJSON reads b as the only cell of a notebook.
func unmarshalCellJSON(b []byte) (Cell, error) {
	if !json.Valid(b) {
		return nil, fmt.Errorf("nbformat: reading a cell: not one JSON value")
	}
	doc := make([]byte, 0, len(b)+64)
	doc = append(doc, `{"cells": [`...)
	doc = append(doc, b...)
	doc = append(doc, `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`...)
	nb, err := Unmarshal(doc)
	if err != nil {
		return nil, fmt.Errorf("nbformat: reading a cell: %w", err)
	}
	if len(nb.Cells) != 1 {
		return nil, fmt.Errorf("nbformat: reading a cell: %d values", len(nb.Cells))
	}
	return nb.Cells[0], nil
}

// unmarshalCellAs sets *dst to the cell b holds, of dst's type.
func unmarshalCellAs[T any, P interface {
	*T
	Cell
}](b []byte, dst P) error {
	c, err := unmarshalCellJSON(b)
	if err != nil {
		return err
	}
	got, ok := c.(P)
	if !ok {
		return fmt.Errorf("nbformat: a %q cell is not a %s cell", c.Type(), dst.Type())
	}
	*dst = *got
	return nil
}

// unmarshalOutputAs sets *dst to the output b holds, of dst's type.
func unmarshalOutputAs[T any, P interface {
	*T
	Output
}](b []byte, dst P) error {
	if !json.Valid(b) {
		return fmt.Errorf("nbformat: reading an output: not one JSON value")
	}
	doc := make([]byte, 0, len(b)+96)
	doc = append(doc, `{"cell_type": "code", "execution_count": null, "id": "output", "metadata": {}, "outputs": [`...)
	doc = append(doc, b...)
	doc = append(doc, `], "source": ""}`...)
	c, err := unmarshalCellJSON(doc)
	if err != nil {
		return err
	}
	code, ok := c.(*CodeCell)
	if !ok || len(code.Outputs) != 1 {
		return fmt.Errorf("nbformat: reading an output: not one JSON value")
	}
	got, ok := code.Outputs[0].(P)
	if !ok {
		return fmt.Errorf("nbformat: a %q output is not a %s output", code.Outputs[0].Type(), dst.Type())
	}
	*dst = *got
	return nil
}
