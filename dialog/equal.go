package dialog

// Equality of messages in everything but their ids: outputs, counts,
// attachments and metadata.

import (
	"bytes"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

func sameOutputs(a, b []Output) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func sameCount(a, b *int) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func sameAttachments(a, b []Attachment) bool {
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

// sameMessage reports whether a and b are equal in everything but their
// ids.
func sameMessage(a, b *Message) bool {
	return a.Kind == b.Kind && a.Content == b.Content && sameCount(a.ExecutionCount, b.ExecutionCount) &&
		sameOutputs(a.Outputs, b.Outputs) && sameAttachments(a.Attachments, b.Attachments) &&
		jsonvalue.EqualObjects(nonNilMap(a.Meta), nonNilMap(b.Meta)) && jsonvalue.EqualObjects(nonNilMap(a.Attrs), nonNilMap(b.Attrs))
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
