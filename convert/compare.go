package convert

import (
	"bytes"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Snapshots let Marshal tell an unchanged message (written as its original
// cell, byte for byte) from a changed one. Copies share strings and byte
// slices are copied, so comparing an unchanged message costs little.

// metaSnap is what the snapshot of a message read can take its Meta as
// read from without copying it: same, a map equal to Meta that no one
// changes (the cell's own, see metaMap), or else md, the cell's typed
// metadata, which nbmap.MetaMap read into Meta with no key removed (see
// sameAsTyped); with neither, the snapshot copies Meta.
type metaSnap struct {
	same map[string]any
	md   any
}

// snapshotInto sets *s (a zero snapshot, where it stays: no copy of it
// is made) to the snapshot of m, read from cell c (generated: its id was
// made here) as ms tells, its pieces taken from b.
func (ms metaSnap) snapshotInto(s *snapshot, m *dialog.Message, c nbformat.Cell, generated bool, b *readBufs) {
	copyMessageInto(&s.msg, m, ms, b)
	s.cell, s.generated = c, generated
	if s.msg.Meta == nil && len(m.Meta) > 0 {
		s.meta = ms.md // (copyMessage took neither a map nor a copy)
	}
}

// asRead returns the message as read: s.msg, its Meta made from the
// cell's typed metadata when s holds it so (a map of its own).
func (s *snapshot) asRead() dialog.Message {
	m := s.msg
	if s.meta != nil {
		m.Meta, _, _ = metaMap(s.meta) // (read once without error: no error)
	}
	return m
}

// copyMessage returns a copy of m for its snapshot, its pieces taken from
// b (nil: allocated one by one), its Meta from ms: the map ms.same, or
// one b shares among the notebook's snapshots (sharedMeta), or, when
// ms.md is set, none (nil: the snapshot compares with ms.md), else a
// copy of m.Meta.
func copyMessage(m *dialog.Message, ms metaSnap, b *readBufs) dialog.Message {
	var c dialog.Message
	copyMessageInto(&c, m, ms, b)
	return c
}

// copyMessageInto is copyMessage, the copy set in *c.
func copyMessageInto(c *dialog.Message, m *dialog.Message, ms metaSnap, b *readBufs) {
	*c = *m
	switch {
	case ms.same == nil:
		if c.Meta = b.sharedMeta(m.Meta); c.Meta == nil {
			if ms.md == nil {
				c.Meta = cloneMeta(m.Meta)
			}
		}
	case len(ms.same) == 0:
		c.Meta = nil // as cloneMeta gives it
	default:
		c.Meta = ms.same
	}
	c.Attrs = cloneMeta(m.Attrs)
	// Outputs never change: a copy of the list is a copy of them.
	c.Outputs = b.snapshotOutputs(m.Outputs)
	if m.ExecutionCount != nil {
		c.ExecutionCount = b.count(*m.ExecutionCount)
	}
	if m.Attachments != nil {
		c.Attachments = make([]dialog.Attachment, len(m.Attachments))
		for i, a := range m.Attachments {
			a.Data = bytes.Clone(a.Data)
			c.Attachments[i] = a
		}
	}
}

// sameMessage reports whether m is as it was read (snapshot sn).
func (o options) sameMessage(m *dialog.Message, sn *snapshot) bool {
	s := &sn.msg
	if m.ID != s.ID || m.Kind != s.Kind || m.Content != s.Content {
		return false
	}
	if (m.ExecutionCount == nil) != (s.ExecutionCount == nil) || m.ExecutionCount != nil && *m.ExecutionCount != *s.ExecutionCount {
		return false
	}
	if len(m.Outputs) != len(s.Outputs) {
		return false
	}
	for i := range m.Outputs {
		if !m.Outputs[i].Equal(s.Outputs[i]) {
			return false
		}
	}
	if !sameAttachments(m.Attachments, s.Attachments) || !sameMeta(m.Attrs, s.Attrs) {
		return false
	}
	if sn.meta != nil {
		same, ok := sameAsTyped(m.Meta, sn.meta)
		return ok && same // (ok: MetaMap read it when it was read)
	}
	return sameMeta(m.Meta, s.Meta)
}

// sameMeta reports whether a message's metadata (or attributes) m equals
// its snapshot s, as jsonvalue.Equal compares them (a nil object equals
// an empty one): the values most metadata holds compared here, the rest
// by jsonvalue.Equal.
func sameMeta(m, s map[string]any) bool {
	if len(m) != len(s) {
		return false
	}
	for k, v := range m {
		w, ok := s[k]
		if !ok || !sameValue(v, w) {
			return false
		}
	}
	return true
}

// sameValue is jsonvalue.Equal(v, w), cheaper for the values most
// metadata holds (see nbmap.SameValue).
func sameValue(v, w any) bool { return nbmap.SameValue(v, w) }

func sameAttachments(a, b []dialog.Attachment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].MIME != b[i].MIME || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
