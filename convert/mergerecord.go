package convert

// The records of conflicts that have no text (ConflictsKey): the three sides'
// values at the pointer, in the metadata of the cell concerned.

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbv3"
	"github.com/nbdialog/ipynb/nbformat"
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
// cells' metadata too, their pointers named as in the cell's version 4
// form, which the merge works on ("/source" for a code cell's input,
// "/execution_count" for its prompt number, "/metadata/collapsed" for its
// collapsed), and the values of a version 3 side as its file holds them,
// so that they can be copied back: outputs as version 3 has them (pyout
// with its prompt_number, data under "text", "png", …, their texts
// joined as nbformat 3's reader joins them), "heading" and "html" kinds,
// and, with a kind, the version 3 members that go with it ("/language"
// of a code cell, "/level" of a heading).
//
// A cell both sides moved to different places (see dialog.Merge) is
// where ours put it, and its record is of the cell's place:
//
//	{"pointer": "", "what": "moved on both sides", "base": {"index": 0},
//	 "ours": {"index": 2, "after": "c"}, "theirs": {"index": 3, "after": "d"}}
//
// pointer "" (the cell itself), and each side's place as its file has it:
// "index", the cell's index among its cells (0-based; in a version 3 file
// counting the cells of every worksheet, in order), and "after", the id
// of the cell before it there, absent when it is first or that cell has
// no id in its file (before nbformat 4.5), and in a version 3 file of
// several worksheets "worksheet", the index of the one holding it (a cell
// both sides moved to different worksheets has such a record, "what":
// "moved to different worksheets on both sides"). A cell both sides added (of
// one id, or equal in a file without ids) at different places (after
// other cells all three have) has such a record with "what": "added on
// both sides at different places" and no "base". Resolving is moving the
// cell, or leaving it, and deleting the record.
const ConflictsKey = "ipynb_conflicts"

// recordConflicts adds the records of the conflicts that have no text to
// the metadata of their messages in merged (the notebook's metadata for
// ID ""), replacing each message concerned by a copy (versions follows).
// dialogs and orgs are base's, ours' and theirs'; files caches what is
// read of their files.
func (o options) recordConflicts(merged *dialog.Dialog, conflicts []dialog.Conflict, versions map[*dialog.Message][3]*dialog.Message,
	dialogs [3]*dialog.Dialog, orgs [3]*origin, files *sideFiles) {
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
		if isPlaceConflict(c) {
			if rec, ok := placeRecord(c, dialogs, orgs, files); ok {
				if _, seen := byID[c.ID]; !seen {
					order = append(order, c.ID)
				}
				byID[c.ID] = append(byID[c.ID], rec)
			}
			continue
		}
		paths := [][]string{}
		if path, ok := conflictPath(c, reg); ok {
			paths = append(paths, path)
		}
		if c.Part == dialog.PartKind {
			// What goes with a kind: a prompt's mark, a code cell's
			// outputs and count, attachments.
			// (The version 3 ones, a code cell's language and a
			// heading's level, only a version 3 side has.)
			paths = append(paths, []string{"metadata", promptKey}, []string{"outputs"}, []string{"execution_count"}, []string{"attachments"},
				[]string{"language"}, []string{"level"})
		}
		for k, path := range paths {
			key := c.ID + "\x00" + strings.Join(path, "\x00")
			if recorded[key] {
				continue
			}
			rec, ok := o.record(c, path, k == 0, dialogs, orgs, files)
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
func (o options) record(c dialog.Conflict, path []string, always bool, dialogs [3]*dialog.Dialog, orgs [3]*origin, files *sideFiles) (json.RawMessage, bool) {
	pointer := ""
	for _, k := range path {
		pointer = jsonpointer.AppendToken(pointer, k)
	}
	keys := []string{"pointer", "what"}
	vals := map[string]any{"pointer": pointer, "what": c.What}
	for i, side := range [3]string{"base", "ours", "theirs"} {
		var whole any
		var has, v3 bool
		if c.ID == "" {
			whole, has = map[string]any{"metadata": dialogs[i].Meta}, dialogs[i] != nil
		} else if m := [3]*dialog.Message{c.Base, c.Ours, c.Theirs}[i]; m != nil {
			whole, v3, has = files.cellValue(orgs[i], m)
		}
		if !has {
			continue
		}
		if v, ok := jsonvalue.At(whole, path); ok {
			keys = append(keys, side)
			vals[side] = joinTexts(path, v, v3)
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
// attachment's data) as one string each, as a notebook reader holds them
// (v3: the value of a version 3 cell, whose outputs hold their texts under
// the version 3 keys).
func joinTexts(path []string, v any, v3 bool) any {
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
				l[i] = joinOutput(out, v3)
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

// joinOutput joins an output's text and its data's texts (v3: a version 3
// output's texts, which nbformat 3's reader joins: nbv3.Texts).
func joinOutput(v any, v3 bool) any {
	m, ok := decodedRaw(v).(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		switch {
		case k == "text" || v3 && slices.Contains(nbv3.Texts, k):
			x = joined(x)
		case k == "data" && !v3:
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

// sideFiles holds what the records of one merge read of the inputs' files:
// the cells of the version 3 ones.
type sideFiles struct {
	v3     map[*origin]*v3Cells
	sheets map[*origin][]int // see v3Layout (nil: one worksheet, or not version 3)
}

// v3Cells are a version 3 file's cells as it holds them, in order (those
// of every worksheet), and the place of each of its upgrade's cells.
type v3Cells struct {
	raw   []json.RawMessage // nil: not one for each cell of the upgrade
	index map[nbformat.Cell]int
}

// cellValue returns message m's cell, as its file holds it, as generic
// JSON; v3 reports a version 3 cell, its members named as in its version
// 4 form (see v3Named).
func (f *sideFiles) cellValue(org *origin, m *dialog.Message) (cell any, v3, ok bool) {
	s := org.snap(m)
	if s == nil {
		return nil, false, false
	}
	if org.nb.Nbformat == 3 {
		if g, ok := f.v3Cell(org, s.cell); ok {
			return g, true, true
		}
	}
	g, err := cellMap(s.cell)
	if err != nil {
		return nil, false, false
	}
	return g, false, true
}

// v3Cell returns the version 3 cell of a version 3 file (org) that c, a
// cell of its upgrade, was upgraded from, as the file holds it, named by
// v3Named; ok is false when it is not found.
func (f *sideFiles) v3Cell(org *origin, c nbformat.Cell) (map[string]any, bool) {
	raw, ok := f.v3Raw(org, c)
	if !ok {
		return nil, false
	}
	g, err := jsonvalue.Decode(raw)
	if err != nil {
		return nil, false
	}
	cell, ok := g.(map[string]any)
	if !ok {
		return nil, false
	}
	return v3Named(cell), true
}

// v3Raw returns the version 3 cell of a version 3 file (org) that c, a
// cell of its upgrade, was upgraded from, as the file holds it; ok is
// false when it is not found.
func (f *sideFiles) v3Raw(org *origin, c nbformat.Cell) (json.RawMessage, bool) {
	if f.v3 == nil {
		f.v3 = map[*origin]*v3Cells{}
	}
	vc := f.v3[org]
	if vc == nil {
		vc = readV3Cells(org)
		f.v3[org] = vc
	}
	i, ok := vc.index[c]
	if !ok || vc.raw == nil {
		return nil, false
	}
	return vc.raw[i], true
}

// readV3Cells lists the cells of a version 3 notebook as read (org.nb),
// which its upgrade (org.work) has one for one, in order.
func readV3Cells(org *origin) *v3Cells {
	vc := &v3Cells{index: make(map[nbformat.Cell]int, len(org.work.Cells))}
	for i, c := range org.work.Cells {
		vc.index[c] = i
	}
	ws, ok := org.nb.AdditionalProperties["worksheets"].(json.RawMessage)
	if !ok {
		if x := org.nb.AdditionalProperties["worksheets"]; x != nil {
			b, err := jsonvalue.AppendJSON(nil, x)
			if err != nil {
				return vc
			}
			ws = b
		}
	}
	sheets, _ := jsonvalue.Elements(ws)
	var raw []json.RawMessage
	for _, w := range sheets {
		cs, ok := jsonvalue.MemberRaw(w, "cells")
		if !ok {
			continue
		}
		es, _ := jsonvalue.Elements(cs)
		raw = append(raw, es...)
	}
	if len(raw) == len(org.work.Cells) {
		vc.raw = raw
	}
	return vc
}

// v3Named is a version 3 cell with the members that its upgrade renames
// named as there, their values as the cell holds them: a code cell's
// input as "source", its prompt_number as "execution_count", its collapsed
// in its metadata (as nbformat's upgrade_cell moves it, over one the
// metadata has). Its other members (a code cell's language, a heading's
// level, outputs of version 3) are as they are. c is not changed.
func v3Named(c map[string]any) map[string]any {
	if c["cell_type"] != "code" {
		return c
	}
	out := maps.Clone(c)
	for _, r := range [...][2]string{{"input", "source"}, {"prompt_number", "execution_count"}} {
		delete(out, r[1])
		if v, ok := out[r[0]]; ok {
			delete(out, r[0])
			out[r[1]] = v
		}
	}
	if v, ok := out["collapsed"]; ok {
		delete(out, "collapsed")
		meta, _ := jsonvalue.Object(out["metadata"])
		meta = maps.Clone(meta)
		if meta == nil {
			meta = map[string]any{}
		}
		meta["collapsed"] = v
		out["metadata"] = meta
	}
	return out
}

// conflictPath is the path of a conflict's value inside its cell (inside
// the notebook for ID ""): see ConflictsKey.
func conflictPath(c dialog.Conflict, reg *registry) ([]string, bool) {
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
