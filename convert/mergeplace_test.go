package convert_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// A cell both sides moved to different places (base a b c d, ours b c a
// d, theirs b c d a: see dialog.Merge) is where ours put it, and its
// metadata records every side's place as its file has it (see
// ConflictsKey): {"pointer": "", "what": "moved on both sides", "base":
// {"index": 0}, "ours": {"index": 2, "after": "c"}, "theirs": {"index":
// 3, "after": "d"}}, "after" only where the file gives its cells ids. The
// expected records are read off the orders below.
func TestMergeRecordsCellMovedOnBothSides(t *testing.T) {
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
	for _, c := range []struct {
		name  string
		nb    func(order string) []byte
		cells string // the pointer of the cells
		rec   string // the record, as JSON
	}{
		{"4.5, cell ids", v4(5), "/cells", `{"pointer": "", "what": "moved on both sides", "base": {"index": 0},
			"ours": {"index": 2, "after": "c"}, "theirs": {"index": 3, "after": "d"}}`},
		{"4.4, no cell ids", v4(4), "/cells", `{"pointer": "", "what": "moved on both sides", "base": {"index": 0},
			"ours": {"index": 2}, "theirs": {"index": 3}}`},
		{"3", v3, "/worksheets/0/cells", `{"pointer": "", "what": "moved on both sides", "base": {"index": 0},
			"ours": {"index": 2}, "theirs": {"index": 3}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := convert.Merge(c.nb("a b c d"), c.nb("b c a d"), c.nb("b c d a"), dialog.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) != 1 || res.Conflicts[0].What != "moved on both sides" {
				t.Fatalf("conflicts %v, want the cell moved on both sides", res.Conflicts)
			}
			out := decodeJSON(t, res.Data)
			cellsV, _ := pointerAt(out, c.cells)
			cells, _ := cellsV.([]any)
			var order []string
			for _, x := range cells {
				src, _ := pointerAt(x, "/source")
				order = append(order, strings.TrimSpace(strings.TrimPrefix(fmt.Sprint(textOf(src)), "cell ")))
			}
			if got := strings.Join(order, " "); got != "b c a d" {
				t.Fatalf("order %q, want ours' %q:\n%s", got, "b c a d", res.Data)
			}
			for i, x := range cells {
				recs, has := pointerAt(x, "/metadata/"+convert.ConflictsKey)
				if i != 2 {
					if has {
						t.Errorf("cell %d has records %v", i, recs)
					}
					continue
				}
				want := []any{decodeJSON(t, []byte(c.rec))}
				if d := cmp.Diff(want, recs); d != "" {
					t.Errorf("records of the moved cell (-want +got):\n%s\nresult:\n%s", d, res.Data)
				}
			}
		})
	}
}
