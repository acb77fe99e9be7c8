package v3write

import (
	"slices"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
)

// What of a version 3 file's style package nbformat's writer cannot see
// (it detects layout, indentation, escaping and whether keys are sorted,
// and writes everything new in them): how the worksheets' cells store
// their texts, the order of their members, how an unrun cell's prompt
// number is written, the cells' language, and whether the file is ASCII.

// v3Style is the style of ours' worksheets.
type v3Style struct {
	// lines: texts are stored as lists of lines (else as strings), split
	// as every version 3 writer (Python's) splits them, by
	// str.splitlines.
	lines bool
	// cellOrder and outOrder are the member orders ours' cells (by
	// cell_type) and outputs (by output_type) use, merged over all of
	// them: what a new cell or output of the type is written in (unless
	// the file sorts its keys, which nbformat's writer keeps).
	cellOrder map[string][]string
	outOrder  map[string][]string
	nullCount bool   // an unrun code cell's prompt_number is written null (else left out)
	language  string // the language of new code cells
	// ascii: the file has no byte beyond ASCII, as every version 3 writer
	// (Python's json.dumps with its default ensure_ascii) leaves it;
	// nbformat's writer, seeing no escape, would write new text raw.
	ascii bool
}

// detectStyle reads the style of f's worksheets.
func detectStyle(f *v3File) *v3Style {
	t := f.t
	st := &v3Style{cellOrder: map[string][]string{}, outOrder: map[string][]string{}, ascii: true}
	for _, c := range t.Data {
		if c >= 0x80 {
			st.ascii = false
			break
		}
	}
	arrays, strs := 0, 0
	absent, null := 0, 0
	langs := map[string]bool{}
	for _, r := range f.cells {
		nodes, keys := members(t, r.node)
		typ := ""
		if j, ok := nodes["cell_type"]; ok && t.Nodes[j].Kind == jsontree.String {
			typ = t.Str(j)
		}
		st.cellOrder[typ] = mergeOrder(st.cellOrder[typ], keys)
		text := "source"
		if typ == "code" {
			text = "input"
			switch j, ok := nodes["prompt_number"]; {
			case !ok:
				absent++
			case t.Nodes[j].Kind == jsontree.Null:
				null++
			}
			if j, ok := nodes["language"]; ok && t.Nodes[j].Kind == jsontree.String {
				langs[t.Str(j)] = true
			}
			if j, ok := nodes["outputs"]; ok && t.Nodes[j].Kind == jsontree.Array && !t.Lazy(j) {
				t.Children(j, func(o int) bool {
					if t.Nodes[o].Kind == jsontree.Object && !t.Lazy(o) {
						onodes, okeys := members(t, o)
						otyp := ""
						if k, ok := onodes["output_type"]; ok && t.Nodes[k].Kind == jsontree.String {
							otyp = t.Str(k)
						}
						st.outOrder[otyp] = mergeOrder(st.outOrder[otyp], okeys)
					}
					return true
				})
			}
		}
		if j, ok := nodes[text]; ok {
			switch n := &t.Nodes[j]; n.Kind {
			case jsontree.Array:
				arrays++
			case jsontree.String:
				if n.End-n.Start > 2 {
					strs++
				}
			}
		}
	}
	st.lines = arrays >= strs
	st.nullCount = !(absent > 0 && null == 0)
	st.language = "python"
	if len(langs) == 1 {
		for l := range langs {
			st.language = l
		}
	}
	return st
}

// orderOf is the member order of a new cell of version 3 type typ: that
// of ours' cells of the type, else (a heading or html cell in a file
// without one) that of its markdown cells.
func (st *v3Style) orderOf(typ string) []string {
	if o, ok := st.cellOrder[typ]; ok {
		return o
	}
	return st.cellOrder[family(typ)]
}

// mergeOrder adds to order the keys it lacks, each after the key that
// precedes it in keys (at the front for the first), so that order holds
// the orders of every object merged.
func mergeOrder(order, keys []string) []string {
	prev := -1
	for _, k := range keys {
		i := slices.Index(order, k)
		if i < 0 {
			i = prev + 1
			order = slices.Insert(order, i, k)
		}
		prev = i
	}
	return order
}

// split returns text as ours stores texts: a list of lines, or one
// string. A list is written only where nbformat 3's reader joins it back
// to text (its _join_lines joins lists whose first line ends with "\n" or
// "\r" as they are, others with "\n"); Python's writer splits by
// str.splitlines regardless, and a text whose first line ends with
// another boundary ("a\u2028b") comes back changed.
func (st *v3Style) split(text string) any {
	if !st.lines {
		return text
	}
	ls := lines.Split(text)
	if lines.JoinV3(ls) != text {
		return text
	}
	return stringList(ls)
}
