package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 9 of issue 21 in what diff prints: values that differ only in a
// lone surrogate are shown different. Metadata values were written by
// encoding/json, which turns each surrogate into U+FFFD ("\ufffd\ufffd\ufffd"
// on both sides of the arrow, in the text and in --json), and the digest
// of an output was of that same lossy form (one digest for both).
func TestDiffShowsLoneSurrogates(t *testing.T) {
	dir := t.TempDir()
	nb := func(name, meta, text string) string {
		p := filepath.Join(dir, name)
		s := `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {"k": "` + meta +
			`"}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["` + text +
			`"]}], "source": ["x"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n"
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := nb("a.ipynb", `\ud83d`, `\ud83d`), nb("b.ipynb", `\ud83e`, `\ud83e`)
	r := runWith("", "diff", a, b)
	if r.code != exitFindings || !strings.Contains(r.stdout, ` ## meta k: "\ud83d" → "\ud83e"`+"\n") {
		t.Errorf("diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var sums []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "-## out: ") || strings.HasPrefix(l, "+## out: ") {
			sums = append(sums, l[1:])
		}
	}
	if len(sums) != 2 || sums[0] == sums[1] {
		t.Errorf("diff: the outputs' summaries %q do not tell them apart", sums)
	}
	r = runWith("", "diff", "--json", a, b)
	if !strings.Contains(strings.Join(strings.Fields(r.stdout), ""), `"k":["\ud83d","\ud83e"]`) {
		t.Errorf("diff --json:\n%s", r.stdout)
	}
	if r = runWith("", "diff", "--textconv", a); !strings.Contains(r.stdout, `## meta k = "\ud83d"`+"\n") {
		t.Errorf("textconv:\n%s", r.stdout)
	}
}
