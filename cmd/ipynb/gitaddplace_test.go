package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A cell both branches added, the same cell with the same id (as a
// cherry-pick or a copy makes it), at different places (base a b c, ours
// a x b c, theirs a b x c), merged by git through the driver: an unmerged
// path (git merge exit 1) holding a valid notebook with x once, at ours'
// place, recording ours' place (index 1, after a) and theirs' (index 2,
// after b), read off the orders; check reports it as a conflict. (git's
// own line merge of these files is clean with x twice: its id twice.)
func TestGitMergeCellAddedOnBothSidesApart(t *testing.T) {
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
	commitFile(t, dir, nb, ordered("a b c"), "base")
	gitIn(t, dir, "checkout", "-q", "-b", "theirs")
	commitFile(t, dir, nb, ordered("a b x c"), "theirs: x after b")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, nb, ordered("a x b c"), "ours: x after a")
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
	if strings.Join(order, " ") != "a x b c" {
		t.Fatalf("order %v, want ours' a x b c\n%s", order, merged)
	}
	want := []any{map[string]any{"pointer": "", "what": "added on both sides at different places",
		"ours": map[string]any{"index": 1.0, "after": "a"}, "theirs": map[string]any{"index": 2.0, "after": "b"}}}
	if d := cmp.Diff(want, cellOf(got, 1)["metadata"].(map[string]any)["ipynb_conflicts"]); d != "" {
		t.Errorf("record of the added cell (-want +got):\n%s", d)
	}
	r := ipynb(t, dir, "", "check", nb)
	if r.code != 1 || !strings.Contains(r.stdout, "/cells/1/metadata/ipynb_conflicts/0: conflict: cell 2 (id x): conflict recorded: added on both sides at different places") {
		t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// fix of a file whose one diff3 hunk holds the whole cell list of each
// side (base a b c, ours x a b c, theirs a b c x: x first on ours, last
// on theirs): fix merges the sides read back as merge does: x once at
// ours' place, exit 1, both places recorded (ours index 0, no after;
// theirs index 3, after c).
func TestFixCellAddedOnBothSidesApart(t *testing.T) {
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
	text := "{\n \"cells\": [\n<<<<<<< ours\n" + cells("x a b c") + "||||||| base\n" + cells("a b c") + "=======\n" + cells("a b c x") +
		">>>>>>> theirs\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, dir, "", "fix", "nb.ipynb")
	if r.code != 1 || !strings.Contains(r.stderr, "added on both sides at different places") {
		t.Fatalf("fix: exit %d, want 1 reporting the place: %s", r.code, r.stderr)
	}
	fixed, _ := os.ReadFile(p)
	validNotebook(t, fixed)
	got := decodeJSON(t, fixed)
	var order []string
	for i := range got["cells"].([]any) {
		order = append(order, cellOf(got, i)["id"].(string))
	}
	if strings.Join(order, " ") != "x a b c" {
		t.Fatalf("order %v, want ours' x a b c\n%s", order, fixed)
	}
	want := []any{map[string]any{"pointer": "", "what": "added on both sides at different places",
		"ours": map[string]any{"index": 0.0}, "theirs": map[string]any{"index": 3.0, "after": "c"}}}
	if d := cmp.Diff(want, cellOf(got, 0)["metadata"].(map[string]any)["ipynb_conflicts"]); d != "" {
		t.Errorf("record of the added cell (-want +got):\n%s", d)
	}
}
