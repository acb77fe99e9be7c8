package nbformat

// The codec's model of the generated structs: what internal/cmd/gencodec
// writes for each of them (codec_gen.go), and the provenance of cells and
// outputs.

import "math"

// structCodec describes a generated struct: its members, in field order.
type structCodec struct {
	id     int // its index in structCodecs
	name   string
	fields []fieldCodec
	// The fields (the first 64, by bit) that are optional, type tags,
	// cell ids, and named "id".
	optional, typeTags, cellIDs, ids uint64
}

// fieldCodec describes a member of a generated struct.
type fieldCodec struct {
	name     string // the JSON key
	optional bool   // omitempty: absent while nil (or zero)
	typeTag  bool   // cell_type, output_type: the variant's own type when empty
	cellID   bool   // a cell's id: not written while empty before nbformat 4.5
	children bool   // comparing or writing it reads the original's children
	nillable bool   // its zero value is nil
	typ      *typeDesc
}

// codecStruct is a pointer to a generated struct, with the methods
// gencodec writes for it. A member is named by its index in the
// structCodec's fields.
type codecStruct interface {
	codec() *structCodec
	extra() *map[string]any
	// fieldOf and fieldNamed return the index of the field of JSON key
	// key, or -1.
	fieldOf(key []byte) int
	fieldNamed(key string) int
	// decodeField decodes node j into field i, reporting false (the field
	// left as it was) when the JSON does not fit its Go type.
	decodeField(d *decoder, i, j int) bool
	clearField(i int)
	// fieldZero reports whether field i holds its zero value (as
	// reflect.Value.IsZero), fieldPresent whether an optional field i is
	// written (not nil, or not zero).
	fieldZero(i int) bool
	fieldPresent(i int) bool
	equalField(e *encoder, i, j int) bool
	writeField(e *encoder, i, j int, ind string)
	// fieldStruct returns the struct field i holds (itself, or the target
	// of a non-nil pointer, copied first when cow so that the original is
	// not changed); nil when it holds none.
	fieldStruct(i int, cow bool) codecStruct
	// fieldIndex returns element k of slice field i as a struct (nil for
	// an element that is not one); false when i is not a slice or k is
	// out of its range.
	fieldIndex(i, k int) (codecStruct, bool)
	// masks reports, by bit, the first 64 fields that are set (not nil,
	// or not zero) and those that are zero (as fieldZero).
	masks() (set, zero uint64)
	// zero reports whether the whole struct is its zero value.
	zero() bool
}

// typeDesc describes the Go type of a member, for the shapes reading
// uses (see shape.go).
type typeDesc struct {
	kind  descKind
	elem  *typeDesc    // kindPtr, kindSlice, kindMap
	codec *structCodec // kindStruct
}

type descKind uint8

const (
	kindScalar descKind = iota // a string, number or boolean
	kindAny                    // generic JSON
	kindMultiline
	kindBundle
	kindCell
	kindOutput
	kindStruct
	kindPtr
	kindSlice
	kindMap
)

// The descriptions of the types the codec's leaf helpers handle.
var (
	descString          = typeDesc{kind: kindScalar}
	descInt             = typeDesc{kind: kindScalar}
	descFloat64         = typeDesc{kind: kindScalar}
	descBool            = typeDesc{kind: kindScalar}
	descAny             = typeDesc{kind: kindAny}
	descMultilineString = typeDesc{kind: kindMultiline}
	descMimeBundle      = typeDesc{kind: kindBundle}
	descCell            = typeDesc{kind: kindCell}
	descOutput          = typeDesc{kind: kindOutput}
	descSliceString     = typeDesc{kind: kindSlice, elem: &descString}
	descSliceCell       = typeDesc{kind: kindSlice, elem: &descCell}
	descSliceOutput     = typeDesc{kind: kindSlice, elem: &descOutput}
	descMapAny          = typeDesc{kind: kindMap, elem: &descAny}
	descMapMimeBundle   = typeDesc{kind: kindMap, elem: &descMimeBundle}
	descPtrString       = typeDesc{kind: kindPtr, elem: &descString}
	descPtrInt          = typeDesc{kind: kindPtr, elem: &descInt}
	descPtrBool         = typeDesc{kind: kindPtr, elem: &descBool}
)

// nodeRef is the provenance of a cell or an output (the unexported last
// field retag gives the variants, and UnknownCell's and UnknownOutput's
// own): the source of the notebook it was read from and its node there.
// A value built in memory has none (src nil). Copying a cell copies its
// provenance: the copy is compared with the same original.
type nodeRef struct {
	src  *source
	node int32
}

// variantRef is a cell or output with provenance.
type variantRef interface{ ref() *nodeRef }

func (x *UnknownCell) ref() *nodeRef   { return &x.src }
func (x *UnknownOutput) ref() *nodeRef { return &x.src }

// originIn returns the node of src that the cell or output x was read
// from, if it was read from src.
func originIn(src *source, x any) (int, bool) {
	if src == nil {
		return -1, false
	}
	var r *nodeRef
	switch v := x.(type) {
	case *UnknownCell:
		if v == nil {
			return -1, false
		}
		r = &v.src
	case *UnknownOutput:
		if v == nil {
			return -1, false
		}
		r = &v.src
	default:
		_, ref, ok := variantOf(x)
		if !ok {
			return -1, false
		}
		r = ref
	}
	if r.src == src {
		return int(r.node), true
	}
	return -1, false
}

// typeTag returns v, or the variant's type typ when v is empty.
func typeTag[T ~string, U ~string](v T, typ U) T {
	if v == "" {
		return T(typ)
	}
	return v
}

// structOf returns the generated struct a cell, an output or a generic
// value holds (nil for none, an unknown variant, or a nil pointer).
func structOf(v any) codecStruct {
	s, _ := generatedStruct(v)
	if _, isPtr := v.(codecStruct); !isPtr {
		return nil // a struct value held in an interface is not the value itself
	}
	return s
}

// zeroFloat64 reports whether f is +0 (reflect.Value.IsZero).
func zeroFloat64(f float64) bool { return math.Float64bits(f) == 0 }

// zeroMultilineString and zeroMimeBundle report whether a value is its
// zero value (as reflect.Value.IsZero).
func zeroMultilineString(m MultilineString) bool {
	return m.raw == nil && m.text == "" && m.lines == nil && m.form == formAuto
}

func zeroMimeBundle(b MimeBundle) bool { return b.b == nil }
