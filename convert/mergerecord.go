package convert

import (
	"encoding/json"
	"maps"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// ConflictsKey is the metadata member in which a merge records the
// conflicts of values that have no text (see options.Merge): a JSON
// array of records, each an object
//
//	{"pointer": "/metadata/tags", "what": "metadata key tags",
//	 "base": ["a"], "ours": ["a", "b"], "theirs": ["c"]}
//
// in the metadata of the cell concerned (of the notebook for notebook
// metadata). "pointer" is the RFC 6901 JSON Pointer of the conflicting
// value relative to the cell ("/cell_type", "/source", "/outputs",
// "/execution_count", "/id", "/attachments/NAME", "/metadata/KEY/…"), or
// relative to the notebook ("/metadata/KEY/…"); "base", "ours" and
// "theirs" hold that side's value there, as its file holds it (texts
// stored as lists of lines given as one string each: a source, stream
// text, text data, attachment data), and a member is absent where the
// side has no value. "what" says in words
// what conflicts. The cell itself holds the resolution: ours' value (for
// a kind, ours' kind and what that kind holds; a part the kind has no
// place for is left out). Resolving the conflict is deleting its record
// (and the member with the last one). Any member is valid in cell and
// notebook metadata under every nbformat 4 minor version's schema, and
// under nbformat 3's. In a version 3 notebook the records are in the
// cells' metadata too, their pointers and values those of the cell's
// version 4 form, which the merge works on ("/source" for a code cell's
// input, "/execution_count" for its prompt number, outputs as version 4
// holds them).
const ConflictsKey = "ipynb_conflicts"

// recordConflicts adds the records of the conflicts that have no text to
// the metadata of their messages in merged (the notebook's metadata for
// ID ""), replacing each message concerned by a copy (versions follows).
// dialogs and orgs are base's, ours' and theirs'.
func (o options) recordConflicts(merged *dialog.Dialog, conflicts []dialog.Conflict, versions map[*dialog.Message][3]*dialog.Message,
	dialogs [3]*dialog.Dialog, orgs [3]*origin) {
	reg := o.Registry
	if reg == nil {
		reg = orgs[1].reg
	}
	byID := map[string][]any{}
	recorded := map[string]bool{} // message id and path
	var order []string
	for _, c := range conflicts {
		if c.InText {
			continue
		}
		paths := [][]string{}
		if path, ok := conflictPath(c, reg); ok {
			paths = append(paths, path)
		}
		if c.Part == dialog.PartKind {
			// What goes with a kind: a prompt's mark, a code cell's
			// outputs and count, attachments.
			paths = append(paths, []string{"metadata", promptKey}, []string{"outputs"}, []string{"execution_count"}, []string{"attachments"})
		}
		for k, path := range paths {
			key := c.ID + "\x00" + strings.Join(path, "\x00")
			if recorded[key] {
				continue
			}
			rec, ok := o.record(c, path, k == 0, dialogs, orgs)
			if !ok {
				continue
			}
			recorded[key] = true
			if _, seen := byID[c.ID]; !seen {
				order = append(order, c.ID)
			}
			byID[c.ID] = append(byID[c.ID], rec)
		}
	}
	if len(order) == 0 {
		return
	}
	index := make(map[string]int, len(merged.Messages))
	for i, m := range merged.Messages {
		index[m.ID] = i
	}
	for _, id := range order {
		if id == "" {
			merged.Meta = withRecords(merged.Meta, byID[id])
			continue
		}
		i, ok := index[id]
		if !ok {
			continue
		}
		old := merged.Messages[i]
		m := *old
		m.Meta = withRecords(old.Meta, byID[id])
		merged.Messages[i] = &m
		if v, ok := versions[old]; ok {
			versions[&m] = v
			delete(versions, old)
		}
	}
}

// withRecords returns a copy of meta with recs added to its records.
func withRecords(meta map[string]any, recs []any) map[string]any {
	out := maps.Clone(meta)
	if out == nil {
		out = map[string]any{}
	}
	var all []any
	if old, ok := out[ConflictsKey]; ok {
		if l, ok := asArray(old); ok {
			all = l
		} else {
			all = []any{old}
		}
	}
	all = append(all, recs...)
	if raw, err := jsonvalue.AppendJSON(nil, all); err == nil {
		out[ConflictsKey] = json.RawMessage(raw)
	} else {
		out[ConflictsKey] = all
	}
	return out
}

// asArray returns a JSON array value's elements.
func asArray(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return append([]any(nil), x...), true
	case json.RawMessage:
		es, ok := jsonvalue.Elements(x)
		if !ok {
			return nil, false
		}
		out := make([]any, len(es))
		for i, e := range es {
			out[i] = e
		}
		return out, true
	}
	return nil, false
}

// record is the record of conflict c at path: its pointer, what, and the
// three sides' values at the pointer in their cells (their notebooks'
// metadata for ID ""), in the order the members are written; ok is false
// when the sides all agree there, unless always.
func (o options) record(c dialog.Conflict, path []string, always bool, dialogs [3]*dialog.Dialog, orgs [3]*origin) (json.RawMessage, bool) {
	pointer := ""
	for _, k := range path {
		pointer = jsonpointer.AppendToken(pointer, k)
	}
	keys := []string{"pointer", "what"}
	vals := map[string]any{"pointer": pointer, "what": c.What}
	for i, side := range [3]string{"base", "ours", "theirs"} {
		var whole any
		var has bool
		if c.ID == "" {
			whole, has = map[string]any{"metadata": dialogs[i].Meta}, dialogs[i] != nil
		} else if m := [3]*dialog.Message{c.Base, c.Ours, c.Theirs}[i]; m != nil {
			whole, has = cellValue(orgs[i], m)
		}
		if !has {
			continue
		}
		if v, ok := jsonvalue.At(whole, path); ok {
			keys = append(keys, side)
			vals[side] = joinTexts(path, v)
		}
	}
	if !always && agree(keys, vals) {
		return nil, false
	}
	raw, err := jsonvalue.AppendObject(nil, keys, vals)
	if err != nil {
		return nil, false
	}
	return raw, true
}

// agree reports whether a record's sides (the keys after "pointer" and
// "what") all hold one value, or none does.
func agree(keys []string, vals map[string]any) bool {
	sides := keys[2:]
	if len(sides) == 0 {
		return true
	}
	if len(sides) < 3 {
		return false
	}
	return jsonvalue.Equal(vals[sides[0]], vals[sides[1]]) && jsonvalue.Equal(vals[sides[0]], vals[sides[2]])
}

// joinTexts returns a value of a cell (at path) with its texts stored as
// lists of lines (a source, the text of a stream output, text data, an
// attachment's data) as one string each, as a notebook reader holds them.
func joinTexts(path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch path[0] {
	case "source":
		return joined(v)
	case "outputs":
		if len(path) == 1 {
			l, ok := asArray(decodedRaw(v))
			if !ok {
				return v
			}
			for i, out := range l {
				l[i] = joinOutput(out)
			}
			return l
		}
	case "attachments":
		if len(path) == 2 {
			return joinMembers(v)
		}
	}
	return v
}

// joinOutput joins an output's text and its data's texts.
func joinOutput(v any) any {
	m, ok := decodedRaw(v).(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		switch k {
		case "text":
			x = joined(x)
		case "data":
			x = joinMembers(x)
		}
		out[k] = x
	}
	return out
}

// joinMembers joins each member of an object that is a list of strings
// (a MIME bundle's texts).
func joinMembers(v any) any {
	m, ok := decodedRaw(v).(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = joined(x)
	}
	return out
}

// joined is a list of strings as one string; any other value as it is.
func joined(v any) any {
	l, ok := decodedRaw(v).([]any)
	if !ok {
		if s, isString := decodedRaw(v).(string); isString {
			return s
		}
		return v
	}
	var b []byte
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			return v
		}
		b = append(b, s...)
	}
	return string(b)
}

// decodedRaw is v, raw JSON decoded.
func decodedRaw(v any) any {
	if r, ok := v.(json.RawMessage); ok {
		if d, err := jsonvalue.Decode(r); err == nil {
			return d
		}
	}
	return v
}

// cellValue returns message m's cell, as its file holds it, as generic
// JSON.
func cellValue(org *origin, m *dialog.Message) (any, bool) {
	s := org.snap(m)
	if s == nil {
		return nil, false
	}
	g, err := cellMap(s.cell)
	if err != nil {
		return nil, false
	}
	return g, true
}

// conflictPath is the path of a conflict's value inside its cell (inside
// the notebook for ID ""): see ConflictsKey.
func conflictPath(c dialog.Conflict, reg *Registry) ([]string, bool) {
	switch c.Part {
	case dialog.PartKind:
		return []string{"cell_type"}, true
	case dialog.PartContent, dialog.PartReply:
		return []string{"source"}, true
	case dialog.PartOutputs:
		return []string{"outputs"}, true
	case dialog.PartCount:
		return []string{"execution_count"}, true
	case dialog.PartID:
		return []string{"id"}, true
	case dialog.PartAttachments:
		return append([]string{"attachments"}, c.Key...), len(c.Key) > 0
	case dialog.PartMeta:
		return append([]string{"metadata"}, c.Key...), len(c.Key) > 0
	case dialog.PartAttrs:
		if len(c.Key) == 0 {
			return nil, false
		}
		key := c.Key[0]
		if d, ok := reg.lookupAttr(key); ok {
			key = d.Key
		}
		return append([]string{"metadata", key}, c.Key[1:]...), true
	}
	return nil, false
}
