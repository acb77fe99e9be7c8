package main

// check's hint for notebooks git merged as text.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// check of a notebook holding the conflict markers git merge-file writes
// (any marker size, diff3 style too) says, after the syntax error at the
// marker, to run ipynb fix; a syntax error elsewhere has no such hint.
func TestCheckHintsFixAtGitMarkers(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	flagFiles(t, dir)
	const hint = "(a git conflict marker: ipynb fix merges the notebook's conflicts cell by cell)"
	for _, style := range [][]string{nil, {"--marker-size=11"}, {"--diff3"}} {
		args := append(append([]string{"merge-file", "-p"}, style...), "ours.ipynb", "base.ipynb", "theirs.ipynb")
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, _ := cmd.Output()
		if !strings.Contains(string(out), "<<<<<<<") {
			t.Fatalf("git %q: no markers", args)
		}
		os.WriteFile(filepath.Join(dir, "c.ipynb"), out, 0o644)
		r := ipynb(t, dir, "", "check", "c.ipynb")
		if r.code != exitFindings || !strings.Contains(r.stdout, "error c.ipynb:") || !strings.Contains(r.stdout, "invalid character '<', expecting a value "+hint+"\n") {
			t.Errorf("%q: %+v", style, r)
		}
		if r := ipynb(t, dir, "", "check", "--json", "c.ipynb"); !strings.Contains(r.stdout, hint) {
			t.Errorf("%q --json: %+v", style, r)
		}
	}
	os.WriteFile(filepath.Join(dir, "bad.ipynb"), []byte("{\n\"a\":\n<x\n"), 0o644)
	if r := ipynb(t, dir, "", "check", "bad.ipynb"); r.code != exitFindings || strings.Contains(r.stdout, "ipynb fix") {
		t.Errorf("not a marker: %+v", r)
	}
}
