package dialog

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
)

// same compares generic JSON values (as nbformat reads them): maps
// key by key (a nil map equals an empty one), lists element by element,
// numbers by value within their kind (NaN equal to NaN).
func same(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := mapOf(b)
		return ok && sameMap(x, y)
	case Output:
		y, ok := mapOf(b)
		return ok && sameMap(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
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

func mapOf(v any) (map[string]any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return v, true
	case Output:
		return map[string]any(v), true
	}
	return nil, false
}

// sameMap compares maps key by key; nil equals empty.
func sameMap(x, y map[string]any) bool {
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		w, ok := y[k]
		if !ok || !same(v, w) {
			return false
		}
	}
	return true
}

func sameOutputs(a, b []Output) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameMap(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameOutputsButCounts is sameOutputs ignoring execute_result counts.
func sameOutputsButCounts(a, b []Output) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type() == "execute_result" && y.Type() == "execute_result" {
			x, y = withoutCount(x), withoutCount(y)
		}
		if !sameMap(x, y) {
			return false
		}
	}
	return true
}

func withoutCount(o Output) Output {
	c := make(Output, len(o))
	for k, v := range o {
		if k != "execution_count" {
			c[k] = v
		}
	}
	return c
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
		sameMap(nonNilMap(a.Meta), nonNilMap(b.Meta)) && sameMap(nonNilMap(a.Attrs), nonNilMap(b.Attrs))
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
