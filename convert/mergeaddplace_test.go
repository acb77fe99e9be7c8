package convert_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// A cell both sides added (a cherry-pick: one id; without ids, equal
// content) at different places is where ours put it, and its metadata
// records ours' and theirs' places as their files have them (see
// ConflictsKey): {"pointer": "", "what": "added on both sides at
// different places", "ours": {"index": N, "after": ID}, "theirs": …}, no
// "base" (base has no such cell), "after" only where the file gives its
// cells ids. Added at the same place it is one cell, clean. git's line
// merge of such files (git merge-file --diff3) is clean and keeps both
// copies, which a 4.5 file cannot hold (one id twice). The expected
// records are read off the orders below: a cell's index is its position
// there, its "after" the cell before it.
func TestMergeRecordsCellAddedOnBothSidesApart(t *testing.T) {
	cell := func(id string, withID bool) string {
		idm := ""
		if withID {
			idm = `"id": "` + id + `", `
		}
		return `{"cell_type": "markdown", ` + idm + `"metadata": {}, "source": ["cell ` + id + `\n"]}`
	}
	v4 := func(minor int) func(string) []byte {
		return func(order string) []byte {
			var cs []string
			for _, id := range strings.Fields(order) {
				cs = append(cs, cell(id, minor >= 5))
			}
			return fmt.Appendf(nil, `{"cells": [%s], "metadata": {}, "nbformat": 4, "nbformat_minor": %d}`, strings.Join(cs, ", "), minor)
		}
	}
	v3 := func(order string) []byte {
		var cs []string
		for _, id := range strings.Fields(order) {
			cs = append(cs, cell(id, false))
		}
		return []byte(`{"metadata": {"name": "nb"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [` +
			strings.Join(cs, ", ") + `], "metadata": {}}]}`)
	}
	const what = `"pointer": "", "what": "added on both sides at different places"`
	for _, c := range []struct {
		name         string
		nb           func(order string) []byte
		cells        string // the pointer of the cells
		ours, theirs string // the sides' orders (base: a b c)
		order        string // the result's: ours'
		recs         map[string]string
	}{
		// x after a on ours (index 1), after b on theirs (index 2).
		{"4.5, cell ids", v4(5), "/cells", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1, "after": "a"}, "theirs": {"index": 2, "after": "b"}}`}},
		{"4.4, no cell ids", v4(4), "/cells", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1}, "theirs": {"index": 2}}`}},
		{"3", v3, "/worksheets/0/cells", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1}, "theirs": {"index": 2}}`}},
		// First on ours (no "after"), last on theirs (after c).
		{"4.5, start and end", v4(5), "/cells", "x a b c", "a b c x", "x a b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 3, "after": "c"}}`}},
		{"3, end and start", v3, "/worksheets/0/cells", "a b c x", "x a b c", "a b c x",
			map[string]string{"x": `{` + what + `, "ours": {"index": 3}, "theirs": {"index": 0}}`}},
		// Two such cells: x first on ours, last on theirs; y after a on
		// ours (index 2, behind x a), after b on theirs (index 2).
		{"4.5, two cells", v4(5), "/cells", "x a y b c", "a b y c x", "x a y b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 4, "after": "c"}}`,
				"y": `{` + what + `, "ours": {"index": 2, "after": "a"}, "theirs": {"index": 2, "after": "b"}}`}},
		{"4.4, two cells", v4(4), "/cells", "x a y b c", "a b y c x", "x a y b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 4}}`,
				"y": `{` + what + `, "ours": {"index": 2}, "theirs": {"index": 2}}`}},
		// The same place on both sides: one cell, clean.
		{"4.5, same place", v4(5), "/cells", "a x b c", "a x b c", "a x b c", nil},
		{"4.4, same place", v4(4), "/cells", "a b c x", "a b c x", "a b c x", nil},
		{"3, same place", v3, "/worksheets/0/cells", "x a b c", "x a b c", "x a b c", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := convert.Merge(c.nb("a b c"), c.nb(c.ours), c.nb(c.theirs), dialog.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) != len(c.recs) {
				t.Errorf("conflicts %v, want %d", res.Conflicts, len(c.recs))
			}
			for _, cf := range res.Conflicts {
				if cf.What != "added on both sides at different places" {
					t.Errorf("conflict %v, want only cells added apart", cf)
				}
			}
			out := decodeJSON(t, res.Data)
			cellsV, _ := pointerAt(out, c.cells)
			cells, _ := cellsV.([]any)
			var order []string
			for _, x := range cells {
				src, _ := pointerAt(x, "/source")
				order = append(order, strings.TrimSpace(strings.TrimPrefix(fmt.Sprint(textOf(src)), "cell ")))
			}
			if got := strings.Join(order, " "); got != c.order {
				t.Fatalf("order %q, want ours' %q:\n%s", got, c.order, res.Data)
			}
			for i, x := range cells {
				recs, has := pointerAt(x, "/metadata/"+convert.ConflictsKey)
				rec, want := c.recs[order[i]]
				if !want {
					if has {
						t.Errorf("cell %s has records %v", order[i], recs)
					}
					continue
				}
				if d := cmp.Diff([]any{decodeJSON(t, []byte(rec))}, recs); d != "" {
					t.Errorf("records of cell %s (-want +got):\n%s\nresult:\n%s", order[i], d, res.Data)
				}
			}
		})
	}
}
