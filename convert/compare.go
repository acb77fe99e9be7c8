package convert

import (
	"bytes"
	"reflect"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
)

// Snapshots let Marshal tell an unchanged message (written as its original
// cell, byte for byte) from a changed one. Copies share strings and byte
// slices are copied, so comparing an unchanged message costs little.

func copyMessage(m *dialog.Message) dialog.Message {
	c := *m
	// Empty maps are kept as nil, which compares equal to empty.
	c.Meta, c.Attrs = nil, nil
	if len(m.Meta) > 0 {
		c.Meta = jsonvalue.CloneObject(m.Meta)
	}
	if len(m.Attrs) > 0 {
		c.Attrs = jsonvalue.CloneObject(m.Attrs)
	}
	// Outputs never change: a copy of the list is a copy of them.
	c.Outputs = slices.Clone(m.Outputs)
	if m.ExecutionCount != nil {
		n := *m.ExecutionCount
		c.ExecutionCount = &n
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

// metaMap returns a cell's metadata (a pointer to a generated metadata
// struct) as a generic object: a new empty map, without reflection's
// conversion, when the struct holds nothing (every typed member optional
// and nil, no other key), as most cells' metadata does.
func metaMap(md any) (map[string]any, error) {
	if emptyStruct(md) {
		return map[string]any{}, nil
	}
	return nbgeneric.ToMap(md)
}

// emptyStruct reports whether ptr points to a struct whose fields are all
// nil pointers, slices, maps or interfaces, or empty maps: one that
// nbgeneric.ToMap gives as {} (such fields are optional members in the
// generated structs, written only when not nil). A field of another kind
// gives false.
func emptyStruct(ptr any) bool {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	v = v.Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Map:
			if f.Len() > 0 {
				return false
			}
		case reflect.Pointer, reflect.Slice, reflect.Interface:
			if !f.IsNil() {
				return false
			}
		default:
			return false
		}
	}
	return true
}
