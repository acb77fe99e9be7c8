package convert_test

// Tests that a cell both sides placed differently is where ours put it, each
// side's place recorded in its metadata.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// A cell whose place both sides chose differently is where ours put it,
// and its metadata records each side's place as its file has it (see
// ConflictsKey), "after" only where the file gives its cells ids:
//   - moved on both sides (base a b c d, ours b c a d, theirs b c d a: see
//     dialog.Merge): {"pointer": "", "what": "moved on both sides",
//     "base": {"index": 0}, "ours": {"index": 2, "after": "c"}, "theirs":
//     {"index": 3, "after": "d"}};
//   - added on both sides (a cherry-pick: one id; without ids, equal
//     content) at different places: {"pointer": "", "what": "added on
//     both sides at different places", "ours": {"index": N, "after": ID},
//     "theirs": …}, no "base" (base has no such cell). Added at the same
//     place it is one cell, clean. git's line merge of such files (git
//     merge-file --diff3) is clean and keeps both copies, which a 4.5
//     file cannot hold (one id twice).
//
// The expected records are read off the orders below: a cell's index is
// its position there, its "after" the cell before it.
func TestMergeRecordsCellPlacedApart(t *testing.T) {
	t.Parallel()
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
	const added = "added on both sides at different places"
	const what = `"pointer": "", "what": "` + added + `"`
	const moved = `"pointer": "", "what": "moved on both sides", "base": {"index": 0}`
	for _, c := range []struct {
		name         string
		nb           func(order string) []byte
		cells        string // the pointer of the cells
		base         string // base's order ("": a b c)
		ours, theirs string // the sides' orders
		order        string // the result's: ours'
		recs         map[string]string
	}{
		// a moved after c on ours (index 2), last on theirs (index 3).
		{"moved, 4.5, cell ids", v4(5), "/cells", "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": `{` + moved + `, "ours": {"index": 2, "after": "c"}, "theirs": {"index": 3, "after": "d"}}`}},
		{"moved, 4.4, no cell ids", v4(4), "/cells", "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": `{` + moved + `, "ours": {"index": 2}, "theirs": {"index": 3}}`}},
		{"moved, 3", v3, "/worksheets/0/cells", "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": `{` + moved + `, "ours": {"index": 2}, "theirs": {"index": 3}}`}},
		// x after a on ours (index 1), after b on theirs (index 2).
		{"4.5, cell ids", v4(5), "/cells", "", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1, "after": "a"}, "theirs": {"index": 2, "after": "b"}}`}},
		{"4.4, no cell ids", v4(4), "/cells", "", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1}, "theirs": {"index": 2}}`}},
		{"3", v3, "/worksheets/0/cells", "", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 1}, "theirs": {"index": 2}}`}},
		// First on ours (no "after"), last on theirs (after c).
		{"4.5, start and end", v4(5), "/cells", "", "x a b c", "a b c x", "x a b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 3, "after": "c"}}`}},
		{"3, end and start", v3, "/worksheets/0/cells", "", "a b c x", "x a b c", "a b c x",
			map[string]string{"x": `{` + what + `, "ours": {"index": 3}, "theirs": {"index": 0}}`}},
		// Two such cells: x first on ours, last on theirs; y after a on
		// ours (index 2, behind x a), after b on theirs (index 2).
		{"4.5, two cells", v4(5), "/cells", "", "x a y b c", "a b y c x", "x a y b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 4, "after": "c"}}`,
				"y": `{` + what + `, "ours": {"index": 2, "after": "a"}, "theirs": {"index": 2, "after": "b"}}`}},
		{"4.4, two cells", v4(4), "/cells", "", "x a y b c", "a b y c x", "x a y b c",
			map[string]string{"x": `{` + what + `, "ours": {"index": 0}, "theirs": {"index": 4}}`,
				"y": `{` + what + `, "ours": {"index": 2}, "theirs": {"index": 2}}`}},
		// The same place on both sides: one cell, clean.
		{"4.5, same place", v4(5), "/cells", "", "a x b c", "a x b c", "a x b c", nil},
		{"4.4, same place", v4(4), "/cells", "", "a b c x", "a b c x", "a b c x", nil},
		{"3, same place", v3, "/worksheets/0/cells", "", "x a b c", "x a b c", "x a b c", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := c.base
			if base == "" {
				base = "a b c"
			}
			res, err := merge(c.nb(base), c.nb(c.ours), c.nb(c.theirs), dialog.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) != len(c.recs) {
				t.Errorf("conflicts %v, want %d", res.Conflicts, len(c.recs))
			}
			for _, cf := range res.Conflicts {
				want := added
				if c.base != "" {
					want = "moved on both sides"
				}
				if cf.What != want {
					t.Errorf("conflict %v, want only %q", cf, want)
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
