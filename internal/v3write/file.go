package v3write

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
)

// A version 3 file read for writing over it (ours) or for taking cells
// from it (theirs): its notebook, a tape of its worksheets and cells, and,
// when first needed, the upgrade of its cells.

// v3File is a version 3 notebook read from its bytes.
type v3File struct {
	name   string // "ours" or "theirs", for errors
	nb     *nbformat.Notebook
	t      *jsontree.Tape // the bytes nb was read from, shaped by fileShape
	sheets []int          // the worksheet objects (none without worksheets)
	lists  []int          // per worksheet: its cells array, or -1
	counts []int          // per worksheet: its number of cells
	cells  []cellRef      // the cells of every worksheet, in order
	upped  bool
	up     []nbformat.Cell // the upgrade's cells, one per cell
	upErr  error
	forms  []*v4Cell // of the upgrade's cells (when asked)
}

// cellRef locates a cell of a v3File.
type cellRef struct {
	node  int // the cell's node
	sheet int // its worksheet
	pos   int // its place in the worksheet's cells
}

// fileShape records, of a version 3 notebook, the worksheets, their
// members, their cells, the cells' members (their texts as flat lists),
// and the members of their outputs; everything else is lazy.
var fileShape = func() *jsontree.Shape {
	text := &jsontree.Shape{Flat: true}
	output := &jsontree.Shape{}
	cell := &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"input": text, "source": text, "outputs": {Elem: output},
	}}
	sheet := &jsontree.Shape{Members: map[string]*jsontree.Shape{"cells": {Elem: cell}}}
	return &jsontree.Shape{Members: map[string]*jsontree.Shape{"worksheets": {Elem: sheet}}}
}()

// readFile reads a version 3 notebook. The notebook keeps data, which the
// caller must not change while the file is in use.
func readFile(name string, data []byte) (*v3File, error) {
	nb, err := nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(data)
	if err != nil {
		return nil, &Error{Input: name, Err: err}
	}
	if nb.Nbformat != 3 {
		return nil, &Error{Input: name, Err: fmt.Errorf("nbformat %d, not 3: %w", nb.Nbformat, ErrNotVersion3)}
	}
	t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, fileShape)
	if err != nil {
		return nil, &Error{Input: name, Err: err} // (never: nbformat read it)
	}
	f := &v3File{name: name, nb: nb, t: t}
	if t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return nil, &Error{Input: name, Err: fmt.Errorf("not an object")}
	}
	ws := t.Lookup(jsontree.Root, "worksheets")
	if ws < 0 {
		return f, nil
	}
	if t.Nodes[ws].Kind != jsontree.Array {
		return nil, &Error{Input: name, Pointer: "/worksheets", Err: fmt.Errorf("not an array")}
	}
	for i, w := range t.ChildList(ws) {
		p := jsonpointer.AppendIndex("/worksheets", i)
		if t.Nodes[w].Kind != jsontree.Object {
			return nil, &Error{Input: name, Pointer: p, Err: fmt.Errorf("not an object")}
		}
		f.sheets = append(f.sheets, w)
		cs := t.Lookup(w, "cells")
		if cs >= 0 && t.Nodes[cs].Kind != jsontree.Array {
			return nil, &Error{Input: name, Pointer: p + "/cells", Err: fmt.Errorf("not an array")}
		}
		f.lists = append(f.lists, cs)
		n := 0
		if cs >= 0 {
			for pos, c := range t.ChildList(cs) {
				if t.Nodes[c].Kind != jsontree.Object {
					return nil, &Error{Input: name, Pointer: jsonpointer.AppendIndex(p+"/cells", pos), Err: fmt.Errorf("not an object")}
				}
				f.cells = append(f.cells, cellRef{node: c, sheet: i, pos: pos})
				n++
			}
		}
		f.counts = append(f.counts, n)
	}
	return f, nil
}

// pointer is the JSON Pointer of cell i in the file.
func (f *v3File) pointer(i int) string {
	r := f.cells[i]
	return jsonpointer.AppendIndex(jsonpointer.AppendIndex("/worksheets", r.sheet)+"/cells", r.pos)
}

// raw returns the bytes of cell i.
func (f *v3File) raw(i int) []byte { return f.t.Raw(f.cells[i].node) }

// members returns the members of object node o: each key's last member
// node, and the keys in order of first appearance.
func members(t *jsontree.Tape, o int) (nodes map[string]int, keys []string) {
	nodes = map[string]int{}
	t.Children(o, func(j int) bool {
		k := t.KeyString(j)
		if _, seen := nodes[k]; !seen {
			keys = append(keys, k)
		}
		nodes[k] = j
		return true
	})
	return nodes, keys
}

// upgraded returns the upgrade of cell i (what the cells given to Write
// are compared with).
func (f *v3File) upgraded(i int) (*v4Cell, error) {
	if !f.upped {
		f.upped = true
		up := *f.nb // (upgraded as a copy: see nbformat.Upgrade)
		if err := nbformat.Upgrade(&up); err != nil {
			f.upErr = &Error{Input: f.name, Err: err}
		} else if len(up.Cells) != len(f.cells) {
			f.upErr = &Error{Input: f.name, Err: fmt.Errorf("the upgrade has %d cells, the worksheets %d", len(up.Cells), len(f.cells))}
		} else {
			f.up = up.Cells
			f.forms = make([]*v4Cell, len(f.cells))
		}
	}
	if f.upErr != nil {
		return nil, f.upErr
	}
	if f.forms[i] == nil {
		c, err := cellForms(f.up[i])
		if err != nil {
			return nil, &Error{Input: f.name, Pointer: f.pointer(i), Err: err}
		}
		f.forms[i] = c
	}
	return f.forms[i], nil
}
