package nbformat

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Cell is one entry of a notebook's cells: a *[CodeCell], *[MarkdownCell] or
// *[RawCell] (structs generated from the schema), or an *[UnknownCell] for
// anything else (a cell type from a future minor version, or a value that is
// not a cell at all), kept byte for byte.
type Cell interface {
	// Type reports the cell_type: [CellTypeCode], [CellTypeMarkdown],
	// [CellTypeRaw], or whatever an UnknownCell holds ("" if it has none).
	Type() CellType
	isCell()
}

// CellType is a cell's cell_type member, the schema's enum of cell types
// (the generated structs' CellType fields; see internal/cmd/flatten).
type CellType string

// The cell types of nbformat 4.
const (
	CellTypeCode     CellType = "code"
	CellTypeMarkdown CellType = "markdown"
	CellTypeRaw      CellType = "raw"
)

var (
	_ Cell = (*CodeCell)(nil)
	_ Cell = (*MarkdownCell)(nil)
	_ Cell = (*RawCell)(nil)
	_ Cell = (*UnknownCell)(nil)
)

// Type returns [CellTypeCode].
func (*CodeCell) Type() CellType { return CellTypeCode }

// Type returns [CellTypeMarkdown].
func (*MarkdownCell) Type() CellType { return CellTypeMarkdown }

// Type returns [CellTypeRaw].
func (*RawCell) Type() CellType { return CellTypeRaw }

func (*CodeCell) isCell()     {}
func (*MarkdownCell) isCell() {}
func (*RawCell) isCell()      {}
func (*UnknownCell) isCell()  {}

// UnknownCell is a cell this package has no type for: an unrecognized
// cell_type, or an element of cells that is not an object. Raw holds its
// JSON as read; it is written back unchanged unless Raw is replaced.
type UnknownCell struct {
	Raw json.RawMessage
	src nodeRef
}

// Type returns the cell_type member of the raw cell (a string), or "".
func (c *UnknownCell) Type() CellType { return CellType(rawMemberString(c.Raw, "cell_type")) }

// rawMemberString returns the string member key of the JSON object raw,
// or "" (one pass over raw, decoding nothing else: Heal asks an unknown
// output's type of outputs of megabytes).
func rawMemberString(raw []byte, key string) string {
	s, _ := jsonvalue.MemberString(raw, key)
	return s
}

// newID returns a fresh random cell id: 8 lower-case hex digits, like
// Python nbformat's uuid4().hex[:8].
func newID() CellID {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("nbformat: crypto/rand failed: " + err.Error())
	}
	return CellID(hex.EncodeToString(b[:]))
}

// NewCodeCell returns a code cell with a fresh random id (8 lower-case hex
// digits, as Python nbformat's new_code_cell gives), no outputs and no
// execution count. A cell built as a struct literal has no id until one
// is set ([SetCellID]) or [Heal] derives one.
func NewCodeCell(source string) *CodeCell {
	return &CodeCell{
		CellType: CellTypeCode,
		ID:       newID(),
		Source:   Text(source),
		Outputs:  []Output{},
	}
}

// NewMarkdownCell returns a markdown cell with a fresh random id (see
// [NewCodeCell]).
func NewMarkdownCell(source string) *MarkdownCell {
	return &MarkdownCell{CellType: CellTypeMarkdown, ID: newID(), Source: Text(source)}
}

// NewRawCell returns a raw cell with a fresh random id (see
// [NewCodeCell]).
func NewRawCell(source string) *RawCell {
	return &RawCell{CellType: CellTypeRaw, ID: newID(), Source: Text(source)}
}

// CellIDOf returns the id of any cell ("" if it has none, or is nil).
func CellIDOf(c Cell) CellID {
	if isNilVariant(c) {
		return ""
	}
	switch c := c.(type) {
	case *CodeCell:
		return c.ID
	case *MarkdownCell:
		return c.ID
	case *RawCell:
		return c.ID
	case *UnknownCell:
		return CellID(rawMemberString(c.Raw, "id"))
	}
	return ""
}

// cellMetadata returns a pointer to the typed metadata of a code,
// markdown or raw cell (*CodeCellMetadata, *MarkdownCellMetadata,
// *RawCellMetadata), to read or edit in place; nil for an UnknownCell.
func cellMetadata(c Cell) codecStruct {
	switch c := c.(type) {
	case *CodeCell:
		return &c.Metadata
	case *MarkdownCell:
		return &c.Metadata
	case *RawCell:
		return &c.Metadata
	}
	return nil
}

// SetCellID sets the id of a code, markdown or raw cell; it reports false
// for an UnknownCell, whose bytes it does not touch.
func SetCellID(c Cell, id CellID) bool {
	switch c := c.(type) {
	case *CodeCell:
		c.ID = id
	case *MarkdownCell:
		c.ID = id
	case *RawCell:
		c.ID = id
	default:
		return false
	}
	return true
}

// SourceOf returns the source of a code, markdown or raw cell.
func SourceOf(c Cell) MultilineString {
	switch c := c.(type) {
	case *CodeCell:
		return c.Source
	case *MarkdownCell:
		return c.Source
	case *RawCell:
		return c.Source
	}
	return MultilineString{}
}

// ReplaceCell sets the contents of cell dst to those of src, a cell of the
// same type (code, markdown or raw), and reports whether it did. dst stays
// the cell it is: a cell read from a file is still written over the bytes
// it was read from (keeping their layout, and their missing members
// missing while they are zero), as an edit of them, wherever it is put.
// (An assignment *dst = *src would make dst a copy of src, provenance and
// all.) The contents are shared with src as an assignment shares them.
func ReplaceCell(dst, src Cell) bool {
	switch d := dst.(type) {
	case *CodeCell:
		if s, ok := src.(*CodeCell); ok && d != nil && s != nil {
			ref := d.src
			*d = *s
			d.src = ref
			return true
		}
	case *MarkdownCell:
		if s, ok := src.(*MarkdownCell); ok && d != nil && s != nil {
			ref := d.src
			*d = *s
			d.src = ref
			return true
		}
	case *RawCell:
		if s, ok := src.(*RawCell); ok && d != nil && s != nil {
			ref := d.src
			*d = *s
			d.src = ref
			return true
		}
	}
	return false
}

// cloneCell returns a copy of c that can be changed without changing c:
// the struct is copied, and its maps, slices and mime bundles are shared
// until replaced (set a field to a new value rather than changing a shared
// one in place). The copy is a new value, not the one read: it has no
// provenance (see nodeRef), so it is written whole, wherever it is put.
func cloneCell(c Cell) Cell {
	switch c := c.(type) {
	case *CodeCell:
		x := *c
		x.src = nodeRef{}
		return &x
	case *MarkdownCell:
		x := *c
		x.src = nodeRef{}
		return &x
	case *RawCell:
		x := *c
		x.src = nodeRef{}
		return &x
	case *UnknownCell:
		return &UnknownCell{Raw: append(json.RawMessage(nil), c.Raw...)}
	}
	return c
}
