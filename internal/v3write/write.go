package v3write

// Write: a version 3 notebook with the given cells and metadata in place of its
// own, laid out in its style.

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Side says which version 3 file a cell to write comes from.
type Side uint8

const (
	// New: no version 3 cell; the cell is converted from its version 4
	// form alone.
	New Side = iota
	// Ours: a cell of the file written over.
	Ours
	// Theirs: a cell of Notebook.Theirs.
	Theirs
)

// A Cell is one cell of the notebook to write.
type Cell struct {
	// Cell is the cell, in version 4 form (its id, if any, is ignored).
	Cell nbformat.Cell
	// From and Index name the version 3 cell it comes from: the cell at
	// Index in From's file, counting the cells of every worksheet in order
	// (as the upgrade flattens them), so that the Index of a cell is the
	// index of its upgrade.
	From  Side
	Index int
}

// Notebook is what Write writes over ours.
type Notebook struct {
	// Cells are the cells, in order.
	Cells []Cell
	// Meta is the notebook metadata in version 4 form (as the upgrade
	// leaves it: without name and signature, which Write takes from ours
	// unless Meta gives them (nil: removed);
	// orig_nbformat and orig_nbformat_minor, transient, are left out).
	// Nil keeps ours' metadata as it is.
	Meta map[string]any
	// Theirs is the version 3 file cells From Theirs are in (nil if
	// none is).
	Theirs []byte
	// Sheets, if not nil, gives by cell the worksheet of ours it is
	// written in (the cells of a worksheet in their order in Cells).
	// Nil: each of ours' cells in its own, the others in the worksheet
	// of the cell of ours before them.
	Sheets []int
}

// writer holds what writing a notebook over ours needs.
type writer struct {
	st     *v3Style
	ours   *v3File
	theirs *v3File
}

// slot is where a cell to write is in the notebook nbformat writes
// before the cells are put in order: a worksheet and a place in its
// cells.
type slot struct{ sheet, pos int }

// Write returns ours, a version 3 notebook, with the cells and metadata
// of nb in place of its own (see the package documentation). It does not
// keep or change ours, nb or nb.Theirs; nothing may change them while it
// runs.
func Write(ours []byte, nb *Notebook) ([]byte, error) {
	of, err := readFile("ours", ours)
	if err != nil {
		return nil, err
	}
	w := &writer{st: detectStyle(of), ours: of}
	if unchanged(of, nb) {
		return slices.Clone(ours), nil
	}
	nSheets := max(len(of.sheets), 1)
	inPlace := map[int]any{}             // ours' cell → what is written over it
	appended := make([][]any, nSheets)   // per worksheet: cells new to it
	slots := make([]slot, len(nb.Cells)) // where each is in what nbformat writes
	dst := make([]int, len(nb.Cells))    // the worksheet each is written in
	taken := map[int]bool{}              // ours' cells written at their place
	if nb.Sheets != nil && len(nb.Sheets) != len(nb.Cells) {
		return nil, &Error{Input: "cells", Err: fmt.Errorf("%d worksheets for %d cells", len(nb.Sheets), len(nb.Cells))}
	}
	cur := 0
	for k, c := range nb.Cells {
		p := jsonpointer.AppendIndex("/cells", k)
		if nb.Sheets != nil {
			if s := nb.Sheets[k]; s < 0 || s >= nSheets || s >= len(of.counts) {
				return nil, &Error{Input: "cells", Pointer: p, Err: fmt.Errorf("no worksheet %d in ours (it has %d)", s, len(of.counts))}
			}
		}
		forms, err := cellForms(c.Cell)
		if err != nil {
			return nil, &Error{Input: "cells", Pointer: p, Err: err}
		}
		f, err := w.file(c, nb)
		if err != nil {
			return nil, err
		}
		var o *origin
		if f != nil {
			if c.Index < 0 || c.Index >= len(f.cells) {
				return nil, &Error{Input: "cells", Pointer: p, Err: fmt.Errorf("%s has no cell %d (it has %d)", f.name, c.Index, len(f.cells))}
			}
			if o, err = f.origin(c.Index); err != nil {
				return nil, err
			}
		}
		if f == of && !taken[c.Index] {
			// Ours' cell, written at its place: as it is, or over it.
			taken[c.Index] = true
			r := of.cells[c.Index]
			cur = max(cur, r.sheet)
			if nb.Sheets != nil {
				cur = nb.Sheets[k]
			}
			slots[k], dst[k] = slot{r.sheet, r.pos}, cur
			if !equalCell(forms.g, o.cell.g) {
				d, err := w.cell(forms, o, p)
				if err != nil {
					return nil, err
				}
				if inPlace[c.Index], err = d.generic(); err != nil {
					return nil, &Error{Input: "cells", Pointer: p, Err: err}
				}
			}
			continue
		}
		var v json.RawMessage
		if o != nil && equalCell(forms.g, o.cell.g) {
			v = json.RawMessage(f.raw(c.Index)) // (in ours' style: see render)
		} else {
			d, err := w.cell(forms, o, p)
			if err != nil {
				return nil, err
			}
			if v, err = d.compact(); err != nil {
				return nil, &Error{Input: "cells", Pointer: p, Err: err}
			}
		}
		if nb.Sheets != nil {
			cur = nb.Sheets[k]
		}
		count := 0
		if cur < len(of.counts) {
			count = of.counts[cur]
		}
		slots[k], dst[k] = slot{cur, count + len(appended[cur])}, cur
		appended[cur] = append(appended[cur], v)
	}
	if err := w.render(nb, inPlace, appended, dst); err != nil {
		return nil, err
	}
	out, err := nbformat.Marshal(of.nb)
	if err != nil {
		return nil, &Error{Input: "ours", Err: err}
	}
	if out, err = order(out, slots, dst); err != nil {
		return nil, err
	}
	if w.st.ascii {
		out = asciiOnly(out)
	}
	if _, err := jsontree.ParseShaped(out, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, nil); err != nil {
		return nil, &Error{Input: "ours", Err: fmt.Errorf("wrote invalid JSON (a bug): %w", err)}
	}
	return out, nil
}

// unchanged reports whether nb is ours as it is: ours' cells in order,
// each equal to its upgrade, and no metadata given.
func unchanged(of *v3File, nb *Notebook) bool {
	if nb.Meta != nil || len(nb.Cells) != len(of.cells) {
		return false
	}
	for i, c := range nb.Cells {
		if c.From != Ours || c.Index != i || nb.Sheets != nil && nb.Sheets[i] != of.cells[i].sheet {
			return false
		}
		forms, err := cellForms(c.Cell)
		if err != nil {
			return false
		}
		up, err := of.upgraded(i)
		if err != nil || !equalCell(forms.g, up.g) {
			return false
		}
	}
	return true
}

// file returns the file cell c comes from (nil for New), reading theirs
// when first asked.
func (w *writer) file(c Cell, nb *Notebook) (*v3File, error) {
	switch c.From {
	case New:
		return nil, nil
	case Ours:
		return w.ours, nil
	case Theirs:
		if w.theirs == nil {
			if nb.Theirs == nil {
				return nil, &Error{Input: "cells", Err: fmt.Errorf("a cell comes from theirs, and there is no theirs")}
			}
			f, err := readFile("theirs", nb.Theirs)
			if err != nil {
				return nil, err
			}
			w.theirs = f
		}
		return w.theirs, nil
	}
	return nil, &Error{Input: "cells", Err: fmt.Errorf("unknown Side %d", c.From)}
}

// origin returns cell i of f as the origin of a cell written.
func (f *v3File) origin(i int) (*origin, error) {
	c, err := f.upgraded(i)
	if err != nil {
		return nil, err
	}
	o := &origin{f: f, i: i, cell: c}
	o.nodes, o.keys = members(f.t, f.cells[i].node)
	if j, ok := o.nodes["cell_type"]; ok && f.t.Nodes[j].Kind == jsontree.String {
		o.typ = f.t.Str(j)
	}
	return o, nil
}

// render sets ours' notebook to what nbformat writes before the cells are
// put in order: each worksheet with its cells (ours' cells, as they are or
// written over, including those not written, then the cells new to it),
// and the metadata.
func (w *writer) render(nb *Notebook, inPlace map[int]any, appended [][]any, dst []int) error {
	of := w.ours
	t := of.t
	var sheets []any
	next := 0 // ours' next cell
	for s, sn := range of.sheets {
		nodes, keys := members(t, sn)
		m := make(map[string]any, len(keys)+1)
		for _, k := range keys {
			m[k] = json.RawMessage(t.Raw(nodes[k]))
		}
		if of.lists[s] >= 0 || len(appended[s]) > 0 || slices.Contains(dst, s) {
			cells := make([]any, 0, of.counts[s]+len(appended[s]))
			for range of.counts[s] {
				if v, ok := inPlace[next]; ok {
					cells = append(cells, v)
				} else {
					cells = append(cells, json.RawMessage(of.raw(next)))
				}
				next++
			}
			m["cells"] = append(cells, appended[s]...)
		}
		sheets = append(sheets, m)
	}
	if len(of.sheets) == 0 && len(appended[0]) > 0 {
		sheets = []any{map[string]any{"cells": appended[0], "metadata": map[string]any{}}}
	}
	if sheets != nil {
		if of.nb.AdditionalProperties == nil {
			of.nb.AdditionalProperties = map[string]any{}
		}
		of.nb.AdditionalProperties["worksheets"] = sheets
	}
	if nb.Meta != nil {
		meta := maps.Clone(nb.Meta)
		delete(meta, "orig_nbformat")
		delete(meta, "orig_nbformat_minor")
		for _, k := range []string{"name", "signature"} {
			if v, ok := of.nb.Metadata.AdditionalProperties[k]; ok {
				if _, given := meta[k]; !given {
					meta[k] = v
				}
			}
			if v, given := meta[k]; given && v == nil {
				delete(meta, k) // (given as nil: removed)
			}
		}
		untyped := lackingRequired(meta)
		for k := range untyped {
			delete(meta, k)
		}
		var md nbformat.NotebookMetadata
		if err := nbmap.FromMap(meta, &md); err != nil {
			return &Error{Input: "cells", Pointer: "/metadata", Err: err}
		}
		if len(untyped) > 0 {
			if md.AdditionalProperties == nil {
				md.AdditionalProperties = make(map[string]any, len(untyped))
			}
			maps.Copy(md.AdditionalProperties, untyped)
		}
		of.nb.Metadata = md
	}
	return nil
}

// requiredMembers are the members version 4 requires of the notebook
// metadata's objects that version 3 leaves free.
var requiredMembers = map[string][]string{
	"kernelspec":    {"display_name", "name"},
	"language_info": {"name"},
}

// lackingRequired returns the members of meta whose object lacks a member
// version 4 requires of it (see requiredMembers): written untyped, as they
// are given (version 3 requires none of them), and not with the member
// added as empty.
func lackingRequired(meta map[string]any) map[string]any {
	var out map[string]any
	for k, req := range requiredMembers {
		obj, ok := jsonvalue.Object(meta[k])
		if !ok {
			continue
		}
		for _, r := range req {
			if _, has := obj[r]; !has {
				if out == nil {
					out = map[string]any{}
				}
				out[k] = obj
				break
			}
		}
	}
	return out
}
