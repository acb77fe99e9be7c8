package dialog

import (
	"bytes"
	"maps"
	"sort"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Metadata, attributes and attachments in a merge: key by key.

// mergeMap merges metadata (or attributes) key by key, recursing into
// objects both sides changed, whatever holds them (maps or raw JSON); a
// value both sides set differently keeps ours' and is reported to
// conflict with its path and the three values. The result is a new map,
// or nil when all three are empty.
func (mg *merger) mergeMap(b, o, t map[string]any, conflict func(path []string, v [3]any)) map[string]any {
	if len(b) == 0 && len(o) == 0 && len(t) == 0 {
		if o != nil {
			return o
		}
		return t
	}
	vm := valueMerge{conflict: func(path []string, v [3]any, _ [3]bool) { conflict(path, v) }}
	view := func(m map[string]any) object { o, _ := asObject(m); return o }
	_, out := vm.members(view(b), view(o), view(t), nil)
	if len(out) == 0 && o == nil {
		return nil
	}
	return out
}

// withKindMeta is m's Meta with what its kind carries (opt.KindMeta)
// added where absent.
func (mg *merger) withKindMeta(m *Message) map[string]any {
	implied := mg.opt.KindMeta[m.Kind]
	if len(implied) == 0 {
		return m.Meta
	}
	out := maps.Clone(m.Meta)
	if out == nil {
		out = make(map[string]any, len(implied))
	}
	for k, v := range implied {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// withoutKindMeta is merged metadata without what kind carries (the
// writer gives it back); nil if nothing else is left.
func (mg *merger) withoutKindMeta(k Kind, meta map[string]any) map[string]any {
	implied := mg.opt.KindMeta[k]
	drop := false
	for key, v := range implied {
		if x, ok := meta[key]; ok && jsonvalue.Equal(x, v) {
			drop = true
		}
	}
	if !drop {
		return meta
	}
	out := maps.Clone(meta)
	for key, v := range implied {
		if x, ok := out[key]; ok && jsonvalue.Equal(x, v) {
			delete(out, key)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// kindMetaUndone reports a conflict for each key the merged kind of m
// carries (opt.KindMeta) whose merged value m.Meta has not: a side
// deleted or changed that key where the other gave the message the kind
// (a code cell's "solveit_ai" deleted by one side, the cell made a
// prompt by the other), and the kind, written, gives it back. Values
// are the three versions' with what their kinds carry (nil where absent).
func (mg *merger) kindMetaUndone(m, b, o, t *Message, conflict func(Conflict)) {
	for key, v := range mg.opt.KindMeta[m.Kind] {
		if x, ok := m.Meta[key]; ok && jsonvalue.Equal(x, v) || mg.reported(PartMeta, key) {
			continue
		}
		var vs [3]any
		for i, s := range [3]*Message{b, o, t} {
			vs[i] = mg.withKindMeta(s)[key]
		}
		conflict(Conflict{What: "metadata key " + key + " of the merged kind", Part: PartMeta, Key: []string{key}, Values: vs})
	}
}

// mergeMeta merges the dialogs' metadata.
func (mg *merger) mergeMeta(b, o, t map[string]any) map[string]any {
	return mg.mergeMap(b, o, t, func(path []string, v [3]any) {
		mg.metaConfl = append(mg.metaConfl, Conflict{What: "notebook metadata key " + joinPath(path), Part: PartMeta, Key: path, Values: v})
	})
}

// attachments merges attachment lists by id and type: ours' order, then
// theirs' additions; both changing one keeps ours' and is reported.
func (mg *merger) attachments(b, o, t []Attachment, conflict func(id string, v [3]any)) []Attachment {
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
			conflict(k.id, [3]any{attachmentValue(ab, inB), attachmentValue(ao, inO), attachmentValue(at, inT)})
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
