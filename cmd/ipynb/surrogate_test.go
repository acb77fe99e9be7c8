package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 9 of issue 21 through the command: diff tells notebooks apart
// that differ only in a lone surrogate (it called them identical), and
// fix keeps such escapes, both sides' versions between markers.
func TestLoneSurrogatesThroughDiffAndFix(t *testing.T) {
	t.Parallel()
	needGit(t)
	dir := t.TempDir()
	nb := func(line string) string {
		return "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"a\",\n   \"metadata\": {},\n   \"source\": [\n    \"" + line +
			"\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	}
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(nb(`x \ud83d`)), 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(nb(`x \ud83e`)), 0o644)
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb"); r.code != 1 {
		t.Errorf("diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "a.ipynb"); r.code != 0 {
		t.Errorf("diff of a file with itself: exit %d", r.code)
	}
	p := gitConflict(t, dir, nb(`x`), nb(`x \ud83d`), nb(`x \ud83e`))
	if r := ipynb(t, dir, "", "fix", p); r.code != 1 {
		t.Fatalf("fix: exit %d: %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), `x \ud83d`) || !strings.Contains(string(data), `x \ud83e`) || strings.Contains(string(data), `\ufffd`) {
		t.Errorf("fix:\n%s", data)
	}
}
