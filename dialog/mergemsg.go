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
	case e.marker != nil:
		m = e.marker
	case e.o != nil && e.t != nil:
		b := e.b
		if b == nil {
			b = &Message{} // an empty base: all either side has is added
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
	if e.replaced != nil {
		c := *e.replaced
		c.ID = m.ID
		mg.add(c)
	}
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
// edited): the edited message, its content set against nothing between
// markers whose labels say which side edited it and which deleted it.
func (mg *merger) deleted(b, kept *Message, oursKept bool) *Message {
	m := cloneMessage(kept)
	c := Conflict{ID: kept.ID, Base: b, InText: true}
	mk := mg.mk
	if oursKept {
		mk.Ours, mk.Theirs = mk.Ours+" (edited this cell)", mk.Theirs+" (deleted this cell)"
		c.What, c.Ours = "deleted by theirs, edited by ours", kept
		m.Content = textdiff.Conflict(kept.Content, "", mk)
	} else {
		mk.Ours, mk.Theirs = mk.Ours+" (deleted this cell)", mk.Theirs+" (edited this cell)"
		c.What, c.Theirs = "deleted by ours, edited by theirs", kept
		m.Content = textdiff.Conflict("", kept.Content, mk)
	}
	mg.add(c)
	return m
}

// message merges a message both sides kept (added: b is an empty message
// and both sides added one under one id).
func (mg *merger) message(b, o, t *Message, added bool) *Message {
	m := mg.message3(b, o, t, added)
	id := mg.mergedID(b, o, t, m.ID)
	if id == m.ID {
		return m
	}
	if m == o || m == t {
		if mg.same(o, t) && o.Kind == t.Kind && id == t.ID {
			return t
		}
		m = cloneMessage(m)
	}
	mg.renamed(m.ID, id)
	m.ID = id
	return m
}

// mergedID is the id of a message both sides kept, merged as a value:
// where neither side's id is an identity (Unkeyed) and base's is, base's;
// one whose id is made up takes the other's, a change made on one side
// only (a renamed message, paired by content) is applied, and both sides
// giving different ids keep ours' and report it. cur is the id the merged
// parts came with.
func (mg *merger) mergedID(b, o, t *Message, cur string) string {
	switch {
	case mg.unkeyed(o) && mg.unkeyed(t) && b.ID != "" && !mg.unkeyed(b):
		return b.ID
	case o.ID == t.ID:
		return o.ID
	case mg.unkeyed(o) && !mg.unkeyed(t):
		return t.ID // theirs' id is an identity, ours' made up
	case mg.unkeyed(t):
		return o.ID
	case b.ID != "" && !mg.unkeyed(b) && o.ID == b.ID:
		return t.ID
	case b.ID != "" && !mg.unkeyed(b) && t.ID == b.ID:
		return o.ID
	}
	mg.add(Conflict{ID: cur, What: "id", Part: PartID, Base: b, Ours: o, Theirs: t, Values: [3]any{idValue(mg, b), o.ID, t.ID}})
	return o.ID
}

// idValue is a base message's id as a conflict's value: nil when it has
// none (made up, or an empty base).
func idValue(mg *merger, b *Message) any {
	if b.ID == "" || mg.unkeyed(b) {
		return nil
	}
	return b.ID
}

func (mg *merger) unkeyed(m *Message) bool { return mg.opt.Unkeyed != nil && mg.opt.Unkeyed(m) }

// message3 merges the parts of a message both sides changed. Parts the
// merged kind has no place for (a reply of what is no longer a prompt,
// outputs and count of what is no longer code, attachments of what is now
// code) are left out of it and reported, unless no side changed them.
func (mg *merger) message3(b, o, t *Message, added bool) *Message {
	switch {
	case mg.same(t, b), mg.same(o, t):
		return o
	case mg.same(o, b):
		return t
	}
	m := cloneMessage(o)
	// (A side that only made base's message a prompt merges its text as
	// one, and a side that made base's prompt another kind: see
	// wholeTexts. bt, ot and tt are the versions whose texts and outputs
	// merge.)
	bt, ot, tt, sep := wholeTexts(b, o, t, mg.opt.Separator)
	conflict := func(c Conflict) {
		c.ID, c.Ours, c.Theirs = o.ID, o, t
		if !added {
			c.Base = b
		}
		mg.add(c)
	}
	// Kind.
	switch {
	case o.Kind == b.Kind:
		m.Kind = t.Kind
	case t.Kind == b.Kind, t.Kind == o.Kind:
	default:
		conflict(Conflict{What: "kind", Part: PartKind, Values: [3]any{kindValue(b.Kind), string(o.Kind), string(t.Kind)}})
	}
	// Content.
	text, n := textdiff.MergeText(bt.Content, ot.Content, tt.Content, mg.mk)
	m.Content = text
	if n > 0 {
		what := "content"
		if added {
			what = "added on both sides"
		}
		conflict(Conflict{What: what, Part: PartContent, InText: true})
	}
	// Prompt replies are text too; the other outputs are derived data.
	rb, ro, rt := bt.Reply(), ot.Reply(), tt.Reply()
	outs, count, outsConflict, countConflict := mg.outputs(withoutReply(b), withoutReply(ot), withoutReply(tt), b, o, t, added)
	m.Outputs, m.ExecutionCount = outs, count
	if m.Kind == Code {
		if outsConflict {
			conflict(Conflict{What: "outputs", Part: PartOutputs, InText: true})
		}
		if countConflict {
			conflict(Conflict{What: "execution count", Part: PartCount, Values: [3]any{countValue(b), countValue(o), countValue(t)}})
		}
	} else {
		if len(m.Outputs) > 0 || outsConflict {
			conflict(Conflict{What: "outputs of a message that is no longer code", Part: PartOutputs, Values: [3]any{nil, o.Outputs, t.Outputs}})
		}
		if m.ExecutionCount != nil || countConflict {
			conflict(Conflict{What: "execution count of a message that is no longer code", Part: PartCount, Values: [3]any{countValue(b), countValue(o), countValue(t)}})
		}
		m.Outputs, m.ExecutionCount = nil, nil
	}
	if sep != "" && m.Kind == Prompt && n == 0 {
		splitWhole(m, sep)
	}
	if rb != "" || ro != "" || rt != "" {
		reply, n := textdiff.MergeText(rb, ro, rt, mg.mk)
		switch {
		case m.Kind == Prompt:
			m.SetReply(reply)
			if n > 0 {
				conflict(Conflict{What: "reply", Part: PartReply, InText: true})
			}
		case reply != "":
			conflict(Conflict{What: "reply of a message that is no longer a prompt", Part: PartReply, Values: [3]any{rb, ro, rt}})
		}
	}
	// Metadata and attributes, key by key; attachments.
	m.Meta = mg.mergeMap(mg.withKindMeta(b), mg.withKindMeta(o), mg.withKindMeta(t), func(path []string, v [3]any) {
		conflict(Conflict{What: "metadata key " + joinPath(path), Part: PartMeta, Key: path, Values: v})
	})
	mg.kindMetaUndone(m, b, o, t, conflict)
	m.Meta = mg.withoutKindMeta(m.Kind, m.Meta)
	m.Attrs = mg.mergeMap(b.Attrs, o.Attrs, t.Attrs, func(path []string, v [3]any) {
		conflict(Conflict{What: "attribute " + joinPath(path), Part: PartAttrs, Key: path, Values: v})
	})
	m.Attachments = mg.attachments(b.Attachments, o.Attachments, t.Attachments, func(id string, v [3]any) {
		conflict(Conflict{What: "attachment " + id, Part: PartAttachments, Key: []string{id}, Values: v})
	})
	if m.Kind == Code && len(m.Attachments) > 0 {
		for _, a := range m.Attachments {
			if mg.reported(PartAttachments, a.ID) {
				continue // (its record says both)
			}
			conflict(Conflict{What: "attachment " + a.ID + " of a message that is now code", Part: PartAttachments, Key: []string{a.ID},
				Values: [3]any{findAttachment(b.Attachments, a), findAttachment(o.Attachments, a), findAttachment(t.Attachments, a)}})
		}
		m.Attachments = nil
	}
	if sameMessage(m, o) {
		return o
	}
	return m
}

// reported reports whether a conflict of the message being merged was
// reported for the part and key.
func (mg *merger) reported(p Part, key string) bool {
	for _, c := range mg.conflicts[mg.first:] {
		if c.Part == p && len(c.Key) > 0 && c.Key[0] == key {
			return true
		}
	}
	return false
}

// kindValue is a kind as a conflict's value: nil for none (an empty base).
func kindValue(k Kind) any {
	if k == "" {
		return nil
	}
	return string(k)
}

// countValue is a message's execution count as a conflict's value.
func countValue(m *Message) any {
	if m.ExecutionCount == nil {
		return nil
	}
	return *m.ExecutionCount
}

// findAttachment returns the attachment of as with a's id and type, or
// nil.
func findAttachment(as []Attachment, a Attachment) any {
	for _, x := range as {
		if x.ID == a.ID && x.MIME == a.MIME {
			return x
		}
	}
	return nil
}

// joinPath writes a metadata key path as "a/b".
func joinPath(path []string) string {
	s := ""
	for i, k := range path {
		if i > 0 {
			s += "/"
		}
		s += k
	}
	return s
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
