package dialog

import (
	"bytes"
	"maps"
	"slices"
	"sort"

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
		c.ID = out.NewIDNotIn(taken)
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

// withoutReply returns a message's outputs other than a prompt's reply.
func withoutReply(m *Message) []Output {
	if m.Kind != Prompt {
		return m.Outputs
	}
	var outs []Output
	for _, o := range m.Outputs {
		md, _ := o["metadata"].(map[string]any)
		if ai, _ := md["is_ai_res"].(bool); !ai {
			outs = append(outs, o)
		}
	}
	return outs
}

// outputs merges outputs and execution counts (see OutputStrategy).
func (mg *merger) outputs(ob, oo, ot []Output, b, o, t *Message, conflict func(string, ...any)) ([]Output, *int) {
	count := o.ExecutionCount
	switch {
	case sameCount(o.ExecutionCount, b.ExecutionCount):
		count = t.ExecutionCount
	case sameCount(t.ExecutionCount, b.ExecutionCount), sameCount(o.ExecutionCount, t.ExecutionCount):
	case mg.opt.Outputs == OutputsTheirs:
		count = t.ExecutionCount
	case mg.opt.Outputs == OutputsClear:
		count = nil
	}
	switch {
	case sameOutputs(oo, ob):
		return ot, count
	case sameOutputs(ot, ob), sameOutputs(oo, ot):
		return oo, count
	}
	if outs, ok := mergeOutputLists(ob, oo, ot); ok {
		return outs, count
	}
	switch mg.opt.Outputs {
	case OutputsOurs:
		return oo, count
	case OutputsTheirs:
		return ot, count
	case OutputsClear:
		return []Output{}, nil
	}
	if sameOutputsButCounts(oo, ot) {
		return oo, count
	}
	conflict("outputs")
	outs := make([]Output, 0, len(oo)+len(ot)+3)
	outs = append(outs, markerOutput(mg.mk.Size, '<', mg.mk.Ours))
	outs = append(outs, oo...)
	outs = append(outs, markerOutput(mg.mk.Size, '=', ""))
	outs = append(outs, ot...)
	outs = append(outs, markerOutput(mg.mk.Size, '>', mg.mk.Theirs))
	return outs, count
}

// markerOutput is a stream output holding one conflict marker line.
func markerOutput(size int, c byte, label string) Output {
	line := string(bytes.Repeat([]byte{c}, size))
	if label != "" {
		line += " " + label
	}
	return Output{"output_type": "stream", "name": "stdout", "text": line + "\n"}
}

// mergeMap merges metadata key by key, recursing into objects both sides
// changed; a key both sides set differently keeps ours' value and is
// reported. The result is a new map, or nil when all three are empty.
func (mg *merger) mergeMap(b, o, t map[string]any, path string, conflict func(string, [3]any)) map[string]any {
	if len(b) == 0 && len(o) == 0 && len(t) == 0 {
		if o != nil {
			return o
		}
		return t
	}
	out := make(map[string]any, len(o)+len(t))
	keys := make(map[string]bool, len(o)+len(t)+len(b))
	for k := range b {
		keys[k] = true
	}
	for k := range o {
		keys[k] = true
	}
	for k := range t {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		vb, inB := b[k]
		vo, inO := o[k]
		vt, inT := t[k]
		p := k
		if path != "" {
			p = path + "/" + k
		}
		var v any
		var in bool
		switch {
		case inO == inB && same(vo, vb):
			v, in = vt, inT
		case inT == inB && same(vt, vb), inO == inT && same(vo, vt):
			v, in = vo, inO
		default:
			mb, okB := vb.(map[string]any)
			mo, okO := vo.(map[string]any)
			mt, okT := vt.(map[string]any)
			if okO && okT && (okB || !inB) {
				sub := mg.mergeMap(mb, mo, mt, p, conflict)
				if sub == nil {
					sub = map[string]any{}
				}
				v, in = sub, true
			} else {
				conflict(p, [3]any{vb, vo, vt})
				v, in = vo, inO
			}
		}
		if in {
			out[k] = v
		}
	}
	if len(out) == 0 && o == nil {
		return nil
	}
	return out
}

// attachments merges attachment lists by id and type: ours' order, then
// theirs' additions; both changing one keeps ours' and is reported.
func (mg *merger) attachments(b, o, t []Attachment, conflict func(string, ...any)) []Attachment {
	if sameAttachments(o, b) {
		return t
	}
	if sameAttachments(t, b) || sameAttachments(o, t) {
		return o
	}
	type key struct{ id, mime string }
	index := func(as []Attachment) map[key]Attachment {
		m := make(map[key]Attachment, len(as))
		for _, a := range as {
			m[key{a.ID, a.MIME}] = a
		}
		return m
	}
	ib, io, it := index(b), index(o), index(t)
	eq := func(x, y Attachment, inX, inY bool) bool {
		return inX == inY && (!inX || bytes.Equal(x.Data, y.Data))
	}
	var out []Attachment
	seen := map[key]bool{}
	visit := func(k key) {
		if seen[k] {
			return
		}
		seen[k] = true
		ab, inB := ib[k]
		ao, inO := io[k]
		at, inT := it[k]
		switch {
		case eq(ao, ab, inO, inB):
			if inT {
				out = append(out, at)
			}
		case eq(at, ab, inT, inB), eq(ao, at, inO, inT):
			if inO {
				out = append(out, ao)
			}
		default:
			conflict("attachment "+k.id, attachmentValue(ab, inB), attachmentValue(ao, inO), attachmentValue(at, inT))
			if inO {
				out = append(out, ao)
			} else if inT {
				out = append(out, at) // deleted by ours, changed by theirs: kept
			}
		}
	}
	for _, a := range o {
		visit(key{a.ID, a.MIME})
	}
	for _, a := range t {
		visit(key{a.ID, a.MIME})
	}
	rest := make([]key, 0)
	for k := range ib {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Slice(rest, func(i, j int) bool {
		return rest[i].id < rest[j].id || rest[i].id == rest[j].id && rest[i].mime < rest[j].mime
	})
	for _, k := range rest {
		visit(k)
	}
	return out
}

func attachmentValue(a Attachment, in bool) any {
	if !in {
		return nil
	}
	return a
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

// mergeMeta merges the dialogs' metadata.
func (mg *merger) mergeMeta(b, o, t map[string]any) map[string]any {
	return mg.mergeMap(b, o, t, "", func(path string, v [3]any) {
		mg.metaConfl = append(mg.metaConfl, Conflict{What: "notebook metadata key " + path, Values: v})
	})
}

// mergeOutputLists merges output lists both sides changed when that is
// clean: lists of one length, merged output by output, key by key, texts
// line by line (as a line merge of the file would). ok is false at the
// first conflict.
func mergeOutputLists(b, o, t []Output) ([]Output, bool) {
	if len(b) != len(o) || len(b) != len(t) {
		return nil, false
	}
	out := make([]Output, len(o))
	for i := range o {
		v, ok := mergeValue(map[string]any(b[i]), map[string]any(o[i]), map[string]any(t[i]))
		m, isMap := v.(map[string]any)
		if !ok || !isMap {
			return nil, false
		}
		out[i] = Output(m)
	}
	return out, true
}

// mergeValue merges generic JSON values cleanly or not at all: one-sided
// changes, objects key by key, strings line by line, lists of one length
// element by element.
func mergeValue(b, o, t any) (any, bool) {
	switch {
	case same(o, b):
		return t, true
	case same(t, b), same(o, t):
		return o, true
	}
	switch ov := o.(type) {
	case map[string]any:
		bv, okB := b.(map[string]any)
		tv, okT := t.(map[string]any)
		if !okB || !okT {
			return nil, false
		}
		out := make(map[string]any, len(ov)+len(tv))
		for _, k := range unionKeys(bv, ov, tv) {
			vb, inB := bv[k]
			vo, inO := ov[k]
			vt, inT := tv[k]
			switch {
			case inO == inB && same(vo, vb):
				if inT {
					out[k] = vt
				}
			case inT == inB && same(vt, vb), inO == inT && same(vo, vt):
				if inO {
					out[k] = vo
				}
			case inB && inO && inT:
				v, ok := mergeValue(vb, vo, vt)
				if !ok {
					return nil, false
				}
				out[k] = v
			default:
				return nil, false
			}
		}
		return out, true
	case string:
		bv, okB := b.(string)
		tv, okT := t.(string)
		if !okB || !okT {
			return nil, false
		}
		text, n := textdiff.MergeText(bv, ov, tv, textdiff.Markers{})
		return text, n == 0
	case []any:
		bv, okB := b.([]any)
		tv, okT := t.([]any)
		if !okB || !okT || len(bv) != len(ov) || len(bv) != len(tv) {
			return nil, false
		}
		out := make([]any, len(ov))
		for i := range ov {
			v, ok := mergeValue(bv[i], ov[i], tv[i])
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	return nil, false
}

func unionKeys(ms ...map[string]any) []string {
	keys := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			keys[k] = true
		}
	}
	return slices.Sorted(maps.Keys(keys))
}
