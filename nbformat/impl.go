package nbformat

// The entry points only the module's own packages use, set into
// internal/nbimpl.

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbimpl"
)

// The entry points only the module's own packages use (see
// internal/nbimpl), set here so that they are never part of this
// package's API.
func init() {
	nbimpl.ReadIDProblems = func(nb any) ([]int, int, int, bool) {
		n, ok := nb.(*Notebook)
		if !ok || n.src == nil {
			return nil, 0, 0, false
		}
		t := n.src.tape
		cells, ok := idProblemCells(n.problems(t))
		if !ok {
			return nil, 0, 0, false
		}
		size := 0
		if len(cells) > 0 {
			nodes := t.ChildList(t.Lookup(jsontree.Root, "cells"))
			for _, i := range cells {
				if i >= len(nodes) {
					return nil, 0, 0, false
				}
				size += int(t.Nodes[nodes[i]].End - t.Nodes[nodes[i]].Start)
			}
		}
		return cells, size, len(t.Data), true
	}
}
