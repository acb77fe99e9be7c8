// The shape Write's tape is parsed with: the interiors its rules read.
package nbcanon

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbv3"
)

// Shape returns the shape to parse the JSON of a notebook of nbformat
// major with for Write and WriteTo: the containers Python nbformat's
// rules read (the notebook, its metadata, cells and their metadata,
// attachments, outputs and their mime bundles) are recorded, the lines of
// text are flat arrays, and every other value is lazy, written from its
// bytes by json.dumps's rules alone. A rule that meets a lazy value all
// the same (in a notebook off the schema) panics with the tape's
// *jsontree.LazyError, as Write says.
func Shape(major int) *jsontree.Shape {
	if major == 3 {
		return shapeV3
	}
	return shapeV4
}

var (
	linesShape  = &jsontree.Shape{Flat: true}
	openShape   = &jsontree.Shape{} // an object whose members are read, their values not
	bundleShape = &jsontree.Shape{Other: func(key string) *jsontree.Shape {
		if mimetype.IsJSON(key) {
			return nil
		}
		return linesShape
	}}
	shapeV4 = &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"metadata": openShape,
		"cells": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{
			"source":      linesShape,
			"metadata":    openShape,
			"attachments": {Other: func(string) *jsontree.Shape { return bundleShape }},
			"outputs": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{
				"data": bundleShape,
				"text": linesShape,
			}}},
		}}},
	}}
	shapeV3 = &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"worksheets": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{
			"cells": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{
				"input":    linesShape,
				"source":   linesShape,
				"rendered": linesShape,
				"metadata": openShape,
				"outputs":  {Elem: &jsontree.Shape{Members: outputV3Members()}},
			}}},
		}}},
	}}
)

// outputV3Members gives each of a version 3 output's texts its lines.
func outputV3Members() map[string]*jsontree.Shape {
	m := map[string]*jsontree.Shape{}
	for _, k := range nbv3.Texts {
		m[k] = linesShape
	}
	return m
}
