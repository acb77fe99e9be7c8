package main

import (
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
