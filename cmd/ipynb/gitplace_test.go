package main

// Tests that a cell both sides placed differently, merged by git's driver or by
// fix, is in ours' order with each side's place recorded.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// placedApart are cells whose place both sides chose differently, merged
// under git or fixed: ours' order is the result's, and the cell records
// each side's place (index, and the cell it follows) as read off the
// orders, with the conflict's name.
var placedApart = []struct {
	name                     string
	base, ours, theirs       string // cell ids in order
	what                     string
	cell                     int            // the recording cell's index in ours' order
	record                   map[string]any // (the "pointer" and "what" members aside)
	checkLine                string         // check's line for the record, under git
	fixBase, fixOurs, fixThr string         // the orders of the fix case's one diff3 hunk
	fixCell                  int
	fixRecord                map[string]any
}{
	{
		// A cell both branches moved (base a b c d, ours b c a d,
		// theirs b c d a).
		name: "moved on both sides", base: "a b c d", ours: "b c a d", theirs: "b c d a", what: "moved on both sides",
		cell:      2,
		record:    map[string]any{"base": map[string]any{"index": 0.0}, "ours": map[string]any{"index": 2.0, "after": "c"}, "theirs": map[string]any{"index": 3.0, "after": "d"}},
		checkLine: "/cells/2/metadata/ipynb_conflicts/0: conflict: cell 3 (id a): conflict recorded: moved on both sides",
		fixBase:   "a b c d", fixOurs: "b c a d", fixThr: "b c d a", fixCell: 2,
		fixRecord: map[string]any{"base": map[string]any{"index": 0.0}, "ours": map[string]any{"index": 2.0, "after": "c"}, "theirs": map[string]any{"index": 3.0, "after": "d"}},
	},
	{
		// A cell both branches added, the same cell with the same id (as
		// a cherry-pick or a copy makes it), at different places: no
		// base place. (git's own line merge of these files is clean with
		// x twice: its id twice.)
		name: "added on both sides at different places", base: "a b c", ours: "a x b c", theirs: "a b x c", what: "added on both sides at different places",
		cell:      1,
		record:    map[string]any{"ours": map[string]any{"index": 1.0, "after": "a"}, "theirs": map[string]any{"index": 2.0, "after": "b"}},
		checkLine: "/cells/1/metadata/ipynb_conflicts/0: conflict: cell 2 (id x): conflict recorded: added on both sides at different places",
		fixBase:   "a b c", fixOurs: "x a b c", fixThr: "a b c x", fixCell: 0,
		fixRecord: map[string]any{"ours": map[string]any{"index": 0.0}, "theirs": map[string]any{"index": 3.0, "after": "c"}},
	},
}

// withWhat is a place record as the file holds it.
func withWhat(what string, rec map[string]any) []any {
	r := map[string]any{"pointer": "", "what": what}
	for k, v := range rec {
		r[k] = v
	}
	return []any{r}
}

// cellIDs returns the ids of a decoded notebook's cells, in order.
func cellIDs(got map[string]any) string {
	var order []string
	for i := range got["cells"].([]any) {
		order = append(order, cellOf(got, i)["id"].(string))
	}
	return strings.Join(order, " ")
}

// Merged by git through the driver: an unmerged path (status UU, git
// merge exit 1) holding a valid notebook in ours' order, whose cell
// records the places, and which check reports as a conflict.
func TestGitMergeCellPlacedApart(t *testing.T) {
	needGitParallel(t)
	ordered := func(ids string) []byte {
		var cs []map[string]any
		for _, id := range strings.Fields(ids) {
			cs = append(cs, codeCell(id, id+"\n", map[string]any{}))
		}
		return []byte(jupyterNotebook(5, cs...))
	}
	for _, c := range placedApart {
		t.Run(c.name, func(t *testing.T) {
			dir := newRepo(t)
			if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			const nb = "nb.ipynb"
			commitFile(t, dir, nb, ordered(c.base), "base")
			gitIn(t, dir, "checkout", "-q", "-b", "theirs")
			commitFile(t, dir, nb, ordered(c.theirs), "theirs")
			gitIn(t, dir, "checkout", "-q", "main")
			commitFile(t, dir, nb, ordered(c.ours), "ours")
			out, status := gitStatusIn(t, dir, "merge", "--no-edit", "theirs")
			if status != 1 || !strings.Contains(out, "CONFLICT (content): Merge conflict in nb.ipynb") {
				t.Fatalf("git merge: exit %d, want 1 with a conflict\n%s", status, out)
			}
			merged, _ := os.ReadFile(filepath.Join(dir, nb))
			validNotebook(t, merged)
			got := decodeJSON(t, merged)
			if order := cellIDs(got); order != c.ours {
				t.Fatalf("order %v, want ours' %s\n%s", order, c.ours, merged)
			}
			if d := cmp.Diff(withWhat(c.what, c.record), cellOf(got, c.cell)["metadata"].(map[string]any)["ipynb_conflicts"]); d != "" {
				t.Errorf("record of the cell (-want +got):\n%s", d)
			}
			if st := gitIn(t, dir, "status", "--porcelain"); st != "UU nb.ipynb\n" {
				t.Errorf("git status: %q, want an unmerged path", st)
			}
			r := ipynb(t, dir, "", "check", nb)
			if r.code != 1 || !strings.Contains(r.stdout, "nb.ipynb (1 conflict)") || !strings.Contains(r.stdout, c.checkLine) {
				t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// fix of a file whose one diff3 hunk holds the whole cell list of each
// side (as a line merge can leave it): fix merges the sides read back as
// merge does: ours' order, exit 1, the places recorded in the cell.
func TestFixCellPlacedApart(t *testing.T) {
	cells := func(ids string) string {
		var cs []string
		for _, id := range strings.Fields(ids) {
			b, err := json.MarshalIndent(codeCell(id, id+"\n", map[string]any{}), "  ", " ")
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, "  "+string(b))
		}
		return strings.Join(cs, ",\n") + "\n"
	}
	for _, c := range placedApart {
		t.Run(c.name, func(t *testing.T) {
			text := "{\n \"cells\": [\n<<<<<<< ours\n" + cells(c.fixOurs) + "||||||| base\n" + cells(c.fixBase) + "=======\n" + cells(c.fixThr) +
				">>>>>>> theirs\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
			dir := t.TempDir()
			p := filepath.Join(dir, "nb.ipynb")
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			r := ipynb(t, dir, "", "fix", "nb.ipynb")
			if r.code != 1 || !strings.Contains(r.stderr, c.what) {
				t.Fatalf("fix: exit %d, want 1 reporting %q: %s", r.code, c.what, r.stderr)
			}
			fixed, _ := os.ReadFile(p)
			validNotebook(t, fixed)
			got := decodeJSON(t, fixed)
			if order := cellIDs(got); order != c.fixOurs {
				t.Fatalf("order %v, want ours' %s\n%s", order, c.fixOurs, fixed)
			}
			if d := cmp.Diff(withWhat(c.what, c.fixRecord), cellOf(got, c.fixCell)["metadata"].(map[string]any)["ipynb_conflicts"]); d != "" {
				t.Errorf("record of the cell (-want +got):\n%s", d)
			}
		})
	}
}
