package main

// Numbers compared by value in diff's text and JSON alike.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A number spelled otherwise (1 and 1.0, 1e2 and 100: equal as Python
// compares them) is no change in diff's text (exit 0, the line saying
// only the formatting differs) as in --json ("same": true); the text
// said "the files differ, not in any cell" (exit 1). A number changed
// (1 → 2) or a boolean for a number (true for 1) is a change in both.
func TestDiffNumbersByValueEverywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(k, c string) string {
		return `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"c": ` + c +
			`}, "outputs": [], "source": "x"}], "metadata": {"k": ` + k + `}, "nbformat": 4, "nbformat_minor": 5}`
	}
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(nb("1", "100")), 0o644)
	for _, c := range []struct {
		k, c string
		same bool
	}{
		{"1.0", "100", true},
		{"1", "1e2", true},
		{"1E0", "100.00", true},
		{"2", "100", false},
		{"1", "true", false},
		{"true", "100", false},
	} {
		os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(nb(c.k, c.c)), 0o644)
		text := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb")
		js := ipynb(t, dir, "", "diff", "--json", "a.ipynb", "b.ipynb")
		wantCode := 1
		if c.same {
			wantCode = 0
		}
		if text.code != wantCode || js.code != wantCode || strings.Contains(js.stdout, `"same": true`) != c.same ||
			strings.Contains(text.stdout, "only the formatting") != c.same {
			t.Errorf("k %s, c %s: text exit %d\n%s--json exit %d\n%s", c.k, c.c, text.code, text.stdout, js.code, js.stdout)
		}
	}
}
