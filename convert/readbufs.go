package convert

// readBufs, the buffers a notebook's messages and snapshots take their texts,
// ids, outputs and counts from, allocated once per notebook.

import (
	"maps"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/nbstyle"
	"github.com/nbdialog/ipynb/nbformat"
)

// readBufs holds what reading a notebook gives its messages and their
// snapshots piece by piece (texts and ids, outputs, execution counts),
// allocated once for the whole notebook: sized by a first look at its
// cells, then cut into capped pieces, so that appending to one never
// writes into another.
type readBufs struct {
	// The outputs of the notebook's cells: reads[k] is output k (in
	// order) as read, outs[k] its dialog output (made beforehand, over
	// reads[k]); next is the first not yet given to a message.
	reads    []readOutput
	outs     []dialog.Output
	next     int
	snapOuts []dialog.Output // the snapshots' copies of outs
	counts   []int           // execution counts, a message's and its snapshot's
	// texts holds the messages' texts that are not the bytes read
	// themselves (see nbstyle.TextInto) and the ids derived, each a part
	// of its string (never changed: a strings.Builder only appends).
	texts strings.Builder
	// shared holds the snapshots' copies of metadata made only of the
	// flags older writers put in every code cell (see sharedMeta).
	shared [16]map[string]any
}

// sharedFlags are the metadata keys sharedMeta shares the copies of, when
// they hold booleans: "collapsed" (in every code cell of version 3
// notebooks and of many version 4.0–4.4 ones) and "scrolled".
var sharedFlags = [2]string{"collapsed", "scrolled"}

// sharedMeta returns a copy of meta for the snapshots of the notebook's
// messages when meta is made only of sharedFlags holding booleans: one
// copy of each such metadata per notebook, shared by every snapshot whose
// message has it (a snapshot's metadata is never changed, as it may
// already share the cell's own map: see copyMessage), rather than one per
// message; nil otherwise (and for b nil), the caller then copying meta.
func (b *readBufs) sharedMeta(meta map[string]any) map[string]any {
	if b == nil || len(meta) == 0 || len(meta) > len(sharedFlags) {
		return nil
	}
	k := 0 // per flag, two bits: present, and its value
	for key, v := range meta {
		on, ok := v.(bool)
		if !ok {
			return nil
		}
		i := 0
		for i < len(sharedFlags) && sharedFlags[i] != key {
			i++
		}
		if i == len(sharedFlags) {
			return nil
		}
		k |= 1 << (2 * i)
		if on {
			k |= 2 << (2 * i)
		}
	}
	if b.shared[k] == nil {
		b.shared[k] = maps.Clone(meta)
	}
	return b.shared[k]
}

// size sizes the buffers for the cells of nb, whose cells carry ids of
// their own if fileIDs (else each message's id is derived), and returns
// the number of cells with an id (not empty) in the file.
func (b *readBufs) size(nb *nbformat.Notebook, fileIDs bool) (withIDs int) {
	outs, counts, texts := 0, 0, 0
	for _, c := range nb.Cells {
		var src *nbformat.MultilineString
		var id nbformat.CellID
		switch c := c.(type) {
		case *nbformat.CodeCell:
			outs += len(c.Outputs)
			if c.ExecutionCount != nil {
				counts += 2
			}
			src, id = &c.Source, c.ID
		case *nbformat.MarkdownCell:
			src, id = &c.Source, c.ID
		case *nbformat.RawCell:
			src, id = &c.Source, c.ID
		default:
			id = nbformat.CellIDOf(c)
		}
		if src != nil {
			if raw, ok := src.RawJSON(); ok {
				texts += nbstyle.TextBound(raw)
			}
		}
		if id != "" {
			withIDs++
		}
		if !fileIDs || !cellid.Valid(string(id)) {
			texts += 8 // a derived id
		}
	}
	// The messages' and the snapshots' output lists in one allocation,
	// capped apart; the messages' made at once.
	both := make([]dialog.Output, 2*outs)
	b.reads = make([]readOutput, outs)
	b.outs, b.snapOuts = both[:outs:outs], both[outs:outs:2*outs]
	for i := range b.reads {
		b.outs[i] = dialog.SourcedOutput(&b.reads[i])
	}
	b.counts = make([]int, 0, counts)
	b.texts.Grow(texts)
	return withIDs
}

// text returns the text of m (nil b: its String): the bytes read
// themselves, or a part of b.texts (see nbstyle.TextInto); a text built in
// memory is its String.
func (b *readBufs) text(m *nbformat.MultilineString) string {
	if b == nil {
		return m.String()
	}
	if raw, ok := m.RawJSON(); ok {
		return nbstyle.TextInto(raw, &b.texts)
	}
	return m.String()
}

// take returns the next n elements of buf (allocated anew when buf has
// no room: b nil, or a cell changed since the buffers were sized) and
// what is left of buf.
func take[T any](buf []T, n int) (piece, rest []T) {
	if len(buf)+n > cap(buf) {
		return make([]T, n), buf
	}
	piece = buf[len(buf) : len(buf)+n : len(buf)+n]
	return piece, buf[:len(buf)+n]
}

// count returns a pointer to a copy of n.
func (b *readBufs) count(n int) *int {
	if b == nil {
		p := new(int) // (not &n, which would move n to the heap on every call)
		*p = n
		return p
	}
	var p []int
	p, b.counts = take(b.counts, 1)
	p[0] = n
	return &p[0]
}

// sourcedOutputs returns the dialog outputs of outs, outputs of a cell of
// nb (nil: of a cell not known to belong to a notebook): the next of
// those made beforehand (allocated one by one when b is nil, or has too
// few: a cell changed since the buffers were sized).
func (b *readBufs) sourcedOutputs(outs []nbformat.Output, nb *nbformat.Notebook) []dialog.Output {
	if b != nil && b.next+len(outs) <= len(b.reads) {
		k := b.next
		b.next += len(outs)
		for i, out := range outs {
			b.reads[k+i] = readOutput{out: out, nb: nb}
		}
		return b.outs[k : k+len(outs) : k+len(outs)]
	}
	rs, d := make([]readOutput, len(outs)), make([]dialog.Output, len(outs))
	for i, out := range outs {
		rs[i] = readOutput{out: out, nb: nb}
		d[i] = dialog.SourcedOutput(&rs[i])
	}
	return d
}

// snapshotOutputs returns a copy of a message's outputs for its snapshot.
func (b *readBufs) snapshotOutputs(outs []dialog.Output) []dialog.Output {
	if outs == nil {
		return nil
	}
	var c []dialog.Output
	if b == nil {
		c = make([]dialog.Output, len(outs))
	} else {
		c, b.snapOuts = take(b.snapOuts, len(outs))
	}
	copy(c, outs)
	return c
}
