package convert

import (
	"bytes"
	"encoding/json"

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
	return sameAttachments(m.Attachments, s.Attachments) && sameMeta(m.Meta, s.Meta) && sameMeta(m.Attrs, s.Attrs)
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

// sameValue is jsonvalue.Equal(v, w), without its general walk for
// strings, booleans, null, ints and json.RawMessage (which it compares by
// reflect.DeepEqual: both nil, or both not nil and of the same bytes).
func sameValue(v, w any) bool {
	switch x := v.(type) {
	case string:
		y, ok := w.(string)
		return ok && x == y
	case bool:
		y, ok := w.(bool)
		return ok && x == y
	case int:
		y, ok := w.(int)
		return ok && x == y
	case nil:
		return w == nil
	case json.RawMessage:
		y, ok := w.(json.RawMessage)
		return ok && (x == nil) == (y == nil) && bytes.Equal(x, y)
	}
	return jsonvalue.Equal(v, w)
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
