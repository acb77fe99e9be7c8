package dialog

import (
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// entry merges one message's versions into the merged message (nil: it
// is gone), giving it an id not yet taken.
func (mg *merger) entry(e *entry, out *Dialog, taken map[string]bool) *Message {
	mg.first = len(mg.conflicts)
	var m *Message
	switch {
	case e.o != nil && e.t != nil:
		b := e.b
		if b == nil {
			b = &Message{} // an empty base: all either side has is added
			if e.o.Kind != e.t.Kind || e.o.Content != e.t.Content {
				// Added on both sides: a conflict of whole texts.
				mg.add(Conflict{ID: e.o.ID, What: "added on both sides", Ours: e.o, Theirs: e.t})
			}
		}
		m = mg.message(b, e.o, e.t, e.b == nil)
	case e.o != nil && e.b == nil:
		m = e.o
	case e.t != nil && e.b == nil:
		m = e.t
	case e.o != nil: // theirs deleted it, ours edited it
		m = mg.deleted(e.b, e.o, true)
	case e.t != nil:
		m = mg.deleted(e.b, e.t, false)
	default:
		return nil
	}
	if taken[m.ID] || m.ID == "" {
		c := *m
		c.ID = out.newIDNotIn(taken)
		mg.renamed(m.ID, c.ID)
		m = &c
	}
	taken[m.ID] = true
	return m
}

// renamed updates the conflicts recorded for the message being merged,
// whose id changed.
func (mg *merger) renamed(old, id string) {
	for i := mg.first; i < len(mg.conflicts); i++ {
		if mg.conflicts[i].ID == old {
			mg.conflicts[i].ID = id
		}
	}
}

func (mg *merger) add(c Conflict) { mg.conflicts = append(mg.conflicts, c) }

// deleted handles a message one side deleted and the other edited (kept,
// edited): the edited message, its content set against nothing.
func (mg *merger) deleted(b, kept *Message, oursKept bool) *Message {
	m := cloneMessage(kept)
	c := Conflict{ID: kept.ID, Base: b}
	if oursKept {
		c.What, c.Ours = "deleted by theirs, edited by ours", kept
		m.Content = textdiff.Conflict(kept.Content, "", mg.mk)
	} else {
		c.What, c.Theirs = "deleted by ours, edited by theirs", kept
		m.Content = textdiff.Conflict("", kept.Content, mg.mk)
	}
	mg.add(c)
	return m
}

// message merges a message both sides kept (added: b is an empty message
// and the pair was already reported if it differs).
func (mg *merger) message(b, o, t *Message, added bool) *Message {
	m := mg.message3(b, o, t, added)
	if m.ID != t.ID && mg.unkeyed(o) && !mg.unkeyed(t) {
		// Theirs' id is an identity, ours' made up: keep theirs'.
		if m == o {
			if mg.same(o, t) && o.Kind == t.Kind {
				return t
			}
			m = cloneMessage(o)
		}
		mg.renamed(m.ID, t.ID)
		m.ID = t.ID
	}
	return m
}

func (mg *merger) unkeyed(m *Message) bool { return mg.opt.Unkeyed != nil && mg.opt.Unkeyed(m) }

func (mg *merger) message3(b, o, t *Message, added bool) *Message {
	switch {
	case mg.same(t, b), mg.same(o, t):
		return o
	case mg.same(o, b):
		return t
	}
	m := cloneMessage(o)
	conflict := func(what string, vals ...any) {
		if added && (what == "content" || what == "kind") {
			return // reported once as "added on both sides"
		}
		c := Conflict{ID: o.ID, What: what, Ours: o, Theirs: t}
		if !added {
			c.Base = b
		}
		if len(vals) == 3 {
			c.Values = [3]any{vals[0], vals[1], vals[2]}
		}
		mg.add(c)
	}
	// Kind.
	switch {
	case o.Kind == b.Kind:
		m.Kind = t.Kind
	case t.Kind == b.Kind, t.Kind == o.Kind:
	default:
		conflict("kind", string(b.Kind), string(o.Kind), string(t.Kind))
	}
	// Content.
	if text, n := textdiff.MergeText(b.Content, o.Content, t.Content, mg.mk); n > 0 {
		m.Content = text
		conflict("content")
	} else {
		m.Content = text
	}
	// Prompt replies are text too; the other outputs are derived data.
	rb, ro, rt := b.Reply(), o.Reply(), t.Reply()
	outs, count := mg.outputs(withoutReply(b), withoutReply(o), withoutReply(t), b, o, t, conflict)
	m.Outputs, m.ExecutionCount = outs, count
	if rb != "" || ro != "" || rt != "" {
		reply, n := textdiff.MergeText(rb, ro, rt, mg.mk)
		if n > 0 {
			conflict("reply")
		}
		if m.Kind == Prompt {
			m.SetReply(reply)
		} else if reply != "" {
			m.Outputs = append([]Output{replyOutput(reply)}, m.Outputs...)
		}
	}
	if (m.Kind == Note || m.Kind == Raw) && m.Outputs != nil {
		if len(m.Outputs) > 0 {
			// One side made it a note or raw message, the other changed
			// its outputs: they have no place any more.
			conflict("outputs of a message that is no longer code", nil, o.Outputs, t.Outputs)
		}
		m.Outputs, m.ExecutionCount = nil, nil
	}
	// Metadata and attributes, key by key.
	m.Meta = mg.mergeMap(b.Meta, o.Meta, t.Meta, "", func(path string, v [3]any) { conflict("metadata key "+path, v[0], v[1], v[2]) })
	m.Attrs = mg.mergeMap(b.Attrs, o.Attrs, t.Attrs, "", func(path string, v [3]any) { conflict("attribute "+path, v[0], v[1], v[2]) })
	m.Attachments = mg.attachments(b.Attachments, o.Attachments, t.Attachments, conflict)
	if sameMessage(m, o) {
		return o
	}
	return m
}

// cloneMessage copies m deeply enough to be changed without touching m:
// its maps and lists (values inside outputs are shared, as the merge
// never changes them).
func cloneMessage(m *Message) *Message {
	c := *m
	c.Outputs = slices.Clone(m.Outputs)
	c.Attachments = slices.Clone(m.Attachments)
	c.Meta = maps.Clone(m.Meta)
	c.Attrs = maps.Clone(m.Attrs)
	if m.ExecutionCount != nil {
		n := *m.ExecutionCount
		c.ExecutionCount = &n
	}
	return &c
}
