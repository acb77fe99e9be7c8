package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

// findConflictsV3 returns the unresolved conflicts of a version 3
// notebook read from data, as findConflicts finds them in its version 4
// form (where merge and fix put them), each pointer made that of the
// version 3 file: "/cells/i" is the worksheet cell it was upgraded from,
// a code cell's "/source" its "/input" and "/execution_count" its
// "/prompt_number"; cells are named by their place (the file has no
// ids). A notebook whose version 4 form cannot be made has none.
func findConflictsV3(data []byte) []conflictMark {
	nb, err := unmarshalOwned(data)
	if err != nil || nb.Nbformat != 3 || nbformat.Upgrade(nb) != nil {
		return nil
	}
	for _, c := range nb.Cells {
		nbformat.SetCellID(c, "") // (the file has none: messages name the cell by its place)
	}
	marks := findConflicts(nb)
	if len(marks) == 0 {
		return nil
	}
	cells := v3Cells(data)
	for k := range marks {
		marks[k].pointer = v3Pointer(marks[k].pointer, cells)
	}
	return marks
}

// v3Cell is where a version 3 file's cell is, and its type.
type v3Cell struct {
	at   string // "/worksheets/w/cells/j"
	kind string
}

// v3Cells lists a version 3 file's cells in worksheet order, as the
// upgrade flattens them.
func v3Cells(data []byte) []v3Cell {
	t, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: maxDepth, MaxString: maxString})
	if err != nil {
		return nil
	}
	ws := t.Lookup(jsontree.Root, "worksheets")
	if ws < 0 || t.Nodes[ws].Kind != jsontree.Array {
		return nil
	}
	var out []v3Cell
	for w, wn := range t.ChildList(ws) {
		cs := -1
		if t.Nodes[wn].Kind == jsontree.Object {
			cs = t.Lookup(wn, "cells")
		}
		if cs < 0 || t.Nodes[cs].Kind != jsontree.Array {
			continue
		}
		for j, cn := range t.ChildList(cs) {
			kind := ""
			if t.Nodes[cn].Kind == jsontree.Object {
				if k := t.Lookup(cn, "cell_type"); k >= 0 {
					kind = strings.Trim(string(t.Raw(k)), `"`)
				}
			}
			out = append(out, v3Cell{fmt.Sprintf("/worksheets/%d/cells/%d", w, j), kind})
		}
	}
	return out
}

// v3Pointer is p, a pointer into a version 3 notebook's version 4 form,
// made a pointer into the version 3 file (p itself outside the cells, or
// when the cell is not found).
func v3Pointer(p nbformat.Pointer, cells []v3Cell) nbformat.Pointer {
	rest, ok := strings.CutPrefix(string(p), "/cells/")
	if !ok {
		return p
	}
	num, rest, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= len(cells) {
		return p
	}
	c := cells[i]
	if rest == "" {
		return nbformat.Pointer(c.at)
	}
	if c.kind == "code" {
		switch name, tail, _ := strings.Cut(rest, "/"); name {
		case "source":
			rest = strings.TrimSuffix("input/"+tail, "/")
		case "execution_count":
			rest = "prompt_number"
		}
	}
	return nbformat.Pointer(c.at + "/" + rest)
}
