package nbformat

// The shapes notebooks are read with (built by internal/nbshape from the
// codec's type descriptions and the embedded schemas).

import (
	"sync"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbshape"
)

var (
	shapeOnce sync.Once
	nbShape   *jsontree.Shape
)

// notebookShape returns the shape notebooks are read with: the interiors
// the typed layer and the validator read are recorded, the rest is lazy
// (see package nbshape); and a version 2 or 3 notebook's worksheets
// whole, which the upgrade reads (see upgradeV3) from that parse.
func notebookShape() *jsontree.Shape {
	shapeOnce.Do(func() {
		s := nbshape.Notebook(&descDocument)
		if s.Members == nil {
			s.Members = map[string]*jsontree.Shape{}
		}
		s.Members["worksheets"] = jsontree.All // (before any parse uses s)
		nbShape = s
	})
	return nbShape
}

// Kind, Elem, Fields and Variants describe td to package nbshape.

func (td *typeDesc) Kind() nbshape.Kind {
	return [...]nbshape.Kind{
		kindScalar: nbshape.Scalar, kindAny: nbshape.Any, kindMultiline: nbshape.Multiline,
		kindBundle: nbshape.Bundle, kindCell: nbshape.Variants, kindOutput: nbshape.Variants,
		kindStruct: nbshape.Struct, kindPtr: nbshape.Ptr, kindSlice: nbshape.Slice, kindMap: nbshape.Map,
	}[td.kind]
}

func (td *typeDesc) Elem() nbshape.Type {
	if td.kind == kindBundle {
		return &descMultilineString
	}
	return td.elem
}

func (td *typeDesc) Fields() []nbshape.Field {
	fs := make([]nbshape.Field, len(td.codec.fields))
	for i, f := range td.codec.fields {
		fs[i] = nbshape.Field{Name: f.name, Type: f.typ}
	}
	return fs
}

func (td *typeDesc) Variants() []nbshape.Type {
	if td.kind == kindCell {
		return []nbshape.Type{&descCodeCell, &descMarkdownCell, &descRawCell}
	}
	return []nbshape.Type{&descExecuteResult, &descDisplayData, &descStream, &descErrorOutput}
}
