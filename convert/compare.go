package convert

import (
	"bytes"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Snapshots let Marshal tell an unchanged message (written as its original
// cell, byte for byte) from a changed one. Copies share strings and byte
// slices are copied, so comparing an unchanged message costs little.

// copyMessage returns a snapshot of m, its pieces taken from b (nil:
// allocated one by one). sameMeta, if not nil, is a map equal to m.Meta
// that no one changes (see metaMap): the copy shares it rather than copy
// m.Meta.
func copyMessage(m *dialog.Message, sameMeta map[string]any, b *readBufs) dialog.Message {
	c := *m
	switch {
	case sameMeta == nil:
		if c.Meta = b.sharedMeta(m.Meta); c.Meta == nil {
			c.Meta = cloneMeta(m.Meta)
		}
	case len(sameMeta) == 0:
		c.Meta = nil // as cloneMeta gives it
	default:
		c.Meta = sameMeta
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
	return c
}

// sameMessage reports whether m is as it was read (s).
func (o Options) sameMessage(m, s *dialog.Message) bool {
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
	return sameAttachments(m.Attachments, s.Attachments) && jsonvalue.Equal(m.Meta, s.Meta) && jsonvalue.Equal(m.Attrs, s.Attrs)
}

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
