package main

// fix of a conflict git left where one side re-saved the notebook with
// another indent.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// colabStyle is data re-saved as Colab saves it: a 2-space indent.
func colabStyle(t *testing.T, data []byte) []byte {
	t.Helper()
	var compact, out bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatal(err)
	}
	json.Indent(&out, compact.Bytes(), "", "  ")
	out.WriteByte('\n')
	return out.Bytes()
}

// Theirs re-saved the notebook with Colab's 2-space indent and edited a
// cell, ours edited another; git's text merge (no driver) leaves
// conflicts whose clean lines mix both layouts, so the sides read back
// from the markers are not notebooks (fix said so, exit 2). Inside the
// repository, with the file unmerged, fix merges git's stages :1: :2:
// :3: instead, as ipynb merge does: both edits, ours' layout, a valid
// notebook. Outside
// the repository, or with the file edited since git's merge (a line no
// stage has), it refuses as before (exit 2, the file unchanged),
// saying what would merge it.
func TestFixMergesGitStages(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	ours := bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(1)"`), 1)
	theirs := colabStyle(t, bytes.Replace(base, []byte(`"1/0"`), []byte(`"1/2"`), 1))
	dir := newRepo(t)
	commitFile(t, dir, "nb.ipynb", base, "base")
	gitIn(t, dir, "checkout", "-q", "-b", "topic")
	commitFile(t, dir, "nb.ipynb", theirs, "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", ours, "ours")
	if _, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic"); st != 1 {
		t.Fatalf("git merge: exit %d", st)
	}
	conflicted := readFile(t, filepath.Join(dir, "nb.ipynb"))
	if !strings.Contains(conflicted, "<<<<<<<") {
		t.Fatal("no markers")
	}

	// Outside the repository: refused, with the way to merge it.
	out := filepath.Join(t.TempDir(), "nb.ipynb")
	os.WriteFile(out, []byte(conflicted), 0o644)
	if r := ipynb(t, filepath.Dir(out), "", "fix", "nb.ipynb"); r.code != exitError || !strings.Contains(r.stderr, "side of the conflicts is not a notebook") || !strings.Contains(r.stderr, "git's stages :1: :2: :3:") || readFile(t, out) != conflicted {
		t.Errorf("outside the repository: %+v", r)
	}
	// Edited since git's merge: refused, the file unchanged.
	edited := strings.Replace(conflicted, `"plot(1)"`, `"plot(1) # by hand"`, 1)
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(edited), 0o644)
	if r := ipynb(t, dir, "", "fix", "nb.ipynb"); r.code != exitError || !strings.Contains(r.stderr, "edited since git's merge") || readFile(t, filepath.Join(dir, "nb.ipynb")) != edited {
		t.Errorf("edited: %+v", r)
	}
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(conflicted), 0o644)

	r := ipynb(t, dir, "", "fix", "nb.ipynb")
	got := readFile(t, filepath.Join(dir, "nb.ipynb"))
	if r.code != exitOK || !strings.Contains(r.stderr, "merged git's stages") {
		t.Fatalf("fix: %+v", r)
	}
	validNotebook(t, []byte(got))
	if !strings.Contains(got, `"plot(1)"`) || !strings.Contains(got, `"1/2"`) || !strings.HasPrefix(got, "{\n \"cells\": [\n  {\n") {
		t.Errorf("the merge lacks a side's edit or ours' layout:\n%s", got)
	}
}
