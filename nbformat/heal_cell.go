package nbformat

// Heal's repairs of one cell: its id, metadata, source and execution count.

import (
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbrebuild"
)

// cellNodeOf returns the tape node of cell i in this pass's tape.
func (h *healer) cellNodeOf(i int) int {
	if h.cellNode == nil {
		h.cellNode = h.t.ChildList(h.t.Lookup(jsontree.Root, "cells"))
	}
	return h.cellNode[i]
}

// cell repairs every problem of cell i (probs, all under /cells/i) at once.
func (h *healer) cell(i int, probs []healProblem) {
	if u, ok := h.nb.Cells[i].(*UnknownCell); ok {
		h.unknownCell(i, u)
		return
	}
	if h.whole {
		h.wholeCell(i, probs[0].err)
		return
	}
	c := cloneCell(h.nb.Cells[i])
	h.nb.Cells[i] = c
	r := &cellRepair{h: h, i: i, at: Pointer("/cells").appendIndex(i), c: c, v: structOf(c)}
	for k := 0; k < len(probs); {
		if rest := probs[k].toks[2:]; len(rest) >= 2 && rest[0] == "outputs" {
			k += r.fixOutput(probs[k:])
			continue
		}
		r.fix(probs[k])
		k++
	}
}

// cellRepair repairs the problems of one cell (a copy of the cell read,
// cell i of the notebook), one problem at a time.
type cellRepair struct {
	h  *healer
	i  int
	at Pointer // /cells/i
	c  Cell
	v  codecStruct // c
	// Repairs done once per cell.
	done struct{ attachments, tags, id, outputs, source bool }
}

// fixOutput repairs the problems of the output the first of probs is in
// (they come first in probs, in a row) and returns how many they are.
func (r *cellRepair) fixOutput(probs []healProblem) int {
	j := probs[0].toks[3]
	n := 1
	for n < len(probs) && len(probs[n].toks) >= 4 && probs[n].toks[2] == "outputs" && probs[n].toks[3] == j {
		n++
	}
	code, ok := r.c.(*CodeCell)
	if !ok {
		if r.h.dropKey(r.v, "outputs") {
			r.h.note(r.at.appendToken("outputs"), "removed outputs from a %s cell", r.c.Type())
		}
		return n
	}
	if !r.done.outputs {
		code.Outputs = append([]Output(nil), code.Outputs...)
		r.done.outputs = true
	}
	r.h.output(r.i, code, r.at.appendToken("outputs"), j, probs[:n])
	return n
}

// fix repairs problem p, which is not inside one output.
func (r *cellRepair) fix(p healProblem) {
	h := r.h
	rest := p.toks[2:]
	switch {
	case len(rest) == 0 && p.err.Keyword == "required" && p.err.Member == "id":
		r.wantID(p)
	case len(rest) == 0:
		if p.err.Keyword == "required" {
			h.note(r.at.appendToken(p.err.Member), "added the missing member with its empty value")
		}
	case rest[0] == "id":
		r.wantID(p)
	case rest[0] == "metadata":
		r.fixMetadata(rest[1:], p)
	case rest[0] == "source":
		r.fixSource()
	case rest[0] == "outputs":
		h.outputsValue(r.i, r.c, r.v, p.err)
	case rest[0] == "attachments":
		if !r.done.attachments {
			r.done.attachments = true
			h.attachments(r.i, r.c, r.v)
		}
	case rest[0] == "execution_count" && r.c.Type() == "code":
		r.fixCount(p)
	default:
		if h.dropKey(r.v, rest[0]) {
			h.note(r.at.appendToken(rest[0]), "removed (%s)", p.err.Msg)
		}
	}
}

// wantID removes or schedules a fresh id for the cell (once).
func (r *cellRepair) wantID(p healProblem) {
	if !r.done.id {
		r.done.id = true
		r.h.wantID(r.i, r.v, p.err)
	}
}

// fixMetadata repairs the cell's metadata (rest: the tokens after
// "metadata"): invalid metadata becomes {}, the tag list keeps its valid
// tags, any other invalid member is removed.
func (r *cellRepair) fixMetadata(rest []string, p healProblem) {
	h := r.h
	at := r.at.appendToken("metadata")
	switch {
	case len(rest) == 0:
		if h.dropKey(r.v, "metadata") {
			h.note(at, "replaced invalid metadata with {} (%s)", p.err.Msg)
		}
	case rest[0] == "tags":
		if !r.done.tags {
			r.done.tags = true
			h.tags(r.i, r.c)
		}
	default:
		md := cellMetadata(r.c)
		if gone := h.dropPath(at, md, rest); gone != "" {
			h.note(gone, "removed invalid cell metadata (%s)", p.err.Msg)
		}
	}
}

// fixSource replaces a source that is not text by its text (once).
func (r *cellRepair) fixSource() {
	if r.done.source {
		return
	}
	r.done.source = true
	h := r.h
	n := h.memberNode(h.cellNodeOf(r.i), "source")
	h.dropKey(r.v, "source")
	setSource(r.c, Text(nbrebuild.Text(h.t, n)))
	h.note(r.at.appendToken("source"), "replaced a source that was not text by its text")
}

// fixCount replaces a code cell's invalid execution count by the integer
// it spells, or null.
func (r *cellRepair) fixCount(p healProblem) {
	h := r.h
	code := r.c.(*CodeCell)
	n := h.memberNode(h.cellNodeOf(r.i), "execution_count")
	h.dropKey(r.v, "execution_count")
	code.ExecutionCount = nbrebuild.Count(h.t, n)
	h.note(r.at.appendToken("execution_count"), "replaced an invalid execution count by %s (%s)", nbrebuild.CountText(code.ExecutionCount), p.err.Msg)
}

// memberNode returns member key of object node o of this pass's tape, or -1.
func (h *healer) memberNode(o int, key string) int {
	if o < 0 || h.t.Nodes[o].Kind != jsontree.Object {
		return -1
	}
	return h.t.Lookup(o, key)
}

// wantID removes the id of a cell of a notebook before 4.5, or schedules a
// fresh one.
func (h *healer) wantID(i int, v codecStruct, p *ValidationError) {
	at := Pointer("/cells").appendIndex(i).appendToken("id")
	if h.nb.NbformatMinor < 5 {
		if h.dropKey(v, "id") {
			h.note(at, "removed an id, which nbformat 4.%d does not have", h.nb.NbformatMinor)
		}
		return
	}
	// Noted now (repairs stay in document order), completed by giveIDs.
	h.needID = append(h.needID, i)
	h.idNote = append(h.idNote, len(h.repairs))
	h.note(at, "%s", p.Msg)
}

// giveIDs gives the cells scheduled this pass fresh ids, unique among all
// ids the notebook has or had (the set is built once per Heal).
func (h *healer) giveIDs() {
	if len(h.needID) == 0 {
		return
	}
	if h.used == nil {
		h.used = make(map[CellID]bool, len(h.nb.Cells))
		for _, c := range h.nb.Cells {
			h.used[CellIDOf(c)] = true
		}
	}
	for k, i := range h.needID {
		c := h.nb.Cells[i]
		old := CellIDOf(c)
		fresh := freshID(h.newID, h.used, i, c)
		v := structOf(c)
		h.dropKey(v, "id")
		SetCellID(c, fresh)
		r := &h.repairs[h.idNote[k]]
		r.What = fmt.Sprintf("gave id %s (was %q: %s)", fresh, old, r.What)
	}
}

// freshID returns a valid id not in used for cell c at position i, and
// adds it: from newID if set, else derived from the cell's position, type
// and source.
func freshID(newID func() CellID, used map[CellID]bool, i int, c Cell) CellID {
	var fresh CellID
	if newID == nil {
		fresh = CellID(cellid.Derive(i, string(c.Type()), SourceOf(c).String(), func(id string) bool { return used[CellID(id)] }))
	} else {
		fresh = newID()
		for used[fresh] || !fresh.valid() {
			fresh = newID()
		}
	}
	used[fresh] = true
	return fresh
}

// setSource sets the source of a code, markdown or raw cell.
func setSource(c Cell, s MultilineString) {
	switch c := c.(type) {
	case *CodeCell:
		c.Source = s
	case *MarkdownCell:
		c.Source = s
	case *RawCell:
		c.Source = s
	}
}

// outputsValue repairs outputs that are not a list: a non-code cell loses
// them (it cannot have any); a single output object becomes a list of one;
// anything else is replaced by no outputs.
func (h *healer) outputsValue(i int, c Cell, v codecStruct, p *ValidationError) {
	at := Pointer("/cells").appendIndex(i).appendToken("outputs")
	if _, ok := c.(*CodeCell); !ok {
		if h.dropKey(v, "outputs") {
			h.note(at, "removed outputs from a %s cell", c.Type())
		}
		return
	}
	n := h.memberNode(h.cellNodeOf(i), "outputs")
	if n >= 0 && h.t.Nodes[n].Kind == jsontree.Object {
		h.dropKey(v, "outputs")
		h.newOutputs = append(h.newOutputs, pendingOutput{cell: i, index: -1, json: nbrebuild.Compact(nil, h.t, n)})
		h.note(at, "made the single output given as an object a list of one output")
		return
	}
	if h.dropKey(v, "outputs") {
		h.note(at, "replaced invalid outputs with [] (%s)", p.Msg)
	}
}

// tags repairs a cell's tag list: tags are strings, unique, non-empty and
// without commas; a tag with commas is split at them (as Jupyter would
// have stored its parts), duplicates and empty parts are removed.
func (h *healer) tags(i int, c Cell) {
	at := Pointer("/cells").appendIndex(i).appendToken("metadata").appendToken("tags")
	t := h.t
	md := cellMetadata(c)
	n := h.memberNode(h.memberNode(h.cellNodeOf(i), "metadata"), "tags")
	var tags []string
	if n >= 0 && t.Nodes[n].Kind == jsontree.Array {
		seen := map[string]bool{}
		t.Children(n, func(k int) bool {
			for _, tag := range strings.Split(nbrebuild.Text(t, k), ",") {
				if tag != "" && !seen[tag] {
					seen[tag] = true
					tags = append(tags, tag)
				}
			}
			return true
		})
	}
	h.dropKey(md, "tags")
	if len(tags) == 0 {
		h.note(at, "removed tags that held no valid tag")
		return
	}
	switch md := cellMetadata(c).(type) {
	case *CodeCellMetadata:
		md.Tags = tags
	case *MarkdownCellMetadata:
		md.Tags = tags
	case *RawCellMetadata:
		md.Tags = tags
	}
	h.note(at, "kept the valid tags (unique, non-empty, split at commas)")
}

// dropPath removes the member at toks below the struct v: inside typed
// nested objects (kernelspec, jupyter, execution, …) only the offending
// member goes; elsewhere the member toks[0] of v. It returns the place
// removed, below base ("" if nothing was there).
func (h *healer) dropPath(base Pointer, v codecStruct, toks []string) Pointer {
	if len(toks) >= 2 {
		if f := structField(v, toks[0]); f != nil {
			return h.dropPath(base.appendToken(toks[0]), f, toks[1:])
		}
	}
	if h.dropKey(v, toks[0]) {
		return base.appendToken(toks[0])
	}
	return ""
}

// structField returns the struct held by member key of v, copying it
// first if it is behind a pointer (so the original is not changed); nil
// when it holds none.
func structField(v codecStruct, key string) codecStruct {
	fi := v.fieldNamed(key)
	if fi < 0 {
		return nil
	}
	return v.fieldStruct(fi, true)
}

// wholeCell replaces a cell that still has problems by a raw cell holding
// its JSON as source (keeping its id when valid).
func (h *healer) wholeCell(i int, p *ValidationError) {
	c := h.nb.Cells[i]
	raw := nbrebuild.Compact(nil, h.t, h.cellNodeOf(i))
	id := CellIDOf(c)
	if !id.valid() {
		id = ""
	}
	h.nb.Cells[i] = &RawCell{CellType: CellTypeRaw, ID: id, Source: Text(string(raw))}
	h.note(Pointer("/cells").appendIndex(i), "replaced a %s cell that could not be repaired (%s) by a raw cell holding its JSON", c.Type(), p.Msg)
}
