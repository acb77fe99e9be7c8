package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Findings of the git attack in the merge and diff semantics (convert,
// dialog, the diff's version line).

// Both sides re-run a cell whose outputs stay the same: only the
// execution count differs (ours 2, theirs 3). Under git, with the
// default strategy, the merge conflicts (issue 21 item 7: "both sides
// changing only a count follows --outputs, default conflict"); with
// --outputs theirs, theirs' count is kept.
func TestGitMergeCountOnlyFollowsOutputs(t *testing.T) {
	needGitParallel(t)
	for _, c := range []struct {
		outputs string
		status  int
		count   float64
	}{{"conflict", 1, 0}, {"theirs", 0, 3}} {
		dir := newRepo(t)
		if r := ipynb(t, dir, "", "git", "install", "--outputs", c.outputs); r.code != 0 {
			t.Fatalf("install: %+v", r)
		}
		nb := func(count int) []byte {
			return []byte(strings.Replace(strings.Replace(mknbText(t, "x"), `"execution_count": null`, `"execution_count": `+string(rune('0'+count)), 1),
				`"outputs": []`, `"outputs": [{"name": "stdout", "output_type": "stream", "text": "same"}]`, 1))
		}
		commitFile(t, dir, "nb.ipynb", nb(1), "base")
		gitIn(t, dir, "branch", "topic")
		commitFile(t, dir, "nb.ipynb", nb(2), "ours")
		gitIn(t, dir, "checkout", "-q", "topic")
		commitFile(t, dir, "nb.ipynb", nb(3), "theirs")
		gitIn(t, dir, "checkout", "-q", "main")
		out, st := gitStatusIn(t, dir, "merge", "topic")
		if st != c.status {
			t.Errorf("--outputs %s: git merge exit %d, want %d\n%s", c.outputs, st, c.status, out)
		}
		if c.status == 0 {
			if got := cellOf(decodeJSON(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb")))), 0)["execution_count"]; got != c.count {
				t.Errorf("--outputs %s: count %v, want %v", c.outputs, got, c.count)
			}
		}
	}
}

// A notebook re-indented (as Colab re-saves it, two spaces), nothing
// else changed: git diff through the driver says only that the formatting
// changed (values are compared as values, not bytes: issue 21 item 2).
func TestGitDiffReindentedIsFormattingOnly(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	nb, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	commitFile(t, dir, "nb.ipynb", nb, "base")
	var b bytes.Buffer
	if err := json.Indent(&b, nb, "", "  "); err != nil { // only whitespace changes
		t.Fatal(err)
	}
	writeFileT(t, dir, "nb.ipynb", b.String())
	out := gitIn(t, dir, "diff")
	if strings.Contains(out, "changed") || !strings.Contains(out, "only the formatting") {
		t.Errorf("git diff of a re-indented notebook:\n%s", out)
	}
}

// A change of the format version beside a cell edit: the diff shows the
// cell edit and, after the cells, the version ("## notebook: nbformat
// 4.5 → 4.4"; the cell diff has no change for it).
func TestDiffShowsVersionBesideCellEdits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := mknbText(t, "a = 1")
	b := strings.Replace(strings.Replace(a, `"nbformat_minor": 5`, `"nbformat_minor": 4`, 1), `"a = 1"`, `"a = 2"`, 1)
	b = strings.Replace(b, `   "id": "c0",`+"\n", "", 1) // 4.4 has no ids
	writeFileT(t, dir, "a.ipynb", a)
	writeFileT(t, dir, "b.ipynb", b)
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb"); r.code != 1 || !strings.Contains(r.stdout, "nbformat") {
		t.Errorf("diff: %+v", r)
	}
}
