package convert_test

// MergeTo writes theirs' outputs into ours' conflicted cells as Merge does, whatever the two files' styles.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// styledNotebook is a notebook of three code cells whose outputs (a
// stream, a display_data with an image and a table, an execute_result)
// carry run's mark, written in one of two styles: ours' (indent 1, keys
// sorted, texts as lists of lines, raw UTF-8) or theirs' (indent 2, keys
// in another order, texts as single strings, non-ASCII and "/" escaped).
func styledNotebook(run string, theirs bool) []byte {
	type kv struct{ k, v string }
	var b strings.Builder
	ind := func(depth int) string {
		if theirs {
			return strings.Repeat("  ", depth)
		}
		return strings.Repeat(" ", depth)
	}
	text := func(lines ...string) string { // a multiline text
		if theirs {
			s := fmt.Sprintf("%q", strings.Join(lines, ""))
			s = strings.ReplaceAll(s, "é", `\u00e9`)
			return strings.ReplaceAll(s, "/", `\/`)
		}
		q := make([]string, len(lines))
		for i, l := range lines {
			q[i] = fmt.Sprintf("%q", l)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	obj := func(depth int, members []kv) string {
		if len(members) == 0 {
			return "{}"
		}
		if !theirs {
			slices.SortFunc(members, func(a, b kv) int { return strings.Compare(a.k, b.k) }) // (keys sorted)
		}
		parts := make([]string, len(members))
		for i, m := range members {
			parts[i] = ind(depth+1) + fmt.Sprintf("%q: ", m.k) + m.v
		}
		return "{\n" + strings.Join(parts, ",\n") + "\n" + ind(depth) + "}"
	}
	arr := func(depth int, items ...string) string {
		if len(items) == 0 {
			return "[]"
		}
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = ind(depth+1) + it
		}
		return "[\n" + strings.Join(parts, ",\n") + "\n" + ind(depth) + "]"
	}
	cell := func(i int) string {
		d := 3 // a cell's outputs' members
		stream := obj(d, []kv{{"output_type", `"stream"`}, {"text", text("run "+run+"/é\n", fmt.Sprintf("line %d\n", i))}, {"name", `"stdout"`}})
		display := obj(d, []kv{{"output_type", `"display_data"`},
			{"data", obj(d+1, []kv{{"text/plain", text("<Figure "+run+">\n", "size é\n")}, {"image/png", fmt.Sprintf(`"iVBOR%s%d"`, run, i)},
				{"text/html", text("<table>\n", "<tr><td>"+run+"</td></tr>\n", "</table>")}})},
			{"metadata", obj(d+1, []kv{{"image/png", obj(d+2, []kv{{"width", "640"}, {"height", "480.5"}})}})}})
		result := obj(d, []kv{{"output_type", `"execute_result"`}, {"execution_count", fmt.Sprint(i + 1)},
			{"data", obj(d+1, []kv{{"text/plain", text("'" + run + "'")}})}, {"metadata", "{}"}})
		return obj(2, []kv{{"cell_type", `"code"`}, {"id", fmt.Sprintf(`"cell-%d"`, i)}, {"execution_count", fmt.Sprint(i + 1)},
			{"metadata", "{}"}, {"source", text(fmt.Sprintf("print(%d)\n", i), "display()")},
			{"outputs", arr(2, stream, display, result)}})
	}
	b.WriteString(obj(0, []kv{{"nbformat", "4"}, {"nbformat_minor", "5"},
		{"metadata", obj(1, []kv{{"kernelspec", obj(2, []kv{{"name", `"python3"`}, {"display_name", `"Python 3"`}, {"language", `"python"`}})}})},
		{"cells", arr(1, cell(0), cell(1), cell(2))}}))
	b.WriteString("\n")
	return []byte(b.String())
}

// TestMergeToTheirsOutputsInOursStyle: where both sides re-ran every cell
// and ours and theirs differ in style (indent, key order, text forms,
// escapes), MergeTo (which decodes theirs' outputs into ours' conflicted
// cells as each cell is written, and reads base's outputs part by part)
// writes the bytes Merge writes (which decodes them all before writing),
// base reduced or not; the result holds theirs' outputs, in ours' style.
func TestMergeToTheirsOutputsInOursStyle(t *testing.T) {
	base, ours, theirs := styledNotebook("B", false), styledNotebook("O", false), styledNotebook("T", true)
	if !bytes.Contains(theirs, []byte(`\u00e9`)) || !bytes.Contains(theirs, []byte("\n  \"cells\"")) {
		t.Fatal("theirs is not in its own style")
	}
	for _, reduce := range []bool{false, true} {
		restore := func() {}
		if reduce {
			restore = convert.ReduceBaseFrom(0)
		}
		for _, st := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsTheirs} {
			name := fmt.Sprintf("reduced %v, outputs %v", reduce, st)
			mergeToCase(t, name, base, ours, theirs, dialog.MergeOptions{Outputs: st})
			want, err := merge(base, ours, theirs, dialog.MergeOptions{Outputs: st})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// Theirs' texts decoded and written in ours' style: lists
			// of lines, raw UTF-8, indent 1.
			for _, s := range []string{`"run T/é\n"`, `"<tr><td>T</td></tr>\n"`, `"iVBORT1"`} {
				if !bytes.Contains(want.Data, []byte(s)) {
					t.Errorf("%s: no %s in the merge", name, s)
				}
			}
			if st == dialog.OutputsConflict && len(want.Conflicts) == 0 {
				t.Errorf("%s: no conflicts", name)
			}
		}
		restore()
	}
}
