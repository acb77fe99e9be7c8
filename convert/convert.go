package convert

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/nbformat"
)

// ReplySeparator joins a prompt's question and its AI reply in the source
// of the prompt's markdown cell (Solveit's convention). The hidden HTML
// comment keeps it from colliding with ordinary content.
const ReplySeparator = "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n"

// promptKey marks a markdown cell holding a prompt.
const promptKey = "solveit_ai"

// Options configures conversion and saving. The zero value converts with
// no descriptors and saves safely.
type Options struct {
	// Registry declares host attributes kept in cell metadata. Nil means,
	// when writing, the registry the dialog was read (or last written)
	// with, and otherwise none.
	Registry *Registry
	// Force makes Save overwrite a file that changed on disk since it was
	// read.
	Force bool
	// MergeOnChange, if set, makes Save merge with a file that changed
	// on disk since it was read, instead of refusing (see Options.Save).
	MergeOnChange *dialog.MergeOptions
	// Owner, if set, is given to files written (uid and gid).
	Owner *Owner
	// Repaired, if set, is told about every repair made to write an
	// invalid notebook (as read) as a valid one. Values the caller gave
	// that a repair would remove are not repaired but refused (see
	// LostValueError).
	Repaired func(nbformat.Repair)
	// Messages, if not nil, makes Marshal, ToNotebook, WriteFile and
	// Write write only these messages of the dialog, in this order, with
	// its notebook metadata: the seed's msgs= (get_ipynb, write_ipynb,
	// Dialog.write; see also the function WriteSubset). An empty, non-nil
	// slice writes a notebook without cells. A file written so is not made
	// the dialog's file (its Path and ModTime stay as they were), and Save
	// refuses to run with Messages set (it would drop the other messages
	// from the dialog's file). Reading ignores Messages.
	Messages []*dialog.Message
}

// Owner is a file's numeric user and group.
type Owner struct{ UID, GID int }

// origin is what a dialog was read from: kept in Dialog.Source so that
// writing it back is byte-exact where nothing changed.
type origin struct {
	nb    *nbformat.Notebook // as read
	work  *nbformat.Notebook // nb, or its upgrade to 4.5 for version 3
	meta  map[string]any     // Dialog.Meta as read
	msgs  []*dialog.Message  // messages in order as read
	snaps map[*dialog.Message]*snapshot
	file  *fileStamp // the file read, for Save
	valid bool       // nb is valid (a version 3 notebook is then written back as read)
	reg   *Registry  // the registry the dialog was read (or last written) with
	// inPlace: changed messages are written into their original cells
	// (see adopt); set only for notebooks this package parsed for its
	// own use, as a merge's.
	inPlace bool
	// valid4: the notebook written is known valid without healing (a
	// merge of valid notebooks of one version), so Heal's check is spared.
	valid4 bool
	// pristine: nb was parsed here (Unmarshal, ReadFile, a file written)
	// and no one else holds it, so it is exactly as read (see asRead).
	pristine bool
	// generated: a message's id was made here (see snapshot.generated).
	generated bool
}

// snapshot is a message as read and the cell it came from.
type snapshot struct {
	msg       dialog.Message // a deep copy
	cell      nbformat.Cell
	generated bool // the id was made here (the cell had none, or a bad one)
}

// Unmarshal reads a dialog from notebook JSON. See [Options.Unmarshal].
func Unmarshal(data []byte) (*dialog.Dialog, error) { return Options{}.Unmarshal(data) }

// Unmarshal reads a dialog from notebook JSON (any version nbformat reads
// from 3 on; version 3 is upgraded in memory).
func (o Options) Unmarshal(data []byte) (*dialog.Dialog, error) {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	return o.toDialog(nb, data)
}

// Marshal writes a dialog as notebook JSON. See [Options.Marshal].
func Marshal(d *dialog.Dialog) ([]byte, error) { return Options{}.Marshal(d) }

// Marshal writes d as notebook JSON (only Options.Messages, if set). A
// dialog read by Unmarshal (or ReadFile) and not changed is written back
// byte for byte; a changed one differs only in the cells of the changed
// messages, written in the file's own style. An invalid notebook is
// written valid (see nbformat.Heal). To write to an io.Writer without a
// second copy of an unchanged file's bytes, convert with ToNotebook and
// write with nbformat.MarshalOptions.MarshalTo.
func (o Options) Marshal(d *dialog.Dialog) ([]byte, error) {
	if _, data := o.asRead(d, o.Messages); data != nil {
		return bytes.Clone(data), nil
	}
	nb, err := o.ToNotebook(d)
	if err != nil {
		return nil, err
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	return out, nil
}

// ToDialog converts a notebook to a dialog. The notebook is kept (in
// Dialog.Source) to write the dialog back exactly; do not change it
// afterwards.
//
// Markdown cells become notes, or prompts when their metadata has a true
// solveit_ai (the reply is split off at ReplySeparator); code and raw
// cells become code and raw messages. Cell metadata goes to Message.Meta,
// except keys the Registry declares, which go to Message.Attrs. Cells
// without a valid id, or with the id of an earlier cell, get fresh ids.
// A version 3 notebook is read through its upgrade to 4.5.
func (o Options) ToDialog(nb *nbformat.Notebook) (*dialog.Dialog, error) { return o.toDialog(nb, nil) }

// toDialog is ToDialog of nb, read from data (nil: not known).
func (o Options) toDialog(nb *nbformat.Notebook, data []byte) (*dialog.Dialog, error) {
	pristine := data != nil // nb was parsed from data by this package
	work := nb
	switch nb.Nbformat {
	case 4:
	case 2, 3:
		// The upgrade is made on a copy of the notebook: for one parsed
		// here, a copy in memory; else the bytes read, read again.
		if pristine {
			var err error
			if work, err = upgradedCopy(nb); err != nil {
				return nil, fmt.Errorf("convert: %w", err)
			}
			break
		}
		if data == nil {
			var err error
			if data, err = nbformat.Marshal(nb); err != nil {
				return nil, fmt.Errorf("convert: %w", err)
			}
		}
		var err error
		if work, err = nbformat.Unmarshal(data); err != nil {
			return nil, fmt.Errorf("convert: %w", err)
		}
		if err := nbformat.Upgrade(work); err != nil {
			return nil, fmt.Errorf("convert: %w", err)
		}
	default:
		return nil, fmt.Errorf("convert: nbformat %d notebooks are not supported: %w", nb.Nbformat, nbformat.ErrUnsupportedVersion)
	}
	d := &dialog.Dialog{}
	meta, err := nbgeneric.ToMap(&work.Metadata)
	if err != nil {
		return nil, fmt.Errorf("convert: notebook metadata: %w", err)
	}
	d.Meta = meta
	org := &origin{nb: nb, work: work, meta: jsonvalue.CloneObject(meta), reg: o.Registry, pristine: pristine}
	if nb.Nbformat < 4 {
		org.valid = nbformat.Validate(nb) == nil
	}
	// Ids the file does not give (all of them in version 2 and 3, whose
	// upgrade made up random ones) are derived from the cell's position
	// and content, so that reading the same file gives the same ids.
	fileIDs := nb.Nbformat >= 4
	var taken map[string]bool // the ids in use, made when an id is first derived
	// The ids given so far: looked up in the messages made, or in a map
	// for long notebooks.
	var seenMap map[string]bool
	if len(work.Cells) > seenScan {
		seenMap = make(map[string]bool, len(work.Cells))
	}
	n := len(work.Cells)
	d.Messages = make(dialog.Msgs, 0, n)
	org.msgs = make([]*dialog.Message, 0, n)
	org.snaps = make(map[*dialog.Message]*snapshot, n)
	msgs := make([]dialog.Message, n) // one allocation for all
	snaps := make([]snapshot, n)
	for i, c := range work.Cells {
		m := &msgs[i]
		if err := o.toMessage(m, c, work); err != nil {
			return nil, fmt.Errorf("convert: /cells/%d: %w", i, err)
		}
		generated := false
		if !fileIDs || !cellid.Valid(m.ID) || seen(msgs[:i], seenMap, m.ID) {
			if taken == nil {
				taken = make(map[string]bool, n)
				if fileIDs {
					for _, c := range work.Cells {
						taken[string(nbformat.CellIDOf(c))] = true
					}
				}
				for j := range i {
					taken[msgs[j].ID] = true
				}
			}
			m.ID = cellid.Derive(i, string(m.Kind), m.Content, func(id string) bool { return taken[id] })
			taken[m.ID] = true
			generated = true
			org.generated = true
		}
		if seenMap != nil {
			seenMap[m.ID] = true
		}
		d.Messages = append(d.Messages, m)
		org.msgs = append(org.msgs, m)
		snaps[i] = snapshot{msg: copyMessage(m), cell: c, generated: generated}
		org.snaps[m] = &snaps[i]
	}
	d.Source = org
	return d, nil
}

// seenScan is the number of cells up to which ToDialog finds repeated ids
// by scanning the messages made rather than through a map.
const seenScan = 32

// seen reports whether a message before has the id: in seenMap when there
// is one, else in prev.
func seen(prev []dialog.Message, seenMap map[string]bool, id string) bool {
	if seenMap != nil {
		return seenMap[id]
	}
	for i := range prev {
		if prev[i].ID == id {
			return true
		}
	}
	return false
}

// ToMessage converts one cell to a message (see ToDialog).
func (o Options) ToMessage(c nbformat.Cell) (*dialog.Message, error) {
	m := &dialog.Message{}
	if err := o.toMessage(m, c, nil); err != nil {
		return nil, err
	}
	return m, nil
}

// toMessage converts cell c of notebook nb (nil: unknown) to a message,
// set in *m (a zero message).
func (o Options) toMessage(m *dialog.Message, c nbformat.Cell, nb *nbformat.Notebook) error {
	m.ID = string(nbformat.CellIDOf(c))
	var md any
	var atts map[string]nbformat.MimeBundle
	switch c := c.(type) {
	case *nbformat.MarkdownCell:
		m.Kind, md, atts = dialog.Note, &c.Metadata, c.Attachments
		m.Content = c.Source.String()
	case *nbformat.CodeCell:
		m.Kind, md = dialog.Code, &c.Metadata
		m.Content = c.Source.String()
		m.ExecutionCount = c.ExecutionCount
		m.Outputs = sourcedOutputs(c.Outputs, nb)
	case *nbformat.RawCell:
		m.Kind, md, atts = dialog.Raw, &c.Metadata, c.Attachments
		m.Content = c.Source.String()
	case *nbformat.UnknownCell:
		g, err := nbformat.Decode(c.Raw)
		if err != nil {
			return err
		}
		obj, _ := g.(map[string]any)
		m.Kind = dialog.Kind(c.Type())
		m.Content = dialog.Text(obj["source"])
		if meta, ok := obj["metadata"].(map[string]any); ok {
			m.Meta = meta
		}
		return nil
	default:
		return fmt.Errorf("unknown cell %T", c)
	}
	meta, err := metaMap(md)
	if err != nil {
		return err
	}
	for d := range o.Registry.All() {
		v, ok := meta[d.Key]
		if !ok {
			continue
		}
		delete(meta, d.Key)
		if d.FromFile != nil {
			v = d.FromFile(v)
		}
		if m.Attrs == nil {
			m.Attrs = map[string]any{}
		}
		m.Attrs[d.Attr] = v
	}
	if v, ok := meta[promptKey]; ok && !dialog.Truthy(v) {
		// A falsy marker says nothing: dropped, as the seed drops it (an
		// unedited cell keeps it in the file).
		delete(meta, promptKey)
	} else if ok && m.Kind == dialog.Note {
		m.Kind = dialog.Prompt
		delete(meta, promptKey)
		if q, reply, ok := strings.Cut(m.Content, ReplySeparator); ok {
			m.Content = q
			m.SetReply(reply)
		}
	}
	m.Meta = meta
	names := make([]string, 0, len(atts))
	for name := range atts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b := atts[name]
		for _, mime := range b.Keys() {
			m.Attachments = append(m.Attachments, attachmentFrom(name, mime, b))
		}
	}
	return nil
}

// ToNotebook converts a dialog (only Options.Messages, if set) to a
// notebook: a dialog read from a notebook becomes that notebook with the
// dialog's changes (version 3 ones become 4.5 once changed), any other an
// nbformat 4.5 notebook. Invalid notebooks are healed (nbformat.Heal).
func (o Options) ToNotebook(d *dialog.Dialog) (*nbformat.Notebook, error) {
	return o.toNotebook(d, o.Messages)
}

func (o Options) toNotebook(d *dialog.Dialog, only []*dialog.Message) (*nbformat.Notebook, error) {
	msgs := d.Messages
	if only != nil {
		msgs = only
	}
	if nb, _ := o.asRead(d, only); nb != nil {
		return readCopy(nb), nil
	}
	org, _ := d.Source.(*origin)
	o = o.carried(org)
	if org != nil && org.nb.Nbformat < 4 && org.valid && only == nil && o.unchanged(d, org) {
		return org.nb, nil
	}
	var nb *nbformat.Notebook
	if org != nil {
		cp := *org.work
		nb = &cp
	} else {
		nb = nbformat.New()
	}
	metaChanged := org == nil || !jsonvalue.Equal(d.Meta, org.meta)
	if metaChanged {
		nb.Metadata = nbformat.NotebookMetadata{}
		if err := nbgeneric.FromMap(nonNil(d.Meta), &nb.Metadata); err != nil {
			return nil, fmt.Errorf("convert: notebook metadata: %w", err)
		}
	}
	// Cells carry ids in 4.5 and later, and in an older file that already
	// has them (Heal then keeps them by raising the minor version).
	ids := cellid.Written(nb.Nbformat, nb.NbformatMinor) || org != nil && hasCellIDs(org.work)
	seen := map[*dialog.Message]bool{}
	nb.Cells = make([]nbformat.Cell, 0, len(msgs))
	built := map[int]builtCell{} // cells made from new or changed messages
	for _, m := range msgs {
		if m == nil {
			return nil, errors.New("convert: nil message")
		}
		if seen[m] {
			return nil, fmt.Errorf("convert: message %s appears twice", m.ID)
		}
		seen[m] = true
		var s *snapshot
		if org != nil {
			s = org.snaps[m]
		}
		if s != nil && o.sameMessage(m, &s.msg) {
			c := s.cell
			if s.generated && ids && nbformat.CellIDOf(c) != nbformat.CellID(m.ID) {
				// The cell had no usable id: write the one the message got.
				c = cloneCell(c)
				nbformat.SetCellID(c, nbformat.CellID(m.ID))
			}
			nb.Cells = append(nb.Cells, c)
			continue
		}
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
		if s != nil && o.Repaired != nil {
			for _, k := range strayMembers(s.cell) {
				o.Repaired(nbformat.Repair{Pointer: nbformat.Pointer(jsonpointer.AppendToken(jsonpointer.AppendIndex("/cells", len(nb.Cells)), k)),
					What: fmt.Sprintf("removed %q, which a %s cell does not have, as the cell was written anew from its changed message", k, s.cell.Type())})
			}
		}
		if s != nil && org.inPlace {
			c = adopt(s.cell, c)
		}
		built[len(nb.Cells)] = builtCell{msg: m, cell: c, snap: s}
		nb.Cells = append(nb.Cells, c)
	}
	if nb.Nbformat == 4 && (org == nil || !org.valid4) {
		var origMeta, newMeta map[string]any
		if org != nil {
			origMeta = org.meta
		}
		if metaChanged {
			newMeta = nonNil(d.Meta)
		}
		repairs, err := healKeepingBOM(nb)
		if err != nil {
			return nil, fmt.Errorf("convert: %w", err)
		}
		var lost []error
		for _, r := range repairs {
			if e := lostValue(r, built, newMeta, origMeta); e != nil {
				lost = append(lost, e)
			} else if o.Repaired != nil {
				o.Repaired(r)
			}
		}
		if len(lost) > 0 {
			return nil, errors.Join(lost...)
		}
	}
	return nb, nil
}

// hasCellIDs reports whether a cell of nb has a valid id.
func hasCellIDs(nb *nbformat.Notebook) bool {
	for _, c := range nb.Cells {
		if nbformat.CellIDOf(c).Valid() {
			return true
		}
	}
	return false
}

// carried returns o with the registry d was read or last written with,
// when o names none.
func (o Options) carried(org *origin) Options {
	if o.Registry == nil && org != nil {
		o.Registry = org.reg
	}
	return o
}

// unchanged reports whether d is exactly as it was read.
func (o Options) unchanged(d *dialog.Dialog, org *origin) bool {
	if !slices.Equal(d.Messages, org.msgs) || !jsonvalue.Equal(d.Meta, org.meta) {
		return false
	}
	for _, m := range d.Messages {
		if !o.sameMessage(m, &org.snaps[m].msg) {
			return false
		}
	}
	return true
}

// ToCell converts one message to a new cell (nbformat 4.5).
func (o Options) ToCell(m *dialog.Message) (nbformat.Cell, error) {
	if err := unwritable(m); err != nil {
		return nil, err
	}
	return o.cell(m, nil, true, nil)
}

// cell builds the cell of a changed or new message, reusing the parts of
// its original cell (s, if any) that did not change and the outputs read
// from the notebook it is written over (from, if any).
func (o Options) cell(m *dialog.Message, s *snapshot, ids bool, from *nbformat.Notebook) (nbformat.Cell, error) {
	id := nbformat.CellID(m.ID)
	if !ids {
		id = ""
	}
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
		if err := nbgeneric.FromMap(meta, &c.Metadata); err != nil {
			return nil, err
		}
		c.Attachments = o.attachments(m, s)
		return c, nil
	case dialog.Code:
		c := &nbformat.CodeCell{CellType: nbformat.CellTypeCode, ID: id, ExecutionCount: m.ExecutionCount}
		c.Source = sourceFor(orig, m.Content)
		if err := nbgeneric.FromMap(meta, &c.Metadata); err != nil {
			return nil, err
		}
		c.Outputs = make([]nbformat.Output, len(m.Outputs))
		for i, out := range m.Outputs {
			no, err := outputFor(out, from)
			if err != nil {
				return nil, fmt.Errorf("convert: message %s: output %d: %w", m.ID, i, err)
			}
			c.Outputs[i] = no
		}
		return c, nil
	case dialog.Raw:
		c := &nbformat.RawCell{CellType: nbformat.CellTypeRaw, ID: id}
		c.Source = sourceFor(orig, m.Content)
		if err := nbgeneric.FromMap(meta, &c.Metadata); err != nil {
			return nil, err
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
	if dialog.Text(obj["source"]) != m.Content {
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
	raw, err := nbgeneric.Encode(obj)
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
func (o Options) cellMeta(m *dialog.Message) (map[string]any, error) {
	meta := make(map[string]any, len(m.Meta)+len(m.Attrs)+1)
	for k, v := range m.Meta {
		meta[k] = v
	}
	for _, attr := range slices.Sorted(maps.Keys(m.Attrs)) {
		if _, ok := o.Registry.ByAttr(attr); !ok {
			return nil, fmt.Errorf("convert: message %s: attribute %q has no descriptor in the registry: %w", m.ID, attr, ErrNoDescriptor)
		}
	}
	for d := range o.Registry.All() {
		v, ok := m.Attrs[d.Attr]
		if !ok {
			if v, ok = m.Meta[d.Key]; !ok {
				continue
			}
		}
		if d.ToFile != nil {
			v = d.ToFile(v)
		}
		if dialog.Truthy(v) {
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
