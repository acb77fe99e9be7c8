package convert

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"

	"github.com/nbdialog/ipynb/dialog"
)

// Snapshots let Marshal tell an unchanged message (written as its original
// cell, byte for byte) from a changed one. Copies share strings and byte
// slices are copied, so comparing an unchanged message costs little.

func copyMessage(m *dialog.Message) dialog.Message {
	c := *m
	c.Meta = deepCopyMap(m.Meta)
	c.Attrs = deepCopyMap(m.Attrs)
	if m.Outputs != nil {
		c.Outputs = make([]dialog.Output, len(m.Outputs))
		for i, o := range m.Outputs {
			c.Outputs[i] = deepCopyMap(o)
		}
	}
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

func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = deepCopy(v)
	}
	return c
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return deepCopyMap(v)
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = deepCopy(x)
		}
		return c
	case dialog.Output:
		return dialog.Output(deepCopyMap(v))
	}
	return v
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
		if !deepEqual(map[string]any(m.Outputs[i]), map[string]any(s.Outputs[i])) {
			return false
		}
	}
	return sameAttachments(m.Attachments, s.Attachments) && deepEqual(m.Meta, s.Meta) && deepEqual(m.Attrs, s.Attrs)
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

// deepEqual compares generic JSON values: a nil map equals an empty one,
// numbers compare by value within their kind (ints with ints, floats with
// floats, NaN equal to NaN), other Go values with reflect.DeepEqual.
func deepEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			if d, isOut := b.(dialog.Output); isOut {
				y, ok = map[string]any(d), true
			}
		}
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !deepEqual(v, w) {
				return false
			}
		}
		return true
	case dialog.Output:
		return deepEqual(map[string]any(x), b)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !deepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case int:
		y, ok := b.(int)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case nil:
		return b == nil
	}
	return reflect.DeepEqual(a, b)
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
