package convert

// The base versions of a merge's conflicts, copied so that they hold nothing of base's input.

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// detachBase replaces the base version of each conflict by a copy that
// does not refer to base's input (its outputs decoded, its texts and
// values copied, every string its own), so that base's input need not
// stay in memory beside the result for a conflict's sake. (A string of a
// value read shares its input's bytes: one such string kept would keep
// all of base's.) Without outputs (MergeTo's conflicts), the copies hold
// none: base's outputs, which neither side may hold (both re-ran the
// cell), would be as large as base's input, kept past the merge for
// nothing it writes.
func detachBase(conflicts []dialog.Conflict, outputs bool) {
	for i := range conflicts {
		c := &conflicts[i]
		if c.Base != nil {
			m := c.Base
			if !outputs && m.Outputs != nil {
				cp := *m
				cp.Outputs = nil
				m = &cp
			}
			c.Base = detachedMessage(m, c.Ours, c.Theirs)
		}
	}
}

// detachedMessage is a copy of m holding nothing of the input it was
// read from, except outputs it shares: an output that one of others
// (ours' and theirs' versions, which stay in memory anyway) holds at the
// same place with the same source text is that one; another is decoded
// into a copy (one that does not decode is kept as it is).
func detachedMessage(m *dialog.Message, others ...*dialog.Message) *dialog.Message {
	c := *m
	c.ID, c.Kind, c.Content = strings.Clone(m.ID), dialog.Kind(strings.Clone(string(m.Kind))), strings.Clone(m.Content)
	if m.ExecutionCount != nil {
		n := *m.ExecutionCount
		c.ExecutionCount = &n
	}
	if m.Outputs != nil {
		c.Outputs = make([]dialog.Output, len(m.Outputs))
	outputs:
		for j, out := range m.Outputs {
			for _, o := range others {
				if o != nil && j < len(o.Outputs) {
					if a, b := out.Source(), o.Outputs[j].Source(); a != nil && b != nil && a.Same(b) {
						c.Outputs[j] = o.Outputs[j]
						continue outputs
					}
				}
			}
			if g, err := out.Map(); err == nil {
				c.Outputs[j] = dialog.NewOutput(ownedObject(g))
			} else {
				c.Outputs[j] = out
			}
		}
	}
	if m.Attachments != nil {
		c.Attachments = make([]dialog.Attachment, len(m.Attachments))
		for j, a := range m.Attachments {
			c.Attachments[j] = dialog.Attachment{ID: strings.Clone(a.ID), MIME: strings.Clone(a.MIME), Data: bytes.Clone(a.Data)}
		}
	}
	c.Meta, c.Attrs = ownedObject(m.Meta), ownedObject(m.Attrs)
	return &c
}

// ownedObject is a deep copy of m (as jsonvalue.CloneObject copies) whose
// strings, keys and json.Number and json.RawMessage values are copies
// too. A value nested deeper than any read (which a value that contains
// itself would be) is copied by jsonvalue.CloneObject, its strings
// shared.
func ownedObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	if out, ok := owned(m, 0).(map[string]any); ok {
		return out
	}
	return jsonvalue.CloneObject(m)
}

// owned is ownedObject's copy of v at nesting depth; nil past
// defaultMaxDepth.
func owned(v any, depth int) any {
	if depth > defaultMaxDepth {
		return nil
	}
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			y := owned(x, depth+1)
			if y == nil && x != nil {
				return nil
			}
			out[strings.Clone(k)] = y
		}
		return out
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, x := range v {
			y := owned(x, depth+1)
			if y == nil && x != nil {
				return nil
			}
			out[i] = y
		}
		return out
	case string:
		return strings.Clone(v)
	case json.Number:
		return json.Number(strings.Clone(string(v)))
	case json.RawMessage:
		if v == nil {
			return v
		}
		return json.RawMessage(bytes.Clone(v))
	}
	return jsonvalue.Clone(v)
}
