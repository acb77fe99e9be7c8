package convert

// Writing a merge: the merged dialog over ours' notebook, cell by cell.

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// baseFacts is what writing a merge takes from base, found before the
// merge is written so that base's notebook (a copy of the file) need not
// be in memory beside the result.
type baseFacts struct {
	minor int // the merge's minor version (see mergedMinor)
	// empty: the messages whose cells keep an empty attachments member
	// (see emptyAttachments); hidden: those whose cells take what only
	// theirs changed in the parts messages do not show, with theirs' cell
	// (see keepTheirsHidden).
	empty  map[*dialog.Message]bool
	hidden map[*dialog.Message]nbformat.Cell
	// oursIsBase: ours is base's very bytes.
	oursIsBase bool
	// v3Sheets: the worksheet of each merged message, when the merge
	// puts one in another worksheet than ours has it in (see v3Sheets).
	v3Sheets []int
	// v3Keys: the version 3 notebook metadata the upgrade drops (name,
	// signature), merged, where the merge differs from ours (nil:
	// removed); see mergedV3Keys.
	v3Keys map[string]any
}

// factsOfBase finds what writing the merge takes from base (orgB: base's
// origin, versions: of the merged messages).
func factsOfBase(merged *dialog.Dialog, versions map[*dialog.Message][3]*dialog.Message, orgB, orgO, orgT *origin, in mergeInputs) baseFacts {
	return baseFacts{
		minor:      mergedMinor(orgB.work, orgO.work, orgT.work),
		empty:      emptyAttachments(merged.Messages, versions, orgB, orgO, orgT), // (before ours' cells are written in place)
		hidden:     theirsHidden(merged.Messages, versions, orgB, orgO, orgT),
		oursIsBase: in.oursIsBase,
		v3Keys:     mergedV3Keys(orgB, orgO, orgT),
	}
}

// marshalMerged writes a merged dialog over ours' notebook: unchanged
// messages of ours as their cells, changed ones into their cells in place,
// theirs' messages as theirs' cells when the two notebooks are of one
// version; over a version 3 ours, as version 3 (see keepsV3). versions
// holds no base versions any more (base is done with: see baseFacts).
//
// With w, the merge is written to w (as it is made, for version 4) and
// nil returned.
func (o options) marshalMerged(merged *dialog.Dialog, versions map[*dialog.Message][3]*dialog.Message, fb baseFacts, orgO, orgT *origin, in mergeInputs, bothValid bool, w io.Writer) ([]byte, error) {
	mo := mergedOrigin(fb.minor, orgO, len(merged.Messages))
	pick := &cellPicker{versions: versions, ours: orgO, theirs: orgT,
		theirsRaw:   &rawCells{nb: orgT.nb, data: in.theirs},
		sameVersion: orgT.work.Nbformat == orgO.work.Nbformat && cellid.Written(orgT.work.Nbformat, orgT.work.NbformatMinor) == cellid.Written(orgO.work.Nbformat, orgO.work.NbformatMinor),
		idsWritten:  cellid.Written(mo.work.Nbformat, mo.work.NbformatMinor)}
	for _, m := range merged.Messages {
		if s := pick.snapshot(m); s != nil {
			mo.snaps[m] = ownMeta(s)
			mo.msgs = append(mo.msgs, m)
		}
	}
	// A merge of two valid notebooks of the same version (bothValid) is
	// valid: its cells are theirs or ours, or built from their messages
	// (metadata key by key from theirs or ours, outputs theirs or ours or
	// conflict marker streams, ids unique). Healing it is spared (a
	// marshal and a check), unless the version changes.
	mo.valid4 = bothValid && mo.work == orgO.nb
	// Over a version 3 ours the cells are written as version 3: version
	// 4's healing has nothing to do with them (v3write writes a valid
	// version 3 notebook, and healing would rewrite cells it can keep).
	// An invalid ours or theirs is healed as version 4 is, and its cells
	// written anew (see marshalMergedV3).
	v3 := keepsV3(fb.oursIsBase, orgO, orgT)
	mo.valid4 = mo.valid4 || v3 && orgO.valid && orgT.valid
	// A version 3 ours is written back as it is only if the merge is ours
	// (cells taken from theirs went into its upgrade, not into it).
	mo.valid = mo.valid && slices.Equal(merged.Messages, orgO.msgs) && orgO.sameMeta(merged.Meta) && len(fb.v3Keys) == 0 && fb.v3Sheets == nil
	// Written as it is made, a merge that is not healed (nor written as
	// version 3) decodes the outputs it takes from theirs into ours'
	// cells only as each cell is written: one cell's at a time beside
	// ours and theirs, not all of them (as large as theirs where both
	// sides re-ran every cell). The bytes are the same.
	o.deferOutputs = w != nil && mo.valid4 && !v3
	nb, err := o.ToNotebook(&File{Dialog: merged, org: mo})
	if err != nil {
		return nil, err
	}
	for i, m := range merged.Messages {
		if c, ok := fb.hidden[m]; ok && i < len(nb.Cells) {
			copyHidden(nb.Cells[i], c)
		}
	}
	keepAttachmentValues(nb, merged.Messages, versions, orgO, orgT, fb.empty)
	if nb.Nbformat == 4 && v3 {
		// (A merge that is ours is ours' notebook itself, version 3.)
		var meta map[string]any
		if !orgO.sameMeta(merged.Meta) || len(fb.v3Keys) > 0 {
			meta = nonNil(merged.Meta)
			if len(fb.v3Keys) > 0 {
				meta = maps.Clone(meta)
				maps.Copy(meta, fb.v3Keys)
			}
		}
		out, err := o.marshalMergedV3(nb, merged.Messages, versions, meta, fb.v3Sheets, orgO, orgT, in)
		if err == nil && w != nil {
			if _, err = w.Write(out); err != nil {
				err = fmt.Errorf("convert: merge: writing: %w", err)
			}
			out = nil
		}
		return out, err
	}
	if w != nil {
		if err := (nbformat.MarshalOptions{}).MarshalTo(w, nb); err != nil {
			return nil, fmt.Errorf("convert: merge: %w", err)
		}
		return nil, nil
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, fmt.Errorf("convert: merge: %w", err)
	}
	return out, nil
}

// mergedOrigin is the origin a merge is written over: ours' notebook
// (written in place), at the minor version the merge takes (see
// mergedMinor).
func mergedOrigin(minor int, orgO *origin, n int) *origin {
	mo := &origin{nb: orgO.nb, work: orgO.work, meta: orgO.metaAsRead(), valid: orgO.valid, inPlace: true,
		snaps: make(map[*dialog.Message]*snapshot, n)}
	if minor != orgO.work.NbformatMinor {
		cp := *orgO.work
		cp.NbformatMinor = minor
		mo.work = &cp
		mo.valid = false
	}
	return mo
}

// mergedMinor is the minor version of a merge of version 4 notebooks: a
// change of it made on one side only is applied, and where both sides
// changed it, the higher of theirs (4.0, 4.1 and 4.2 merge as 4.2); a
// version other than 4 on any side keeps ours'. What the minor needs
// follows from it: the merge's cells are written with ids from 4.5 on
// (those of a side without ids get the ids made when it was read, or
// theirs'), without before. One exception: theirs moving a 4.5 ours back
// before 4.5 is not followed, as it would remove every cell id ours has
// (the merge stays 4.5, as healing keeps a file's ids).
func mergedMinor(b, o, t *nbformat.Notebook) int {
	if b.Nbformat != 4 || o.Nbformat != 4 || t.Nbformat != 4 {
		return o.NbformatMinor
	}
	minor := o.NbformatMinor
	switch bm, om, tm := b.NbformatMinor, o.NbformatMinor, t.NbformatMinor; {
	case om == bm:
		minor = tm
	case tm == bm:
	default:
		minor = max(om, tm)
	}
	if cellid.Written(4, o.NbformatMinor) && !cellid.Written(4, minor) {
		return o.NbformatMinor
	}
	return minor
}

// cellPicker chooses the cell each merged message is written from.
type cellPicker struct {
	versions    map[*dialog.Message][3]*dialog.Message // merged → base, ours, theirs
	ours        *origin
	theirs      *origin
	theirsRaw   *rawCells
	sameVersion bool // ours and theirs are of one version (cells alike, ids or none)
	idsWritten  bool // the merge's version writes cell ids
}

// snapshot is the snapshot merged message m is written from, or nil for a
// message new to both (built from scratch).
func (p *cellPicker) snapshot(m *dialog.Message) *snapshot {
	so, st := p.ours.snap(m), p.theirs.snap(m)
	var ours *snapshot
	if v := p.versions[m][1]; v != nil {
		ours = p.ours.snap(v)
	}
	switch {
	case so != nil: // ours' message as it was: its cell
		return so
	case ours != nil && st != nil && p.sameVersion && takeCell(ours.cell, st.cell):
		// Theirs' message as it was, over ours' cell: the cell keeps
		// its place in ours' file, with theirs' content.
		s := *st
		s.cell = ours.cell
		return &s
	case ours != nil: // changed: written into ours' cell
		return ours
	case st != nil && p.sameVersion: // theirs' message as it was: its cell
		if raw := p.theirsRaw.of(st.cell); raw != nil && !(st.generated && p.idsWritten) {
			// Its very bytes, rewritten only where the styles differ.
			s := *st
			s.cell, s.generated = &nbformat.UnknownCell{Raw: raw}, false
			return &s
		}
		return st
	}
	if t := p.versions[m][2]; t != nil {
		// Theirs' message changed (its text marked, say): built from
		// theirs' cell, as a message of a kind only the cell knows must
		// be. (Nil if theirs' cell is unknown.)
		return p.theirs.snap(t)
	}
	return nil
}

// theirsHidden returns, of the merged messages, those whose cells take
// what only theirs changed in the parts of a cell its message does not
// show (so that it survives a merge of the message), with theirs' cell.
func theirsHidden(msgs []*dialog.Message, versions map[*dialog.Message][3]*dialog.Message, orgB, orgO, orgT *origin) map[*dialog.Message]nbformat.Cell {
	out := map[*dialog.Message]nbformat.Cell{}
	for _, m := range msgs {
		v := versions[m]
		if v[0] == nil || v[1] == nil || v[2] == nil {
			continue
		}
		sb, so, st := orgB.snap(v[0]), orgO.snap(v[1]), orgT.snap(v[2])
		if sb != nil && so != nil && st != nil && sameHidden(sb.cell, so.cell) && !sameHidden(sb.cell, st.cell) {
			out[m] = st.cell
		}
	}
	return out
}

// keepAttachmentValues gives each attachment of the merged cells (nb's
// cells, one per message) that a side holds with the same data the value
// that side's file holds, when the writer wrote it otherwise: an
// attachment stored as text that is not base64 (see attachmentFrom) stays
// that text, whichever side it comes from; a cell without attachments
// keeps an empty attachments member (keepEmptyAttachments).
func keepAttachmentValues(nb *nbformat.Notebook, msgs []*dialog.Message, versions map[*dialog.Message][3]*dialog.Message, orgO, orgT *origin, empty map[*dialog.Message]bool) {
	for i, m := range msgs {
		if i >= len(nb.Cells) {
			continue
		}
		if len(m.Attachments) == 0 {
			if empty[m] {
				keepEmptyAttachments(nb.Cells[i])
			}
			continue
		}
		atts := cellAttachments(nb.Cells[i])
		if atts == nil {
			continue
		}
		v := versions[m]
		for _, side := range [2]struct {
			org *origin
			msg *dialog.Message
		}{{orgO, v[1]}, {orgT, v[2]}} {
			s := side.org.snap(side.msg)
			if s == nil {
				continue
			}
			orig := cellAttachments(s.cell)
			for _, a := range m.Attachments {
				w := findMIME(attachmentsOf(s.msg.Attachments, a.ID), a.MIME)
				ob, inOrig := orig[a.ID]
				b, inCell := atts[a.ID]
				if w == nil || !inOrig || !inCell || string(w.Data) != string(a.Data) {
					continue
				}
				was, ok1 := ob.RawJSON(a.MIME)
				now, ok2 := b.RawJSON(a.MIME)
				if ok1 && ok2 && !jsonvalue.Equal(was, now) && b.SetJSON(a.MIME, was) == nil {
					atts[a.ID] = b
				}
			}
		}
	}
}

// emptyAttachments tells, for each merged message without attachments,
// whether its cell keeps an empty attachments member (a part of the cell
// its message does not show), merged three-way: as ours' cell has it,
// unless ours' is as base's, then as theirs'.
func emptyAttachments(msgs []*dialog.Message, versions map[*dialog.Message][3]*dialog.Message, orgB, orgO, orgT *origin) map[*dialog.Message]bool {
	out := map[*dialog.Message]bool{}
	has := func(org *origin, m *dialog.Message) (bool, bool) {
		s := org.snap(m)
		if s == nil {
			return false, false
		}
		a := cellAttachments(s.cell)
		return a != nil && len(a) == 0, true
	}
	for _, m := range msgs {
		if len(m.Attachments) > 0 {
			continue
		}
		v := versions[m]
		b, inB := has(orgB, v[0])
		o, inO := has(orgO, v[1])
		t, inT := has(orgT, v[2])
		switch {
		case inO && (!inB || o != b || !inT):
			out[m] = o
		case inT:
			out[m] = t
		}
	}
	return out
}

// keepEmptyAttachments gives a markdown or raw cell without attachments an
// empty attachments member.
func keepEmptyAttachments(c nbformat.Cell) {
	switch c := c.(type) {
	case *nbformat.MarkdownCell:
		if c.Attachments == nil {
			c.Attachments = map[string]nbformat.MimeBundle{}
		}
	case *nbformat.RawCell:
		if c.Attachments == nil {
			c.Attachments = map[string]nbformat.MimeBundle{}
		}
	}
}

// cellAttachments returns a markdown or raw cell's attachments.
func cellAttachments(c nbformat.Cell) map[string]nbformat.MimeBundle {
	switch c := c.(type) {
	case *nbformat.MarkdownCell:
		return c.Attachments
	case *nbformat.RawCell:
		return c.Attachments
	}
	return nil
}

// attachmentsOf returns the attachments of as with the id.
func attachmentsOf(as []dialog.Attachment, id string) []dialog.Attachment {
	var out []dialog.Attachment
	for _, a := range as {
		if a.ID == id {
			out = append(out, a)
		}
	}
	return out
}

// rawCells finds the bytes of a notebook's cells in what it was read from
// (parsed once, when first asked).
type rawCells struct {
	nb    *nbformat.Notebook
	data  []byte
	done  bool
	index map[nbformat.Cell]int
	raw   [][]byte
}

// of returns the bytes cell c was read from, or nil.
func (r *rawCells) of(c nbformat.Cell) []byte {
	if !r.done {
		r.done = true
		if r.data == nil || r.nb.Nbformat != 4 {
			return nil
		}
		t, err := jsontree.Parse(r.data, jsontree.Limits{MaxDepth: defaultMaxDepth})
		if err != nil {
			return nil
		}
		cells := t.Lookup(jsontree.Root, "cells")
		if cells < 0 || t.Nodes[cells].Kind != jsontree.Array {
			return nil
		}
		kids := t.ChildList(cells)
		if len(kids) != len(r.nb.Cells) {
			return nil
		}
		r.index = make(map[nbformat.Cell]int, len(kids))
		for i, k := range kids {
			r.index[r.nb.Cells[i]] = i
			r.raw = append(r.raw, t.Raw(k))
		}
	}
	if i, ok := r.index[c]; ok {
		return r.raw[i]
	}
	return nil
}

// takeCell copies cell c into cell orig when they are of one type (see
// adopt), reporting whether it did.
func takeCell(orig, c nbformat.Cell) bool { return nbformat.ReplaceCell(orig, c) }

// sameHidden reports whether two cells agree in what their messages do
// not show: an attachments member present but empty, members unknown to
// the schema (not those it gives another kind of cell: see
// unknownMembers), and anything of a cell of an unknown type.
func sameHidden(a, b nbformat.Cell) bool {
	same := func(x, y map[string]any) bool { return jsonvalue.Equal(unknownMembers(x), unknownMembers(y)) }
	switch x := a.(type) {
	case *nbformat.MarkdownCell:
		y, ok := b.(*nbformat.MarkdownCell)
		return !ok || (x.Attachments != nil) == (y.Attachments != nil) && same(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.RawCell:
		y, ok := b.(*nbformat.RawCell)
		return !ok || (x.Attachments != nil) == (y.Attachments != nil) && same(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.CodeCell:
		y, ok := b.(*nbformat.CodeCell)
		return !ok || same(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.UnknownCell:
		y, ok := b.(*nbformat.UnknownCell)
		return !ok || bytes.Equal(x.Raw, y.Raw)
	}
	return true
}

// copyHidden gives dst the parts of src that messages do not show (see
// sameHidden), when both are of one type.
func copyHidden(dst, src nbformat.Cell) {
	emptyAtts := func(a map[string]nbformat.MimeBundle) map[string]nbformat.MimeBundle {
		if a == nil {
			return nil
		}
		return map[string]nbformat.MimeBundle{}
	}
	switch d := dst.(type) {
	case *nbformat.MarkdownCell:
		if s, ok := src.(*nbformat.MarkdownCell); ok {
			if len(d.Attachments) == 0 {
				d.Attachments = emptyAtts(s.Attachments)
			}
			d.AdditionalProperties = withUnknownOf(d.AdditionalProperties, s.AdditionalProperties)
		}
	case *nbformat.RawCell:
		if s, ok := src.(*nbformat.RawCell); ok {
			if len(d.Attachments) == 0 {
				d.Attachments = emptyAtts(s.Attachments)
			}
			d.AdditionalProperties = withUnknownOf(d.AdditionalProperties, s.AdditionalProperties)
		}
	case *nbformat.CodeCell:
		if s, ok := src.(*nbformat.CodeCell); ok {
			d.AdditionalProperties = withUnknownOf(d.AdditionalProperties, s.AdditionalProperties)
		}
	}
}

// cellMembers are the members the nbformat 4 schema gives a kind of cell.
// In a cell of another kind (outputs on a markdown cell: git's line merge
// gave it lines of another cell) such a member is no part the cell hides
// but one healing removes: a side's change of it is not carried into a
// merge (see copyHidden), which would make the result invalid.
var cellMembers = map[string]bool{"attachments": true, "cell_type": true, "execution_count": true, "id": true, "metadata": true, "outputs": true, "source": true}

// unknownMembers returns the members of a cell's additional properties
// that the schema does not know (nil if none).
func unknownMembers(props map[string]any) map[string]any {
	var out map[string]any
	for k, v := range props {
		if !cellMembers[k] {
			if out == nil {
				out = make(map[string]any, len(props))
			}
			out[k] = v
		}
	}
	return out
}

// withUnknownOf returns dst's additional properties that the schema knows
// with src's unknown ones (nil if none).
func withUnknownOf(dst, src map[string]any) map[string]any {
	out := unknownMembers(src)
	for k, v := range dst {
		if cellMembers[k] {
			if out == nil {
				out = map[string]any{}
			}
			out[k] = v
		}
	}
	return out
}

// adopt writes the new cell c into the original cell orig when they are of
// one type, so that the writer rewrites only the parts that changed
// (the cell keeps its place in the file it was read from); otherwise it
// returns c.
func adopt(orig, c nbformat.Cell) nbformat.Cell {
	if takeCell(orig, c) {
		return orig
	}
	return c
}

// ownMeta returns s, or a copy of it holding its message's metadata as
// read in a map of its own when s holds it as its cell's typed metadata
// (snapshot.meta): a merge writes changed messages into their cells in
// place (adopt), which would change what such a snapshot compares with.
func ownMeta(s *snapshot) *snapshot {
	if s.meta == nil {
		return s
	}
	c := *s
	c.msg, c.meta = s.asRead(), nil
	return &c
}
