package convert

// Writing a dialog as a notebook (ToNotebook): unchanged messages keep their
// cells, changed ones are built anew, and healing that loses no value.

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/internal/truthy"
	"github.com/nbdialog/ipynb/nbformat"
)

// ToNotebook is the function ToNotebook: a dialog read from a notebook
// becomes that notebook with the dialog's changes (version 3 ones become
// 4.5 once changed), any other an nbformat 4.5 notebook. Invalid
// notebooks are healed (nbformat.Heal).
func (o options) ToNotebook(d *File) (*nbformat.Notebook, error) {
	return o.toNotebook(d, o.Messages)
}

// toNotebook is ToNotebook writing the messages only (nil: all of d's).
func (o options) toNotebook(d *File, only []*dialog.Message) (*nbformat.Notebook, error) {
	if nb, _ := o.asRead(d, only); nb != nil {
		return readCopy(nb), nil
	}
	return o.convert(d, only, nil)
}

// convert is toNotebook once asRead has declined. If written is not nil,
// it is set to the bytes nbformat.Marshal writes for the notebook returned
// when healing it wrote them (nil otherwise; see
// nbformat.HealOptions.Written), which stay so until the notebook is
// changed.
func (o options) convert(d *File, only []*dialog.Message, written *[]byte) (*nbformat.Notebook, error) {
	msgs := d.Messages
	if only != nil {
		msgs = only
	}
	org := d.org
	o = o.carried(org)
	if org != nil && org.nb.Nbformat < 4 && org.valid && only == nil && o.unchanged(d.Dialog, org) {
		return org.nb, nil
	}
	nb, metaChanged, err := startNotebook(d.Dialog, org)
	if err != nil {
		return nil, err
	}
	// Cells carry ids in 4.5 and later, and in an older file that already
	// has them (Heal then keeps them by raising the minor version).
	ids := cellid.Written(nb.Nbformat, nb.NbformatMinor) || org != nil && hasCellIDs(org.work)
	// The cells made from new or changed messages, by index: kept on
	// the stack, which writeCells returning it would prevent.
	built := map[int]builtCell{}
	if err := o.writeCells(nb, msgs, org, ids, built); err != nil {
		return nil, err
	}
	if nb.Nbformat == 4 && (org == nil || !org.valid4) && !o.idsMadeValid(d.Dialog, nb, org, only, built, metaChanged) {
		var origMeta, newMeta map[string]any
		if metaChanged {
			// (The metadata as read matters only beside the caller's.)
			newMeta = nonNil(d.Meta)
			if org != nil {
				origMeta = org.metaAsRead()
			}
		}
		if err := o.heal(nb, built, newMeta, origMeta, written); err != nil {
			return nil, err
		}
	}
	return nb, nil
}

// idsMadeValid reports whether nb, written for the unchanged dialog d
// read from org's notebook, is valid without healing (Heal would find it
// valid and leave it as it is), though the notebook read was not: every
// problem of the bytes read is about the id of a cell (a cell without one,
// with an invalid one or with an earlier cell's, as .NET Interactive and
// older writers leave them), and writing gave each of those cells its
// message's id, valid and unique (see toDialog); nothing else changed (the
// messages, their order and the metadata are as read). The cells whose id
// was given are validated, alone in a notebook of their own, so that the
// answer does not depend on the validator reporting every problem of a
// cell it found one in; which pays only when they are a small part of the
// cells: healing's check of the whole notebook written (a parse and a
// validation of the file) is then spared. Otherwise it answers false.
func (o options) idsMadeValid(d *dialog.Dialog, nb *nbformat.Notebook, org *origin, only []*dialog.Message, built map[int]builtCell, metaChanged bool) bool {
	if org == nil || !org.pristine || org.inPlace || only != nil || org.work != org.nb || len(built) != 0 || metaChanged ||
		!cellid.Written(nb.Nbformat, nb.NbformatMinor) || nb.NbformatMinor != org.nb.NbformatMinor ||
		!slices.Equal(d.Messages, org.msgs) || len(nb.Cells) != len(org.nb.Cells) {
		return false
	}
	// The problems of the bytes read (org.nb is as read: Validate finds
	// them once, and keeps them).
	err := org.validate()
	if err == nil {
		return true
	}
	probs := nbformat.Problems(err)
	if len(probs) == 0 || len(probs) > len(nb.Cells)/idCheckShare {
		return false
	}
	cells := make([]int, len(probs))
	for k, p := range probs {
		i, ok := cellid.Problem(string(p.Pointer), p.Keyword, p.Member)
		if !ok || k > 0 && i <= cells[k-1] {
			return false
		}
		cells[k] = i
	}
	// The ids written are unique (as toDialog makes them: checked).
	seen := make(map[nbformat.CellID]bool, len(nb.Cells))
	for _, c := range nb.Cells {
		id := nbformat.CellIDOf(c)
		if seen[id] {
			return false
		}
		seen[id] = true
	}
	alone := nbformat.New()
	alone.NbformatMinor = nb.NbformatMinor
	alone.Cells = make([]nbformat.Cell, 0, len(cells))
	for _, i := range cells {
		if i >= len(nb.Cells) || nb.Cells[i] == org.nb.Cells[i] {
			return false // the cell's id was not written anew
		}
		if id := nbformat.CellIDOf(nb.Cells[i]); !cellid.Valid(string(id)) || string(id) != d.Messages[i].ID {
			return false
		}
		alone.Cells = append(alone.Cells, nb.Cells[i])
	}
	return nbformat.Validate(alone) == nil
}

// idCheckShare: idsMadeValid validates the cells whose ids were given
// when they are at most this fraction of the cells (else healing's check
// of the whole file costs little more).
const idCheckShare = 4

// startNotebook returns the notebook d is written as, before its cells: a
// copy of the one it was read from (org, if any; version 3 upgraded) or a
// new nbformat 4.5 one, with d's metadata if it changed since it was read
// (metaChanged).
func startNotebook(d *dialog.Dialog, org *origin) (nb *nbformat.Notebook, metaChanged bool, err error) {
	if org != nil {
		cp := *org.work
		nb = &cp
	} else {
		nb = nbformat.New()
	}
	metaChanged = org == nil || !org.sameMeta(d.Meta)
	if metaChanged {
		nb.Metadata = nbformat.NotebookMetadata{}
		if err := nbmap.FromMap(nonNil(d.Meta), &nb.Metadata); err != nil {
			return nil, false, fmt.Errorf("convert: notebook metadata: %w", err)
		}
	}
	return nb, metaChanged, nil
}

// writeCells sets nb's cells to those of msgs (read from org, if not nil;
// ids: whether cells carry ids): a message unchanged since it was read
// keeps its cell, any other gets a cell built anew, recorded in built by
// index.
func (o options) writeCells(nb *nbformat.Notebook, msgs []*dialog.Message, org *origin, ids bool, built map[int]builtCell) error {
	seen := map[*dialog.Message]bool{}
	nb.Cells = make([]nbformat.Cell, 0, len(msgs))
	for i, m := range msgs {
		if m == nil {
			return errors.New("convert: nil message")
		}
		if seen[m] {
			return fmt.Errorf("convert: message %s appears twice", m.ID)
		}
		seen[m] = true
		var s *snapshot
		if org != nil {
			s = org.snapAt(i, m)
		}
		if s != nil && o.sameMessage(m, s) {
			nb.Cells = append(nb.Cells, keptCell(s, m, ids))
			continue
		}
		c, err := o.changedCell(m, s, org, ids, len(nb.Cells))
		if err != nil {
			return err
		}
		built[len(nb.Cells)] = builtCell{msg: m, cell: c, snap: s}
		nb.Cells = append(nb.Cells, c)
	}
	return nil
}

// keptCell is the cell message m was read from (s), m unchanged since: as
// read, but for the id m got when the cell had no usable one, written
// where cells carry ids.
func keptCell(s *snapshot, m *dialog.Message, ids bool) nbformat.Cell {
	c := s.cell
	if s.generated && ids && nbformat.CellIDOf(c) != nbformat.CellID(m.ID) {
		c = cloneCell(c)
		nbformat.SetCellID(c, nbformat.CellID(m.ID))
	}
	return c
}

// changedCell builds the cell, at index i of the notebook, of a message
// that is new or changed since it was read (s: as read, nil if new) from
// org (nil: not read).
func (o options) changedCell(m *dialog.Message, s *snapshot, org *origin, ids bool, i int) (nbformat.Cell, error) {
	if err := unwritable(m); err != nil {
		return nil, err
	}
	var from *nbformat.Notebook
	if org != nil {
		from = org.work
	}
	c, err := o.cell(m, s, ids, from)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c, nil
	}
	if o.Repaired != nil {
		for _, k := range strayMembers(s.cell) {
			o.Repaired(nbformat.Repair{Pointer: nbformat.Pointer(jsonpointer.AppendToken(jsonpointer.AppendIndex("/cells", i), k)),
				What: fmt.Sprintf("removed %q, which a %s cell does not have, as the cell was written anew from its changed message", k, s.cell.Type())})
		}
	}
	if org.inPlace {
		c = adopt(s.cell, c)
	}
	return c, nil
}

// heal heals nb (see nbformat.Heal), telling o.Repaired of the repairs,
// but refuses, with an *Error (Op "write") for each, repairs that would remove
// a value the caller gave: in the cells built, or in the notebook metadata
// written (newMeta, nil if unchanged from origMeta, as read). written, if
// not nil, gets the bytes Heal wrote, as nbformat.HealOptions.Written.
func (o options) heal(nb *nbformat.Notebook, built map[int]builtCell, newMeta, origMeta map[string]any, written *[]byte) error {
	repairs, err := healKeepingBOM(nb, written)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	var lost []error
	for _, r := range repairs {
		if e := lostValue(r, built, newMeta, origMeta); e != nil {
			lost = append(lost, e)
		} else if o.Repaired != nil {
			o.Repaired(r)
		}
	}
	return errors.Join(lost...)
}

// hasCellIDs reports whether a cell of nb has a valid id.
func hasCellIDs(nb *nbformat.Notebook) bool {
	for _, c := range nb.Cells {
		if cellid.Valid(string(nbformat.CellIDOf(c))) {
			return true
		}
	}
	return false
}

// carried returns o with the registry d was read or last written with,
// when o names none.
func (o options) carried(org *origin) options {
	if o.Registry == nil && org != nil {
		o.Registry = org.reg
	}
	return o
}

// unchanged reports whether d is exactly as it was read.
func (o options) unchanged(d *dialog.Dialog, org *origin) bool {
	if !slices.Equal(d.Messages, org.msgs) || !org.sameMeta(d.Meta) {
		return false
	}
	for i, m := range d.Messages {
		if !o.sameMessage(m, org.snapAt(i, m)) {
			return false
		}
	}
	return true
}

// toCell converts one message to a new cell (nbformat 4.5). A message
// without an id gives a cell with the id Heal would derive for it at the
// top of a notebook (from its cell type and text), so the cell is valid.
func (o options) toCell(m *dialog.Message) (nbformat.Cell, error) {
	if err := unwritable(m); err != nil {
		return nil, err
	}
	c, err := o.cell(m, nil, true, nil)
	if err == nil && m.ID == "" {
		// A cell of its own must be valid: an id as Heal would give the
		// cell at the top of a notebook.
		nbformat.SetCellID(c, nbformat.CellID(cellid.Derive(0, string(c.Type()), m.Content, func(string) bool { return false })))
	}
	return c, err
}

// cellIDFor is the id of the cell of message m (s: as read, if it was),
// "" when ids are not written. A message without an id (one made as a
// struct literal) keeps the id its cell was read or written with, so that
// editing it does not change the cell's id; a new one gets its id from
// Heal (derived from the cell's place and content, clear of the others).
func cellIDFor(m *dialog.Message, s *snapshot, ids bool) nbformat.CellID {
	switch {
	case !ids:
		return ""
	case m.ID != "":
		return nbformat.CellID(m.ID)
	case s != nil && cellid.Valid(string(nbformat.CellIDOf(s.cell))):
		return nbformat.CellIDOf(s.cell)
	}
	return "" // Heal derives it from the cell's place and content
}

// metadataError names the message whose metadata could not be written.
func metadataError(m *dialog.Message, err error) error {
	return fmt.Errorf("convert: message %s: metadata: %w", m.ID, err)
}

// cell builds the cell of a changed or new message, reusing the parts of
// its original cell (s, if any) that did not change and the outputs read
// from the notebook it is written over (from, if any).
func (o options) cell(m *dialog.Message, s *snapshot, ids bool, from *nbformat.Notebook) (nbformat.Cell, error) {
	id := cellIDFor(m, s, ids)
	meta, err := o.cellMeta(m)
	if err != nil {
		return nil, err
	}
	var orig nbformat.Cell
	if s != nil {
		orig = s.cell
	}
	switch m.Kind {
	case dialog.Note, dialog.Prompt:
		c := &nbformat.MarkdownCell{CellType: nbformat.CellTypeMarkdown, ID: id}
		source := m.Content
		if m.Kind == dialog.Prompt {
			if r := m.Reply(); r != "" {
				source += ReplySeparator + r
			}
		}
		c.Source = sourceFor(orig, source)
		if err := nbmap.FromMap(meta, &c.Metadata); err != nil {
			return nil, metadataError(m, err)
		}
		c.Attachments = o.attachments(m, s)
		return c, nil
	case dialog.Code:
		c := &nbformat.CodeCell{CellType: nbformat.CellTypeCode, ID: id, ExecutionCount: m.ExecutionCount}
		c.Source = sourceFor(orig, m.Content)
		if err := nbmap.FromMap(meta, &c.Metadata); err != nil {
			return nil, metadataError(m, err)
		}
		c.Outputs = make([]nbformat.Output, len(m.Outputs))
		for i, out := range m.Outputs {
			no, err := o.outputFor(out, from)
			if err != nil {
				return nil, fmt.Errorf("convert: message %s: output %d: %w", m.ID, i, err)
			}
			c.Outputs[i] = no
		}
		return c, nil
	case dialog.Raw:
		c := &nbformat.RawCell{CellType: nbformat.CellTypeRaw, ID: id}
		c.Source = sourceFor(orig, m.Content)
		if err := nbmap.FromMap(meta, &c.Metadata); err != nil {
			return nil, metadataError(m, err)
		}
		c.Attachments = o.attachments(m, s)
		return c, nil
	}
	if u, ok := orig.(*nbformat.UnknownCell); ok && m.Kind == s.msg.Kind {
		return unknownCell(u, m, meta, ids)
	}
	return nil, fmt.Errorf("convert: message %s: unknown kind %q", m.ID, m.Kind)
}

// unknownCell writes the changes of a message read from a cell of an
// unrecognized type back into that cell's JSON: its source, metadata and
// id (written where the format has ids, or where the cell had one); the
// rest is kept.
func unknownCell(u *nbformat.UnknownCell, m *dialog.Message, meta map[string]any, ids bool) (nbformat.Cell, error) {
	g, err := nbformat.Decode(u.Raw)
	if err != nil {
		return nil, err
	}
	obj, ok := g.(map[string]any)
	if !ok {
		obj = map[string]any{"value": g}
	}
	changed := !ok
	if lines.Text(obj["source"]) != m.Content {
		obj["source"], changed = m.Content, true
	}
	if old, _ := obj["metadata"].(map[string]any); !jsonvalue.Equal(old, meta) {
		obj["metadata"], changed = meta, true
	}
	if id, _ := obj["id"].(string); (ids || id != "") && id != m.ID {
		obj["id"], changed = m.ID, true
	}
	if !changed {
		return u, nil
	}
	raw, err := nbjson.Encode(obj)
	if err != nil {
		return nil, fmt.Errorf("convert: message %s: %w", m.ID, err)
	}
	return &nbformat.UnknownCell{Raw: raw}, nil
}

// sourceFor keeps the original source value (its bytes and its form) when
// the text is unchanged.
func sourceFor(orig nbformat.Cell, text string) nbformat.MultilineString {
	if orig == nil {
		return nbformat.Text(text)
	}
	ms := nbformat.SourceOf(orig)
	ms.Set(text)
	return ms
}

// cellMeta is the cell metadata to write for m: Meta plus the demoted
// attributes, plus the prompt marker. A declared attribute is taken from
// Attrs, or else from a key of Meta that the registry declares (as the
// seed promotes declared keys wherever they come from); it is converted
// (Descriptor.ToFile) and written only when truthy.
func (o options) cellMeta(m *dialog.Message) (map[string]any, error) {
	meta := make(map[string]any, len(m.Meta)+len(m.Attrs)+1)
	for k, v := range m.Meta {
		meta[k] = v
	}
	for _, attr := range slices.Sorted(maps.Keys(m.Attrs)) {
		if _, ok := o.Registry.lookupAttr(attr); !ok {
			return nil, fmt.Errorf("convert: message %s: attribute %q has no descriptor: %w", m.ID, attr, ErrNoPlace)
		}
	}
	for d := range o.Registry.each() {
		v, ok := m.Attrs[d.Attr]
		if !ok {
			if v, ok = m.Meta[d.Key]; !ok {
				continue
			}
		}
		if d.ToFile != nil {
			v = d.ToFile(v)
		}
		if truthy.Of(v) {
			meta[d.Key] = v
		} else {
			delete(meta, d.Key)
		}
	}
	if m.Kind == dialog.Prompt {
		meta[promptKey] = true
	}
	return meta, nil
}
