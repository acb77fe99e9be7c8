package convert

import (
	"maps"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// A version 3 notebook's metadata is free: its kernelspec and
// language_info need not have the members version 4 requires of them
// (display_name and name, name), which reading gives the empty string
// when a file lacks them. Written as version 3, the merged metadata keeps
// such a member absent when it is empty and no input has it written.

// v3Required are the members version 4 requires of the notebook
// metadata's objects.
var v3Required = [...]struct {
	key     string
	members []string
}{{"kernelspec", []string{"display_name", "name"}}, {"language_info", []string{"name"}}}

// v3MetaShape records the notebook metadata's kernelspec and
// language_info members (nothing else).
var v3MetaShape = func() *jsontree.Shape {
	scalars := &jsontree.Shape{}
	return &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"metadata": {Members: map[string]*jsontree.Shape{"kernelspec": scalars, "language_info": scalars}},
	}}
}()

// withoutFilled returns meta (the merged metadata written as version 3)
// without the required members of kernelspec and language_info that are
// empty and written empty in none of the inputs: absent where the input
// their object comes from lacks them. meta is not changed (a copy is
// returned where one is dropped).
func withoutFilled(meta map[string]any, in mergeInputs) map[string]any {
	var tapes [3]*jsontree.Tape
	parsed, cloned := false, false
	out := meta
	for _, r := range v3Required {
		obj, ok := jsonvalue.Object(meta[r.key])
		if !ok {
			continue
		}
		var drop []string
		for _, m := range r.members {
			if v, has := obj[m]; !has || v != "" {
				continue
			}
			if !parsed {
				for i, data := range [3][]byte{in.base, in.ours, in.theirs} {
					tapes[i], _ = jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, v3MetaShape)
				}
				parsed = true
			}
			if !writtenEmpty(tapes, r.key, m) {
				drop = append(drop, m)
			}
		}
		if len(drop) == 0 {
			continue
		}
		if !cloned {
			out, cloned = maps.Clone(meta), true
		}
		o := maps.Clone(obj)
		for _, m := range drop {
			delete(o, m)
		}
		out[r.key] = o
	}
	return out
}

// writtenEmpty reports whether an input (parsed by v3MetaShape; nil if
// not JSON) has member m of the notebook metadata's object key written
// as the empty string.
func writtenEmpty(tapes [3]*jsontree.Tape, key, m string) bool {
	for _, t := range tapes {
		if t == nil {
			continue
		}
		j := t.Lookup(jsontree.Root, "metadata")
		if j < 0 || t.Nodes[j].Kind != jsontree.Object {
			continue
		}
		if j = t.Lookup(j, key); j < 0 || t.Nodes[j].Kind != jsontree.Object {
			continue
		}
		if j = t.Lookup(j, m); j >= 0 && t.Nodes[j].Kind == jsontree.String && t.StrIs(j, "") {
			return true
		}
	}
	return false
}
