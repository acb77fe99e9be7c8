package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A cell both branches moved to different places (base a b c d, ours
// b c a d, theirs b c d a), merged by git through the driver: an
// unmerged path (status UU, git merge exit 1) holding a valid notebook in
// ours' order, whose moved cell records theirs' place (index 3, after d)
// beside ours' and base's, and which check reports as a conflict. The
// expected record is read off the orders.
func TestGitMergeCellMovedOnBothSides(t *testing.T) {
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	ordered := func(ids string) []byte {
		var cs []map[string]any
		for _, id := range strings.Fields(ids) {
			cs = append(cs, codeCell(id, id+"\n", map[string]any{}))
		}
		return []byte(jupyterNotebook(5, cs...))
	}
	const nb = "nb.ipynb"
	commitFile(t, dir, nb, ordered("a b c d"), "base")
	gitIn(t, dir, "checkout", "-q", "-b", "theirs")
	commitFile(t, dir, nb, ordered("b c d a"), "theirs: a last")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, nb, ordered("b c a d"), "ours: a after c")
	out, status := gitStatusIn(t, dir, "merge", "--no-edit", "theirs")
	if status != 1 || !strings.Contains(out, "CONFLICT (content): Merge conflict in nb.ipynb") {
		t.Fatalf("git merge: exit %d, want 1 with a conflict\n%s", status, out)
	}
	merged, _ := os.ReadFile(filepath.Join(dir, nb))
	validNotebook(t, merged)
	got := decodeJSON(t, merged)
	var order []string
	for i := range got["cells"].([]any) {
		order = append(order, cellOf(got, i)["id"].(string))
	}
	if strings.Join(order, " ") != "b c a d" {
		t.Fatalf("order %v, want ours' b c a d\n%s", order, merged)
	}
	want := []any{map[string]any{"pointer": "", "what": "moved on both sides", "base": map[string]any{"index": 0.0},
		"ours": map[string]any{"index": 2.0, "after": "c"}, "theirs": map[string]any{"index": 3.0, "after": "d"}}}
	if d := cmp.Diff(want, cellOf(got, 2)["metadata"].(map[string]any)["ipynb_conflicts"]); d != "" {
		t.Errorf("record of the moved cell (-want +got):\n%s", d)
	}
	if st := gitIn(t, dir, "status", "--porcelain"); st != "UU nb.ipynb\n" {
		t.Errorf("git status: %q, want an unmerged path", st)
	}
	r := ipynb(t, dir, "", "check", nb)
	if r.code != 1 || !strings.Contains(r.stdout, "nb.ipynb (1 conflict)") || !strings.Contains(r.stdout, "/cells/2/metadata/ipynb_conflicts/0: conflict: cell 3 (id a): conflict recorded: moved on both sides") {
		t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// fix of a file whose one diff3 hunk holds the whole cell list of each
// side (base a b c d, ours b c a d, theirs b c d a, as a line merge can
// leave it): the sides read back are the double move, which fix merges
// as merge does: ours' order, exit 1, theirs' place recorded in the
// moved cell.
func TestFixCellMovedOnBothSides(t *testing.T) {
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
	text := "{\n \"cells\": [\n<<<<<<< ours\n" + cells("b c a d") + "||||||| base\n" + cells("a b c d") + "=======\n" + cells("b c d a") +
		">>>>>>> theirs\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, dir, "", "fix", "nb.ipynb")
	if r.code != 1 || !strings.Contains(r.stderr, "moved on both sides") {
		t.Fatalf("fix: exit %d, want 1 reporting the move: %s", r.code, r.stderr)
	}
	fixed, _ := os.ReadFile(p)
	validNotebook(t, fixed)
	got := decodeJSON(t, fixed)
	var order []string
	for i := range got["cells"].([]any) {
		order = append(order, cellOf(got, i)["id"].(string))
	}
	if strings.Join(order, " ") != "b c a d" {
		t.Fatalf("order %v, want ours' b c a d\n%s", order, fixed)
	}
	theirs := map[string]any{"index": 3.0, "after": "d"}
	recs, _ := cellOf(got, 2)["metadata"].(map[string]any)["ipynb_conflicts"].([]any)
	if len(recs) != 1 || !cmp.Equal(recs[0].(map[string]any)["theirs"], theirs) {
		t.Errorf("records of the moved cell %v, want one with theirs %v", recs, theirs)
	}
}
