// A criss-cross merge (two merge bases) through the driver: two
// branches' resolutions of one conflict meet as a conflict again.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crissCross commits base, then x1 on branch x and y1 on y, then on
// each branch a merge of the other's first commit resolved as x2 and y2,
// and merges y into x. It returns the merge's exit status and the file.
func crissCross(t *testing.T, base, x1, y1, x2, y2 []byte) (int, []byte) {
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %d %s", r.code, r.stderr)
	}
	commitFile(t, dir, "nb.ipynb", base, "A")
	gitIn(t, dir, "checkout", "-q", "-b", "x")
	commitFile(t, dir, "nb.ipynb", x1, "X1")
	gitIn(t, dir, "checkout", "-q", "-b", "y", "main")
	commitFile(t, dir, "nb.ipynb", y1, "Y1")
	gitIn(t, dir, "checkout", "-q", "x")
	gitStatusIn(t, dir, "merge", "-q", "--no-commit", "--no-ff", "y")
	commitMerge(t, dir, x2, "X2")
	gitIn(t, dir, "checkout", "-q", "y")
	gitStatusIn(t, dir, "merge", "-q", "--no-commit", "--no-ff", "x~1")
	commitMerge(t, dir, y2, "Y2")
	gitIn(t, dir, "checkout", "-q", "x")
	if n := strings.Count(gitIn(t, dir, "merge-base", "--all", "x", "y"), "\n"); n != 2 {
		t.Fatalf("%d merge bases, want 2 (a criss-cross)", n)
	}
	_, st := gitStatusIn(t, dir, "merge", "--no-edit", "y")
	got, err := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return st, got
}

// commitMerge writes data to dir/nb.ipynb and commits it: the merge in
// progress, resolved as data.
func commitMerge(t *testing.T, dir string, data []byte, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "nb.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "--", "nb.ipynb")
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func TestGitCrissCrossMergeConflicts(t *testing.T) {
	needGitParallel(t)
	nb := func(kind string, meta map[string]any) []byte {
		c := map[string]any{"cell_type": kind, "id": "a1", "metadata": meta, "source": []any{"x = 1"}}
		if kind == "code" {
			c["execution_count"], c["outputs"] = nil, []any{}
		}
		return []byte(jupyterNotebook(5, c, map[string]any{"cell_type": "markdown", "id": "b2", "metadata": map[string]any{}, "source": []any{"text"}}))
	}
	for _, c := range []struct {
		name           string
		base, x, y     []byte
		xValue, yValue string // how each branch's value is written
	}{
		{"tags", nb("code", map[string]any{}), nb("code", map[string]any{"tags": []any{"x"}}), nb("code", map[string]any{"tags": []any{"y"}}), `"x"`, `"y"`},
		{"nested metadata", nb("code", map[string]any{"colab": map[string]any{"k": "v0"}}), nb("code", map[string]any{"colab": map[string]any{"k": "v1"}}), nb("code", map[string]any{"colab": map[string]any{"k": "v2"}}), `"v1"`, `"v2"`},
		{"kind", nb("code", map[string]any{}), nb("markdown", map[string]any{}), nb("raw", map[string]any{}), `"markdown"`, `"raw"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Each branch's merge of the other resolved the conflict as
			// its own value.
			st, got := crissCross(t, c.base, c.x, c.y, c.x, c.y)
			if st != 1 {
				t.Errorf("git merge: exit %d, want 1 (a conflict, as git's text merge gives)", st)
			}
			var v any
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("the merge is not JSON: %v\n%s", err, got)
			}
			// Both resolutions are in the file (one in the cell, the other
			// in its conflict record), compacted by encoding/json.
			flat, _ := json.MarshalIndent(v, "", " ")
			for _, want := range []string{c.xValue, c.yValue} {
				if !strings.Contains(string(flat), want) {
					t.Errorf("%s is in no file after the merge:\n%s", want, flat)
				}
			}
		})
	}
}

// A criss-cross merge whose branches' merges agree is clean, and keeps
// every change: the bases' merge has no conflict to meet again.
func TestGitCrissCrossMergeClean(t *testing.T) {
	needGitParallel(t)
	cell := func(id, src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": id, "metadata": map[string]any{}, "source": []any{src}}
	}
	nb := func(a, b, c string) []byte {
		return []byte(jupyterNotebook(5, cell("a", a), cell("b", b), cell("c", c)))
	}
	st, got := crissCross(t, nb("a", "b", "c"), nb("a from x", "b", "c"), nb("a", "b from y", "c"),
		nb("a from x", "b from y", "c from x"), nb("a from x", "b from y", "c"))
	if st != 0 {
		t.Errorf("git merge: exit %d, want 0 (clean)", st)
	}
	if want := nb("a from x", "b from y", "c from x"); string(got) != string(want) {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
}

// An install by a version that did not set merge.ipynb.recursive is
// reported by status, with its repair, which install makes.
func TestGitStatusFindsNoInnerMerge(t *testing.T) {
	needGitParallel(t)
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %d %s", r.code, r.stderr)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "merge.ipynb.recursive")); got != "binary" {
		t.Errorf("merge.ipynb.recursive = %q, want binary", got)
	}
	gitIn(t, dir, "config", "--unset", "merge.ipynb.recursive")
	r := ipynb(t, dir, "", "git", "status")
	if r.code != exitFindings || !strings.Contains(r.stdout, "merge.ipynb.recursive is not set: a criss-cross merge") || !strings.Contains(r.stdout, "repair with: ipynb git install\n") {
		t.Errorf("status: exit %d\n%s", r.code, r.stdout)
	}
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || !strings.Contains(r.stdout, "merge.ipynb.recursive = binary") {
		t.Fatalf("install again: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != exitOK {
		t.Errorf("status after the repair: exit %d\n%s", r.code, r.stdout)
	}
	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 {
		t.Fatalf("uninstall: %d %s", r.code, r.stderr)
	}
	if out, st := gitStatusIn(t, dir, "config", "--get-regexp", `^merge\.ipynb\.`); st != 1 {
		t.Errorf("uninstall left %s", out)
	}
}
