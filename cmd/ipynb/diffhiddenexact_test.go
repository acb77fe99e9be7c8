package main

import (
	"strings"
	"testing"
)

// Where no cell changed, the line saying how two files differ reads them
// as notebooks are read (diffhidden.go): a file with NaN (which
// notebooks hold, and encoding/json refuses) that was only re-indented is
// "only the formatting" (exit 0; it was "the files differ, not in any
// cell", exit 1), and two files differing only in a lone surrogate
// outside the cells differ (exit 1; encoding/json read both as U+FFFD:
// "only the formatting", exit 0 — item 9 of issue 21). The line naming
// a change of version is shown for files holding NaN too (it was left
// out).
func TestDiffHiddenDifferenceReadsAsNotebooks(t *testing.T) {
	dir := t.TempDir()
	const nb = "{\n \"cells\": [],\n \"extra\": \"%s\",\n \"metadata\": {\n  \"k\": NaN\n },\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	a := writeFileT(t, dir, "a.ipynb", strings.Replace(nb, "%s", "x", 1))
	reindented := writeFileT(t, dir, "b.ipynb", strings.ReplaceAll(strings.Replace(nb, "%s", "x", 1), "\n ", "\n  "))
	r := runWith("", "diff", a, reindented)
	if r.code != exitOK || !strings.Contains(r.stdout, "## the same notebook: only the formatting of its JSON differs") {
		t.Errorf("re-indented, NaN: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	noNaN := strings.Replace(nb, "NaN", "1", 1)
	s1 := writeFileT(t, dir, "s1.ipynb", strings.Replace(noNaN, "%s", `\ud83d`, 1))
	s2 := writeFileT(t, dir, "s2.ipynb", strings.Replace(noNaN, "%s", `\ud83e`, 1))
	r = runWith("", "diff", s1, s2)
	if r.code != exitFindings || !strings.Contains(r.stdout, `## the files differ, not in any cell: first at /extra ("\ud83d" → "\ud83e")`+"\n") {
		t.Errorf("lone surrogates: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cell := func(text, minor string) string {
		return `{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["` + text + `"]}], "metadata": {"k": NaN}, "nbformat": 4, "nbformat_minor": ` + minor + "}\n"
	}
	r = runWith("", "diff", writeFileT(t, dir, "v3.ipynb", cell("a", "3")), writeFileT(t, dir, "v4.ipynb", cell("b", "4")))
	if r.code != exitFindings || !strings.HasSuffix(r.stdout, "\n## notebook: nbformat 4.3 → 4.4\n") {
		t.Errorf("version change, NaN: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
