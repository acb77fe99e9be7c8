package convert

import (
	"encoding/json"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Reading version 2 and 3 notebooks straight into messages: the cells of
// the worksheets, read from their bytes with the version 3 field names
// (input, prompt_number, level, collapsed, …), give the messages, ids,
// metadata and snapshots that reading the notebook's upgrade to 4.5
// gives, without making that upgrade (a second parse of the cells, a
// temporary version 4 document and its typed cells): the worksheets are
// read from the tape nbformat read the notebook from (parsed again only
// where it left lazy a container the reader needs). The upgrade is made
// when something needs it (see origin.upgraded): writing a changed
// dialog, a merge, looking inside an output. What this reader does not
// follow exactly (cell types other than code, markdown, raw, heading and
// html, attachments, typed metadata keys holding values of another type
// or arrays and objects, numbers other than ints in metadata, outputs
// that are not objects of the version 3 types, …) it declines, and the
// notebook is read through its upgrade as before.
// TestV3DirectReadAsUpgrade checks that both ways agree.

// v3Cell is what the direct reader takes from one version 2 or 3 cell
// (nodes of the worksheets' tape; -1: absent).
type v3Cell struct {
	kind      dialog.Kind
	heading   bool
	level     int // heading: its level, as the upgrade takes it
	src       int // the text: the source (input for code), a string or a list of strings
	md        int // the metadata object
	collapsed int // code: the cell's own collapsed (a boolean)
	count     int // code: the prompt number (an int or null)
	outs      int // code: the outputs array
	plan      *metaPlan
}

// v3Reader reads the cells of a version 2 or 3 notebook's worksheets.
type v3Reader struct {
	t  *jsontree.Tape
	v2 bool // version 2: lines are joined with "\n"
	// lazy: a container whose members or elements the reader reads was
	// found lazy on t (see kids): t is then not enough.
	lazy bool
}

// kids calls f with each child of container i, as t.Children, but for a
// lazy one (one nbformat's parse did not record): it calls f with none
// and, if it has some, notes that t is not enough (r.lazy).
func (r *v3Reader) kids(i int, f func(j int) bool) {
	t := r.t
	if t.Lazy(i) {
		r.lazy = r.lazy || t.Nodes[i].Len > 0
		return
	}
	t.Children(i, f)
}

// lookup is t.Lookup through kids: the last member of object i with key
// k, or -1.
func (r *v3Reader) lookup(i int, k string) int {
	found := -1
	r.kids(i, func(j int) bool {
		if r.t.KeyIs(j, k) {
			found = j
		}
		return true
	})
	return found
}

// strings calls f with each element of array j (stopping when f returns
// false), recorded or not (a lazy array of scalars, as nbformat's parse
// leaves the lines of texts, is read from its bytes); false if j holds a
// container that was not recorded.
func (r *v3Reader) strings(j int, f func(n jsontree.Node) bool) bool {
	t := r.t
	if t.Lazy(j) {
		return t.Scalars(j, f)
	}
	t.Children(j, func(s int) bool { return f(t.Nodes[s]) })
	return true
}

// readV3Dialog is readDialog for a version 2 or 3 notebook read
// directly: its upgrade, made when needed, and its outputs' handles, all
// in one allocation with the dialog.
type readV3Dialog struct {
	readDialog
	lazy v3Work
	outs []v3Output
}

// readV3 reads the dialog of nb, a version 2 or 3 notebook parsed here
// (from the bytes nbformat keeps), straight from its worksheets; ok is
// false when it declines (see above): the caller then reads nb's
// upgrade.
func (o options) readV3(nb *nbformat.Notebook) (f *File, ok bool) {
	r := v3Reader{v2: nb.Nbformat == 2}
	cells, ok := r.cells(nb, o.reparseV3)
	if !ok {
		return nil, false
	}
	rd := &readV3Dialog{}
	d, org := &rd.d, &rd.org
	meta, err := v3NotebookMeta(nb)
	if err != nil {
		return nil, false // (the upgrade's reading reports it)
	}
	d.Meta = meta
	*org = origin{nb: nb, meta: cloneObject(meta), reg: o.Registry, pristine: true, lazy: &rd.lazy}
	_, org.valid = nbimpl.ReadBytes(nb)
	n := len(cells)
	rc := make([]readCell, n)
	org.cells = rc
	ptrs := make([]*dialog.Message, 2*n)
	d.Messages, org.msgs = ptrs[:0:n], ptrs[n:n:2*n]
	bufs := &rd.bufs
	r.size(cells, bufs, rd, org)
	ids := idsOf{n: n, msgs: rc}
	for i := range cells {
		c := &cells[i]
		m := &rc[i].msg
		if !r.message(m, c, bufs) {
			return nil, false
		}
		meta, ok := r.meta(c)
		if !ok {
			return nil, false
		}
		sameMeta := o.takeAttrs(m, meta, nil)
		m.ID = cellid.DeriveInto(&bufs.texts, i, string(m.Kind), m.Content, func(id string) bool { return ids.taken(i, id) })
		ids.derived(m.ID)
		ids.given(m.ID)
		d.Messages = append(d.Messages, m)
		org.msgs = append(org.msgs, m)
		rc[i].snap = snapshot{msg: copyMessage(m, metaSnap{same: sameMeta}, bufs), generated: true}
	}
	if r.lazy {
		return nil, false // (never: cells found every container recorded)
	}
	org.generated = n > 0
	rd.f.Dialog, rd.f.org = d, org
	return &rd.f, true
}

// v3NotebookMeta is the dialog's metadata of a version 2 or 3 notebook:
// its metadata as the upgrade leaves it (without name and signature).
func v3NotebookMeta(nb *nbformat.Notebook) (map[string]any, error) {
	md := &nb.Metadata
	extra := md.AdditionalProperties
	if _, ok := extra["name"]; ok {
		md = v3WithoutUpgradeKeys(md)
	} else if _, ok := extra["signature"]; ok {
		md = v3WithoutUpgradeKeys(md)
	}
	meta, _, err := metaMap(md)
	return meta, err
}

// v3WithoutUpgradeKeys returns a copy of md without the keys the upgrade
// removes.
func v3WithoutUpgradeKeys(md *nbformat.NotebookMetadata) *nbformat.NotebookMetadata {
	cp := *md
	cp.AdditionalProperties = make(map[string]any, len(md.AdditionalProperties))
	for k, v := range md.AdditionalProperties {
		if k != "name" && k != "signature" {
			cp.AdditionalProperties[k] = v
		}
	}
	return &cp
}

// v3Shape is the shape of the worksheets the reader parses (see
// jsontree.Shape): of each cell, its scalar members, its metadata's
// members (arrays and objects in it are read from their bytes), the
// elements of its source or input, and the scalar members of its outputs
// (their output_type); everything else is checked, not recorded (the
// outputs' data and texts above all, read from the upgrade when a caller
// looks inside).
var v3Shape = func() *jsontree.Shape {
	scalars := &jsontree.Shape{} // an object's or array's scalars
	cell := &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"metadata": scalars,
		"source":   scalars,
		"input":    scalars,
		"outputs":  {Elem: scalars},
	}}
	worksheet := &jsontree.Shape{Members: map[string]*jsontree.Shape{"cells": {Elem: cell}}}
	return &jsontree.Shape{Elem: worksheet}
}()

// cells returns the cells of nb's worksheets, in order, read from
// nbformat's tape of nb or (reparse, or where that tape left lazy a
// container the reader needs) from a parse of the worksheets; ok is
// false where the reader declines.
func (r *v3Reader) cells(nb *nbformat.Notebook, reparse bool) (cells []v3Cell, ok bool) {
	ws, present := nb.AdditionalProperties["worksheets"]
	if !present {
		return nil, true // no cells
	}
	raw, isRaw := ws.(json.RawMessage)
	if !isRaw {
		return nil, false
	}
	// The tape nbformat read the notebook from, when it recorded what the
	// reader reads (it mostly does: the version 3 schema reads it); else
	// the worksheets parsed again.
	if t := nbimpl.ReadTape(nb); t != nil && !t.Lazy(jsontree.Root) && !reparse {
		r.t = t
		if w := r.lookup(jsontree.Root, "worksheets"); w >= 0 && string(t.Raw(w)) == string(raw) {
			cells, ok = r.worksheets(w)
			if !r.lazy {
				return cells, ok
			}
		}
	}
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, v3Shape)
	if err != nil {
		return nil, false
	}
	*r = v3Reader{t: t, v2: r.v2}
	return r.worksheets(jsontree.Root)
}

// worksheets returns the cells of the worksheets, node ws; ok is false
// where the reader declines.
func (r *v3Reader) worksheets(ws int) (cells []v3Cell, ok bool) {
	t := r.t
	if t.Nodes[ws].Kind != jsontree.Array {
		return nil, false
	}
	ok = true
	r.kids(ws, func(w int) bool {
		if t.Nodes[w].Kind != jsontree.Object {
			ok = false
			return false
		}
		cs := r.lookup(w, "cells")
		if cs < 0 || t.Nodes[cs].Kind != jsontree.Array {
			return true // a worksheet without cells has none
		}
		if cells == nil {
			cells = make([]v3Cell, 0, t.Nodes[cs].Len)
		}
		r.kids(cs, func(c int) bool {
			var cell v3Cell
			if ok = r.cell(c, &cell); ok {
				cells = append(cells, cell)
			}
			return ok
		})
		return ok
	})
	return cells, ok
}
