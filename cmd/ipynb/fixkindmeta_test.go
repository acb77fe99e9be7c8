package main

import (
	"testing"
)

// Seed 10002840 (fix path): ours made a prompt code (dropping its
// "solveit_ai", its reply gone), theirs put a note before it. Git's
// hunks give the note's header to the prompt's lines, so that the sides
// read back are: base a code cell with "solveit_ai": true, ours the same
// cell without it, theirs the note and the cell as markdown with it (a
// prompt). Theirs' kind carries the key ours deleted: the result, a
// prompt as theirs made it, holds "solveit_ai" (its kind gives it back),
// so ours' deletion, which is in git's file, must be in a record of that
// key without an "ours" value (ours has none), and fix exits 1.
func TestFixKindMetaOneSideDeleted(t *testing.T) {
	needGit(t)
	src := "«b0»\nb0.1 x = 1\n"
	prompt := map[string]any{"cell_type": "markdown", "metadata": map[string]any{"collapsed": true, "solveit_ai": true},
		"source": []any{src + "\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nb0.r1 answer"}}
	note := map[string]any{"cell_type": "markdown", "metadata": map[string]any{"deep": map[string]any{"a": 1}}, "source": []any{"«t6»\nt6.1 - item"}}
	ours := codeCell("", src, map[string]any{"collapsed": true})
	ours["source"] = []any{src}
	dir := t.TempDir()
	p := gitConflict(t, dir, jupyterNotebook(0, prompt), jupyterNotebook(0, ours), jupyterNotebook(0, note, prompt), "--diff3")
	r := ipynb(t, dir, "", "fix", p)
	if r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, c := range decoded(t, p)["cells"].([]any) {
		meta := c.(map[string]any)["metadata"].(map[string]any)
		if _, ok := meta["solveit_ai"]; !ok {
			continue // (ours' value: none)
		}
		recorded := false
		recs, _ := meta["ipynb_conflicts"].([]any)
		for _, x := range recs {
			rec := x.(map[string]any)
			if _, has := rec["ours"]; rec["pointer"] == "/metadata/solveit_ai" && !has && rec["theirs"] == true {
				recorded = true
			}
		}
		if !recorded {
			t.Errorf("cell %v holds solveit_ai without a record of ours' deletion; stderr %s", c, r.stderr)
		}
	}
}
