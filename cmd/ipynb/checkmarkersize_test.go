package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Finding 06 of the 2026-12-03 attack, as a class: a conflict marked
// with markers of any size (a .gitattributes conflict-marker-size makes
// git ask for up to 2147483647; they are written at most 1024 long) is
// quoted by check with the marker abbreviated past 7 characters and a
// long label cut, in the source's markers and the marker outputs alike
// (check quoted each 1024-character marker in full: a 2,100-character
// line per conflict). Expected lines hand-derived from the rule.
func TestCheckAbbreviatesLongMarkers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(name, src, out string) string {
		p := filepath.Join(dir, name)
		s := `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["` +
			out + `\n"]}], "source": ["` + src + `"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n"
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	long := strings.Repeat("x", 50)
	for _, tc := range []struct {
		size, ours, theirs string
		open, close        string // as check quotes them
	}{
		{"2147483647", "HEAD", "topic", "<<<<<<<(1024) HEAD", ">>>>>>>(1024) topic"},
		{"1024", "ours", "theirs", "<<<<<<<(1024) ours", ">>>>>>>(1024) theirs"},
		{"8", "ours", "theirs", "<<<<<<<(8) ours", ">>>>>>>(8) theirs"},
		{"7", "ours", "theirs", "<<<<<<< ours", ">>>>>>> theirs"},
		{"3", "ours", long, "<<< ours", ">>> " + strings.Repeat("x", 40) + "…"},
	} {
		base := nb("base.ipynb", "a", "0")
		ours := nb("ours.ipynb", "b", "1")
		theirs := nb("theirs.ipynb", "c", "2")
		r := runWith("", "merge", "--marker-size", tc.size, "--ours-label", tc.ours, "--theirs-label", tc.theirs, base, ours, theirs)
		if r.code != exitFindings {
			t.Fatalf("merge --marker-size %s: exit %d: %s", tc.size, r.code, r.stderr)
		}
		r = runWith("", "check", ours)
		quoted := "(" + tc.open + " … " + tc.close + ")"
		for _, what := range []string{"conflict markers in its source ", "conflict marker outputs "} {
			if !strings.Contains(r.stdout, what+quoted+"\n") {
				t.Errorf("check after --marker-size %s: no %q in:\n%s", tc.size, what+quoted, r.stdout)
			}
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if l = strings.ReplaceAll(l, dir, ""); len(l) > 160 {
				t.Errorf("check after --marker-size %s: a line of %d bytes", tc.size, len(l))
			}
		}
	}
}
