package convert_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// Item 8 of issue 21: the merge takes the minor version a side moved to
// (the higher where both moved: 4.0, 4.1 and 4.2 merge as 4.2), with what
// that minor needs: from 4.5 every cell has a valid unique id (theirs'
// for cells theirs gave ids, others' made), before 4.5 none. Every
// combination of minors from 4.0 to 4.5 on the three sides, each side
// editing a cell of its own; the results are valid for Python nbformat
// and keep both edits. (Theirs moving a 4.5 ours back before 4.5 is not
// followed: it would remove ours' cell ids.)
func TestMergeVersion(t *testing.T) {
	t.Parallel()
	results := t.TempDir()
	defer pythonValidatesAll(t, results)
	nb := func(minor int, first, second string) []byte {
		cells := []string{
			withID(minor, "c0", code(`{}`, first, "[]", "null")),
			withID(minor, "c1", md(`{}`, "middle", "")),
			withID(minor, "c2", code(`{}`, second, "[]", "null")),
		}
		return notebook(minor, cells...)
	}
	n := 0
	for bm := range 6 {
		for om := range 6 {
			for tm := range 6 {
				name := fmt.Sprintf("4.%d/4.%d/4.%d", bm, om, tm)
				want := tm
				switch {
				case om == bm:
				case tm == bm:
					want = om
				default:
					want = max(om, tm)
				}
				if om == 5 {
					want = 5
				}
				res, err := merge(nb(bm, "a", "b"), nb(om, "a ours", "b"), nb(tm, "a", "b theirs"), dialog.MergeOptions{})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				os.WriteFile(filepath.Join(results, fmt.Sprintf("%03d.ipynb", n)), res.Data, 0o644)
				n++
				if len(res.Conflicts) > 0 {
					t.Errorf("%s: conflicts %v", name, res.Conflicts)
				}
				got := decodeJSON(t, res.Data)
				if got["nbformat_minor"] != float64(want) {
					t.Errorf("%s: nbformat_minor %v, want %d", name, got["nbformat_minor"], want)
				}
				ids := map[any]bool{}
				cells, _ := got["cells"].([]any)
				var srcs []any
				for _, c := range cells {
					m := c.(map[string]any)
					id, has := m["id"]
					if has != (want == 5) || has && ids[id] {
						t.Errorf("%s: cell id %v (present %v) in a 4.%d notebook", name, id, has, want)
					}
					ids[id] = true
					srcs = append(srcs, textOf(m["source"]))
				}
				if fmt.Sprint(srcs) != "[a ours middle b theirs]" {
					t.Errorf("%s: sources %v", name, srcs)
				}
				if want == 5 && tm == 5 && om < 5 && (ids["c0"] != true || ids["c2"] != true) {
					t.Errorf("%s: theirs' ids not kept: %v", name, ids)
				}
			}
		}
	}
}
