package convert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/nbformat"
)

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
	org := &origin{nb: nb, work: work, meta: cloneObject(meta), reg: o.Registry, pristine: pristine}
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
	bufs := newReadBufs(work)
	for i, c := range work.Cells {
		m := &msgs[i]
		sameMeta, err := o.toMessage(m, c, work, bufs)
		if err != nil {
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
			if work != nb {
				// The upgrade's own cell (see upgradedCopy): it takes the
				// message's id, which writing it would give it anyway.
				if _, unknown := c.(*nbformat.UnknownCell); !unknown {
					nbformat.SetCellID(c, nbformat.CellID(m.ID))
				}
			}
		}
		if seenMap != nil {
			seenMap[m.ID] = true
		}
		d.Messages = append(d.Messages, m)
		org.msgs = append(org.msgs, m)
		snaps[i] = snapshot{msg: copyMessage(m, sameMeta, bufs), cell: c, generated: generated}
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
	if _, err := o.toMessage(m, c, nil, nil); err != nil {
		return nil, err
	}
	return m, nil
}

// toMessage converts cell c of notebook nb (nil: unknown) to a message,
// set in *m (a zero message), its pieces taken from b (nil: allocated one
// by one). sameMeta is, when not nil, a map of the cell's equal to m.Meta
// that no one changes (see metaMap), which a snapshot of m can share.
func (o Options) toMessage(m *dialog.Message, c nbformat.Cell, nb *nbformat.Notebook, b *readBufs) (sameMeta map[string]any, err error) {
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
		if c.ExecutionCount != nil {
			// The message's own: changing it leaves the cell as read.
			m.ExecutionCount = b.count(*c.ExecutionCount)
		}
		m.Outputs = b.sourcedOutputs(c.Outputs, nb)
	case *nbformat.RawCell:
		m.Kind, md, atts = dialog.Raw, &c.Metadata, c.Attachments
		m.Content = c.Source.String()
	case *nbformat.UnknownCell:
		g, err := nbformat.Decode(c.Raw)
		if err != nil {
			return nil, err
		}
		obj, _ := g.(map[string]any)
		m.Kind = dialog.Kind(c.Type())
		m.Content = dialog.Text(obj["source"])
		if meta, ok := obj["metadata"].(map[string]any); ok {
			m.Meta = meta
		}
		return nil, nil
	default:
		return nil, fmt.Errorf("unknown cell %T", c)
	}
	meta, sameMeta, err := metaMap(md)
	if err != nil {
		return nil, err
	}
	for d := range o.Registry.All() {
		v, ok := meta[d.Key]
		if !ok {
			continue
		}
		delete(meta, d.Key)
		sameMeta = nil
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
		sameMeta = nil
	} else if ok && m.Kind == dialog.Note {
		m.Kind = dialog.Prompt
		delete(meta, promptKey)
		sameMeta = nil
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
	return sameMeta, nil
}
