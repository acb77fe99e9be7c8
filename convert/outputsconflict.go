package convert

// Large outputs compared and merged by their texts' summaries: sure to differ, sure to conflict, without decoding them.

import (
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/nbformat"
)

// An outputLook is what a merge keeps of an output it does not hold
// (base's, read lazily: see lazyBase): its type and the summaries of its
// large texts, by member ("text", or "data/" and a MIME type).
type outputLook struct {
	typ   string
	texts map[string]*textSummary
}

// memberText is a text of an output as written, by member.
type memberText struct {
	key string
	raw []byte
}

// textsOf returns the texts of an output read (a stream's text, the
// text entries of a MIME bundle), as written; ok is false when unsure of
// them (an output made anew, a MIME type given twice, another type).
func textsOf(out nbformat.Output) (texts []memberText, ok bool) {
	var data nbformat.MimeBundle
	switch x := out.(type) {
	case *nbformat.Stream:
		raw, ok := x.Text.RawJSON()
		if !ok || !jsontree.IsStrings(raw) {
			return nil, false
		}
		return []memberText{{"text", raw}}, true
	case *nbformat.DisplayData:
		data = x.Data
	case *nbformat.ExecuteResult:
		data = x.Data
	default:
		return nil, false
	}
	keys := data.Keys()
	if len(slices.Compact(slices.Sorted(slices.Values(keys)))) != len(keys) {
		return nil, false
	}
	for _, k := range data.Keys() {
		raw, ok := data.RawJSON(k)
		if !ok {
			return nil, false
		}
		if !mimetype.IsJSON(k) && jsontree.IsStrings(raw) {
			texts = append(texts, memberText{"data/" + k, raw})
		}
	}
	return texts, true
}

// lookShape records an output's members and its data's.
var lookShape = &jsontree.Shape{Members: map[string]*jsontree.Shape{"data": {}}}

// lookOfRaw returns the look of an output from its bytes as written (a
// validated JSON object), or nil when unsure of it (a member given twice,
// a type not a string, no large text).
func lookOfRaw(raw []byte) *outputLook {
	t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, lookShape)
	if err != nil || t.Nodes[jsontree.Root].Kind != jsontree.Object || len(t.UniqueMembers(jsontree.Root)) != int(t.Nodes[jsontree.Root].Len) {
		return nil
	}
	typ := t.Lookup(jsontree.Root, "output_type")
	if typ < 0 || t.Nodes[typ].Kind != jsontree.String {
		return nil
	}
	l := &outputLook{typ: t.Str(typ), texts: map[string]*textSummary{}}
	add := func(key string, j int) {
		if r := t.Raw(j); len(r) >= bigText && t.IsMultiline(j) {
			l.texts[key] = summarize(r)
		}
	}
	switch l.typ {
	case "stream":
		if j := t.Lookup(jsontree.Root, "text"); j >= 0 {
			add("text", j)
		}
	case "display_data", "execute_result":
		d := t.Lookup(jsontree.Root, "data")
		if d < 0 || t.Nodes[d].Kind != jsontree.Object {
			break
		}
		ms := t.UniqueMembers(d)
		if len(ms) != int(t.Nodes[d].Len) {
			return nil
		}
		for _, j := range ms {
			if k := t.KeyString(j); !mimetype.IsJSON(k) {
				add("data/"+k, j)
			}
		}
	}
	if len(l.texts) == 0 {
		return nil
	}
	return l
}

// differsFromLook reports whether output r is sure to differ from the
// output look summarizes: another type, or a large text it lacks or
// holds otherwise (by its digest).
func (r *readOutput) differsFromLook(look *outputLook) bool {
	if look == nil {
		return false
	}
	if r.Type() != look.typ {
		return true
	}
	texts, ok := textsOf(r.out)
	if !ok {
		return false
	}
	for key, s := range look.texts {
		i := slices.IndexFunc(texts, func(m memberText) bool { return m.key == key })
		if i < 0 {
			return true // (base's output has the member, r not)
		}
		if textDigest(texts[i].raw) != s.sum {
			return true
		}
	}
	return false
}

// SureToConflict reports whether merging output r (ours') with base's
// and theirs' versions value by value (dialog's strict merge of outputs
// both sides changed) is sure to conflict without decoding any: a large
// text all three hold, each differently, whose line merge conflicts at
// its start or end (see textSummary.conflicts). False when unsure.
func (r *readOutput) SureToConflict(base, theirs dialog.OutputSource) bool {
	t, ok := theirs.(*readOutput)
	if !ok {
		return false
	}
	var look *outputLook
	switch b := base.(type) {
	case *lazyOutput:
		look = b.p.look
	case *readOutput:
		look = lookOf(b.out)
	}
	if look == nil {
		return false
	}
	ours, okO := textsOf(r.out)
	their, okT := textsOf(t.out)
	if !okO || !okT {
		return false
	}
	for _, o := range ours {
		sb, inB := look.texts[o.key]
		i := slices.IndexFunc(their, func(m memberText) bool { return m.key == o.key })
		if !inB || i < 0 || len(o.raw) < bigText || len(their[i].raw) < bigText {
			continue
		}
		if sb.conflicts(summarize(o.raw), summarize(their[i].raw)) {
			return true
		}
	}
	return false
}

// lookOf returns the look of an output read (nil without large texts).
func lookOf(out nbformat.Output) *outputLook {
	texts, ok := textsOf(out)
	if !ok {
		return nil
	}
	l := &outputLook{typ: string(out.Type()), texts: map[string]*textSummary{}}
	for _, m := range texts {
		if len(m.raw) >= bigText {
			l.texts[m.key] = summarize(m.raw)
		}
	}
	if len(l.texts) == 0 {
		return nil
	}
	return l
}
