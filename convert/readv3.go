package convert

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Reading version 2 and 3 notebooks straight into messages: the cells of
// the worksheets, read from their bytes with the version 3 field names
// (input, prompt_number, level, collapsed, …), give the messages, ids,
// metadata and snapshots that reading the notebook's upgrade to 4.5
// gives, without making that upgrade (a second parse of the cells, a
// temporary version 4 document and its typed cells). The upgrade is made
// when something needs it (see origin.upgraded): writing a changed
// dialog, a merge, looking inside an output. What this reader does not
// follow exactly (cell types other than code, markdown, raw, heading and
// html, metadata holding arrays or objects or values of a type the
// schema's typed members do not hold, outputs that are not objects of the
// version 3 types, …) it declines, and the notebook is read through its
// upgrade as before. TestV3DirectReadAsUpgrade checks both ways agree.

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
func (o Options) readV3(nb *nbformat.Notebook) (d *dialog.Dialog, ok bool) {
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
		rc[i].snap = snapshot{msg: copyMessage(m, sameMeta, bufs), generated: true}
	}
	if r.lazy {
		return nil, false // (never: cells found every container recorded)
	}
	org.generated = n > 0
	d.Source = org
	return d, true
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

// cell reads cell object c; false where the reader declines.
func (r *v3Reader) cell(c int, cell *v3Cell) bool {
	t := r.t
	if t.Nodes[c].Kind != jsontree.Object {
		return false
	}
	*cell = v3Cell{src: -1, md: -1, collapsed: -1, count: -1, outs: -1, level: 1}
	typ, source, input, level := -1, -1, -1, -1
	ok := true
	r.kids(c, func(k int) bool {
		nd := &t.Nodes[k]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			ok = false // (rare: not followed)
			return false
		}
		switch string(t.Data[nd.Key+1 : nd.KeyEnd-1]) {
		case "cell_type":
			typ = k
		case "source":
			source = k
		case "input":
			input = k
		case "metadata":
			cell.md = k
		case "collapsed":
			cell.collapsed = k
		case "prompt_number":
			cell.count = k
		case "outputs":
			cell.outs = k
		case "level":
			level = k
		case "attachments":
			ok = false // typed by the upgrade's cell: not followed
		}
		return ok
	})
	if !ok || typ < 0 || t.Nodes[typ].Kind != jsontree.String {
		return false
	}
	if cell.md >= 0 && t.Nodes[cell.md].Kind == jsontree.Object {
		r.kids(cell.md, func(int) bool { return false }) // (notes a lazy one: meta reads it)
	}
	switch {
	case t.StrIs(typ, "code"):
		cell.kind, cell.plan, cell.src = dialog.Code, codeMetaPlan, input
		if input >= 0 && !r.isText(input) {
			return false
		}
		return r.codeParts(cell)
	case t.StrIs(typ, "markdown"), t.StrIs(typ, "html"):
		cell.kind, cell.plan, cell.src = dialog.Note, markdownMetaPlan, source
	case t.StrIs(typ, "raw"):
		cell.kind, cell.plan, cell.src = dialog.Raw, rawMetaPlan, source
	case t.StrIs(typ, "heading"):
		cell.kind, cell.plan, cell.src, cell.heading = dialog.Note, markdownMetaPlan, source, true
		if level >= 0 && t.Nodes[level].Kind == jsontree.Number && t.Nodes[level].Flags&jsontree.FlagInt != 0 {
			// An int (a number the upgrade reads as one): else level 1.
			if n, err := strconv.ParseInt(string(t.Raw(level)), 10, 0); err == nil {
				if n > maxHeadingLevel {
					return false
				}
				cell.level = max(int(n), 0)
			}
		}
		// (A source of another type is read as "".)
		return source < 0 || r.small(source)
	default:
		return false
	}
	return source >= 0 && r.isText(source)
}

// small reports whether node j is no longer than nbformat reads a string
// (a text joined from it is then no longer either).
func (r *v3Reader) small(j int) bool {
	nd := &r.t.Nodes[j]
	return nd.End-nd.Start <= nbimpl.DefaultMaxString
}

// maxHeadingLevel is the largest heading level read directly (the
// upgrade's own limit for its fast path).
const maxHeadingLevel = 64

// codeParts checks a code cell's prompt number, collapsed and outputs.
func (r *v3Reader) codeParts(cell *v3Cell) bool {
	t := r.t
	if cell.count >= 0 {
		switch nd := &t.Nodes[cell.count]; {
		case nd.Kind == jsontree.Null:
			cell.count = -1
		case nd.Kind != jsontree.Number || nd.Flags&jsontree.FlagInt == 0:
			return false
		default:
			if _, err := strconv.ParseInt(string(t.Raw(cell.count)), 10, 0); err != nil {
				return false
			}
		}
	}
	if cell.collapsed >= 0 {
		if k := t.Nodes[cell.collapsed].Kind; k != jsontree.True && k != jsontree.False {
			return false
		}
	}
	if cell.outs < 0 {
		return true
	}
	if t.Nodes[cell.outs].Kind != jsontree.Array {
		return false
	}
	ok := true
	r.kids(cell.outs, func(o int) bool {
		ok = r.outputType(o) != ""
		return ok
	})
	return ok
}

// outputType returns the version 4 output_type of version 3 output o:
// "" for what the reader declines (not an object, an output_type that is
// not a string of a version 3 output).
func (r *v3Reader) outputType(o int) string {
	t := r.t
	if t.Nodes[o].Kind != jsontree.Object {
		return ""
	}
	typ := r.lookup(o, "output_type")
	if typ < 0 || t.Nodes[typ].Kind != jsontree.String {
		return ""
	}
	switch {
	case t.StrIs(typ, "pyout"):
		return "execute_result"
	case t.StrIs(typ, "pyerr"):
		return "error"
	case t.StrIs(typ, "stream"):
		return "stream"
	case t.StrIs(typ, "display_data"):
		return "display_data"
	}
	return ""
}

// isText reports whether node j is a text the upgrade reads: a string,
// or a list of strings (joined), no longer than nbformat reads a string.
func (r *v3Reader) isText(j int) bool {
	t := r.t
	if !r.small(j) {
		return false
	}
	switch t.Nodes[j].Kind {
	case jsontree.String:
		return true
	case jsontree.Array:
		if t.Lazy(j) && t.Nodes[j].Flags&jsontree.FlagStrings != 0 {
			return true // (lines as nbformat's parse leaves them)
		}
		ok := true
		return r.strings(j, func(n jsontree.Node) bool {
			ok = n.Kind == jsontree.String
			return ok
		}) && ok
	}
	return false
}

// size sizes bufs (texts, counts, outputs) for the cells, and makes the
// outputs' handles (in rd, over org).
func (r *v3Reader) size(cells []v3Cell, bufs *readBufs, rd *readV3Dialog, org *origin) {
	t := r.t
	outs, counts, texts := 0, 0, 0
	for i := range cells {
		c := &cells[i]
		if c.outs >= 0 {
			outs += int(t.Nodes[c.outs].Len)
		}
		if c.count >= 0 {
			counts += 2
		}
		if c.src >= 0 {
			texts += int(t.Nodes[c.src].End - t.Nodes[c.src].Start)
		}
		texts += 8 + c.level // the id derived; a heading's marks
	}
	both := make([]dialog.Output, 2*outs)
	rd.outs = make([]v3Output, outs)
	bufs.outs, bufs.snapOuts = both[:outs:outs], both[outs:outs:2*outs]
	dialog.SourcedOutputs(bufs.outs, rd.outs)
	k := 0
	for i := range cells {
		if c := &cells[i]; c.outs >= 0 {
			r.kids(c.outs, func(o int) bool {
				rd.outs[k] = v3Output{org: org, k: k, typ: r.outputType(o)}
				k++
				return true
			})
		}
	}
	bufs.counts = make([]int, 0, counts)
	bufs.texts.Grow(texts)
}

// message sets m's kind, content, execution count and outputs from cell
// c; false where the reader declines.
func (r *v3Reader) message(m *dialog.Message, c *v3Cell, b *readBufs) bool {
	m.Kind = c.kind
	switch {
	case c.heading:
		m.Content = r.heading(c, b)
	case c.src >= 0:
		m.Content = r.text(c.src, b)
	}
	if c.kind != dialog.Code {
		return true
	}
	t := r.t
	if c.count >= 0 {
		n, _ := strconv.ParseInt(string(t.Raw(c.count)), 10, 0)
		m.ExecutionCount = b.count(int(n))
	}
	n := 0
	if c.outs >= 0 {
		n = int(t.Nodes[c.outs].Len)
	}
	if b.next+n > len(b.outs) {
		return false // (never: the buffers were sized for the cells)
	}
	m.Outputs = b.outs[b.next : b.next+n : b.next+n]
	b.next += n
	return true
}

// text writes text node j (a string, or a list of strings joined as the
// version 3 reader joins them, or version 2's) to b's texts and returns
// it.
func (r *v3Reader) text(j int, b *readBufs) string {
	t := r.t
	start := b.texts.Len()
	if t.Nodes[j].Kind == jsontree.String {
		writeStr(&b.texts, t, t.Nodes[j])
		return b.texts.String()[start:]
	}
	nl, i := r.v2, 0
	line := func(contents []byte) {
		if i > 0 && nl {
			b.texts.WriteByte('\n')
		}
		jsontree.WriteUnescaped(&b.texts, contents)
		if i == 0 && !nl {
			// lines.JoinV3: lines that end with their line break (the
			// first one tells) are joined as they are, others with "\n".
			first := b.texts.String()[start:]
			nl = !strings.HasSuffix(first, "\n") && !strings.HasSuffix(first, "\r")
		}
		i++
	}
	if t.Lazy(j) && t.Nodes[j].Flags&jsontree.FlagStrings != 0 {
		// The strings read from their bytes, as nbformat's parse leaves
		// the lines of texts (checked: an array of strings).
		jsontree.EachString(t.Raw(j), line)
		return b.texts.String()[start:]
	}
	r.strings(j, func(s jsontree.Node) bool {
		line(t.Data[s.Start+1 : s.End-1])
		return true
	})
	return b.texts.String()[start:]
}

// writeStr writes the decoded string node nd of t to b.
func writeStr(b *strings.Builder, t *jsontree.Tape, nd jsontree.Node) {
	raw := t.Data[nd.Start+1 : nd.End-1]
	if nd.Flags&jsontree.FlagEscaped == 0 {
		b.Write(raw)
		return
	}
	jsontree.WriteUnescaped(b, raw)
}

// heading is the markdown text the upgrade makes of a heading cell: its
// level's "#"s, a space, and the lines of its source (a string, or a list
// of strings joined) each without its line break, joined by spaces.
func (r *v3Reader) heading(c *v3Cell, b *readBufs) string {
	var src string
	if c.src >= 0 && r.isText(c.src) {
		var tb readBufs
		src = r.text(c.src, &tb)
	}
	start := b.texts.Len()
	b.texts.WriteString(strings.Repeat("#", c.level))
	b.texts.WriteByte(' ')
	for i, l := range lines.Split(src) {
		if i > 0 {
			b.texts.WriteByte(' ')
		}
		b.texts.WriteString(strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
	}
	return b.texts.String()[start:]
}

// meta returns the message metadata of cell c: the cell's metadata as
// the upgrade leaves it (without trusted; for code, with the cell's
// collapsed), as metaMap reads it from the upgrade's typed cell; ok is
// false for values the reader declines: numbers other than ints, and
// values of a typed member's key that are not of its type or that ToMap
// converts (arrays and objects of other keys are kept, as the upgraded
// cell keeps them, as the bytes the upgrade writes).
func (r *v3Reader) meta(c *v3Cell) (map[string]any, bool) {
	t := r.t
	n := 0
	if c.md >= 0 && t.Nodes[c.md].Kind == jsontree.Object {
		n = int(t.Nodes[c.md].Len)
	}
	if c.collapsed >= 0 {
		n++
	}
	meta := make(map[string]any, n)
	ok := true
	if c.md >= 0 && t.Nodes[c.md].Kind == jsontree.Object {
		r.kids(c.md, func(k int) bool {
			key := t.KeyString(k)
			if key == "trusted" {
				return true
			}
			var v any
			if v, ok = r.metaValue(k, c.plan.kindOf(key)); ok {
				meta[key] = v
			}
			return ok
		})
	}
	if !ok {
		return nil, false
	}
	if c.collapsed >= 0 {
		meta["collapsed"] = t.Nodes[c.collapsed].Kind == jsontree.True
	}
	return meta, true
}

// metaValue returns the generic value of metadata value node j, of a key
// of the kind given (metaUntyped: not a typed member's); ok is false for
// what the reader declines (values a typed member of kind metaOther,
// metaStruct, metaInt or metaFloat holds are all declined).
func (r *v3Reader) metaValue(j int, kind metaKind) (any, bool) {
	t := r.t
	nd := &t.Nodes[j]
	switch nd.Kind {
	case jsontree.True, jsontree.False:
		return nd.Kind == jsontree.True, kind == metaUntyped || kind == metaBool || kind == metaAny
	case jsontree.String:
		return t.Str(j), kind == metaUntyped || kind == metaString || kind == metaAny
	case jsontree.Null:
		return nil, kind == metaUntyped
	case jsontree.Number:
		if nd.Flags&jsontree.FlagInt == 0 || kind != metaUntyped && kind != metaAny {
			return nil, false
		}
		n, err := strconv.ParseInt(string(t.Raw(j)), 10, 0)
		return int(n), err == nil
	case jsontree.Array, jsontree.Object:
		if kind != metaUntyped {
			return nil, false
		}
		// Kept by the upgraded cell as the bytes the upgrade writes.
		out, ok := nbimpl.V3MetaValue(t.Raw(j))
		return json.RawMessage(out), ok
	}
	return nil, false
}

// metaUntyped is the kind kindOf gives a key its type does not type.
const metaUntyped metaKind = 255

// kindOf returns the kind of the typed member of key k (metaUntyped for
// a key the type does not type).
func (p *metaPlan) kindOf(k string) metaKind {
	for i := range p.fields {
		if f := &p.fields[i]; f.name == k {
			return f.kind
		}
	}
	return metaUntyped
}
