package convert

// Reading a dialog from a notebook (toDialog): messages from cells, their
// attributes, and the ids given to cells without a usable one.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/truthy"
	"github.com/nbdialog/ipynb/nbformat"
)

// toDialog is ToDialog of nb, read from data (nil: not
// known), which nb keeps and no one changes.
func (o options) toDialog(nb *nbformat.Notebook, data []byte) (*File, error) {
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
	r := &readDialog{}
	d, org := &r.d, &r.org
	meta, _, fast, err := metaMapFast(&work.Metadata)
	if err != nil {
		return nil, fmt.Errorf("convert: notebook metadata: %w", err)
	}
	d.Meta = meta
	*org = origin{nb: nb, work: work, reg: o.Registry, pristine: pristine, data: data}
	if org.metaTyped = fast && pristine; !org.metaTyped {
		org.meta = cloneObject(meta)
	}
	if nb.Nbformat < 4 {
		org.valid = org.validate() == nil
	}
	// Ids the file does not give (all of them in version 2 and 3, whose
	// upgrade made up random ones) are derived from the cell's position
	// and content, so that reading the same file gives the same ids.
	fileIDs := nb.Nbformat >= 4
	n := len(work.Cells)
	cells := make([]readCell, n) // messages and snapshots, one allocation for all
	org.cells = cells
	ptrs := make([]*dialog.Message, 2*n) // d.Messages and org.msgs, capped apart
	d.Messages, org.msgs = ptrs[:0:n], ptrs[n:n:2*n]
	bufs := &r.bufs
	withIDs := bufs.size(work, fileIDs)
	ids := idsOf{n: n, cells: work.Cells, fileIDs: fileIDs && withIDs > 0, msgs: cells}
	for i, c := range work.Cells {
		m := &cells[i].msg
		ms, err := o.toMessage(m, c, work, bufs)
		if err != nil {
			return nil, fmt.Errorf("convert: /cells/%d: %w", i, err)
		}
		generated := false
		if !fileIDs || !cellid.Valid(m.ID) || ids.seen(i, m.ID) {
			m.ID = cellid.DeriveInto(&bufs.texts, i, string(m.Kind), m.Content, func(id string) bool { return ids.taken(i, id) })
			ids.derived(m.ID)
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
		ids.given(m.ID)
		d.Messages = append(d.Messages, m)
		org.msgs = append(org.msgs, m)
		ms.snapshotInto(&cells[i].snap, m, c, generated, bufs)
	}
	f := &r.f
	f.Dialog, f.org = d, org
	return f, nil
}

// takeAttrs sets m.Meta to meta, a cell's metadata as generic JSON,
// without the keys the registry declares (set in m.Attrs) and the prompt
// marker (a markdown message with a truthy one is a prompt, its reply
// split off its content), and returns sameMeta (a map no one changes
// equal to meta, see metaMap), or nil if a key was taken out of meta.
func (o options) takeAttrs(m *dialog.Message, meta, sameMeta map[string]any) map[string]any {
	for d := range o.Registry.each() {
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
	if v, ok := meta[promptKey]; ok && !truthy.Of(v) {
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
	return sameMeta
}

// readDialog is what reading a dialog allocates once per notebook: the
// dialog, its origin and the buffers its messages take their pieces from
// (the dialog returned points into it, and keeps it alive).
type readDialog struct {
	f    File
	d    dialog.Dialog
	org  origin
	bufs readBufs
}

// idScan is the number of cells up to which ToDialog finds ids in use by
// scanning cells and messages rather than through maps.
const idScan = 32

// idsOf tracks the ids of a notebook's messages while they are read: the
// ids given so far (a repeated one is replaced), and those taken (the
// cells' own ids in the file, and the ids given so far), which a derived
// id must avoid. Up to idScan cells it scans the cells and messages, but
// only for an id its filters may hold (most ids are in neither: no
// scan); beyond, it keeps maps, made when first needed.
type idsOf struct {
	n        int             // the number of cells
	cells    []nbformat.Cell // (nil when fileIDs is false)
	fileIDs  bool            // the cells' ids in the file are taken (version 4)
	msgs     []readCell      // the messages, those before the current one given
	givenSet map[string]bool
	takenSet map[string]bool
	// Up to idScan cells: the ids given so far, and the cells' ids in
	// the file (made at the first look: filed).
	givenIn, fileIn idFilter
	filed           bool
}

// idFilter is a set of ids that may answer yes for an id not in it, never
// no for one in it (a Bloom filter of one hash over 256 bits): an id it
// does not hold was never added.
type idFilter [4]uint64

// idBit is the bit of id in an idFilter: its length and three of its
// bytes mixed (ids differ most in their last and middle bytes: counters,
// hex digits).
func idBit(id string) uint8 {
	if id == "" {
		return 0
	}
	return uint8(len(id)) ^ id[0]*7 ^ id[len(id)/2]*31 ^ id[len(id)-1]*131
}

func (f *idFilter) add(id string) { k := idBit(id); f[k>>6] |= 1 << (k & 63) }

func (f *idFilter) mayHave(id string) bool { k := idBit(id); return f[k>>6]&(1<<(k&63)) != 0 }

// seen reports whether a message before message i has the id.
func (s *idsOf) seen(i int, id string) bool {
	if s.n <= idScan {
		if !s.givenIn.mayHave(id) {
			return false
		}
		for j := range i {
			if s.msgs[j].msg.ID == id {
				return true
			}
		}
		return false
	}
	return s.givenSet[id]
}

// taken reports whether a derived id for message i is in use: the id of
// a cell in the file, or of a message before i.
func (s *idsOf) taken(i int, id string) bool {
	if s.n <= idScan {
		if s.fileIDs {
			if !s.filed {
				for _, c := range s.cells {
					s.fileIn.add(string(nbformat.CellIDOf(c)))
				}
				s.filed = true
			}
			if s.fileIn.mayHave(id) {
				for _, c := range s.cells {
					if string(nbformat.CellIDOf(c)) == id {
						return true
					}
				}
			}
		}
		return s.seen(i, id)
	}
	if s.takenSet == nil {
		s.takenSet = make(map[string]bool, s.n)
		if s.fileIDs {
			for _, c := range s.cells {
				s.takenSet[string(nbformat.CellIDOf(c))] = true
			}
		}
		for j := range i {
			s.takenSet[s.msgs[j].msg.ID] = true
		}
	}
	return s.takenSet[id]
}

// derived records an id derived for the current message.
func (s *idsOf) derived(id string) {
	if s.takenSet != nil {
		s.takenSet[id] = true
	}
}

// given records the id of the current message, once set.
func (s *idsOf) given(id string) {
	if s.n <= idScan {
		s.givenIn.add(id)
		return
	}
	if s.givenSet == nil {
		s.givenSet = make(map[string]bool, s.n)
	}
	s.givenSet[id] = true
}

// toMessage converts cell c of notebook nb (nil: unknown) to a message,
// set in *m (a zero message), its pieces taken from b (nil: allocated one
// by one), and tells what a snapshot of m can take m.Meta from without
// copying it (see metaSnap).
func (o options) toMessage(m *dialog.Message, c nbformat.Cell, nb *nbformat.Notebook, b *readBufs) (ms metaSnap, err error) {
	var md any
	var atts map[string]nbformat.MimeBundle
	switch c := c.(type) {
	case *nbformat.MarkdownCell:
		m.ID, m.Kind, md, atts = string(c.ID), dialog.Note, &c.Metadata, c.Attachments
		m.Content = b.text(&c.Source)
	case *nbformat.CodeCell:
		m.ID, m.Kind, md = string(c.ID), dialog.Code, &c.Metadata
		m.Content = b.text(&c.Source)
		if c.ExecutionCount != nil {
			// The message's own: changing it leaves the cell as read.
			m.ExecutionCount = b.count(*c.ExecutionCount)
		}
		m.Outputs = b.sourcedOutputs(c.Outputs, nb)
	case *nbformat.RawCell:
		m.ID, m.Kind, md, atts = string(c.ID), dialog.Raw, &c.Metadata, c.Attachments
		m.Content = b.text(&c.Source)
	case *nbformat.UnknownCell:
		m.ID = string(nbformat.CellIDOf(c))
		g, err := nbformat.Decode(c.Raw)
		if err != nil {
			return metaSnap{}, err
		}
		obj, _ := g.(map[string]any)
		m.Kind = dialog.Kind(c.Type())
		m.Content = lines.Text(obj["source"])
		if meta, ok := obj["metadata"].(map[string]any); ok {
			m.Meta = meta
		}
		return metaSnap{}, nil
	default:
		return metaSnap{}, fmt.Errorf("unknown cell %T", c)
	}
	meta, same, fast, err := metaMapFast(md)
	if err != nil {
		return metaSnap{}, err
	}
	n := len(meta)
	same = o.takeAttrs(m, meta, same)
	switch {
	case len(meta) != n:
		// A key was taken out: the snapshot copies what is left.
	case same != nil:
		ms.same = same
	case fast:
		ms.md = md // typed members MetaMap read, nothing taken out
	}
	if len(atts) == 0 {
		return ms, nil
	}
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
	return ms, nil
}
