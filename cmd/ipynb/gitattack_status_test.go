package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attributes committed deeper in the tree override the installed line for
// the notebooks there (git reads the .gitattributes nearest a file
// last): ipynb git status checks every tracked notebook, as git applies
// attributes to it, names those the drivers do not reach and exits 1,
// and install warns about them. Status used to check one name at the
// top ("notebook.ipynb") and say "ipynb merges and diffs notebooks here"
// while git merged sub/nb.ipynb with merge=union (both sides' JSON lines
// concatenated) — and, with --strip, committed its outputs.
func TestGitStatusChecksEveryTrackedNotebook(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--attributes"}, {"--global"}, {"--attributes", "--strip"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := newRepo(t)
			nb := []byte(mknbText(t, "x = 1"))
			commitFile(t, dir, "top.ipynb", nb, "top")
			mkdirAll(t, dir, "sub/deeper")
			commitFile(t, dir, "sub/.gitattributes", []byte("*.ipynb merge=union -diff -filter\n"), "sub attributes")
			commitFile(t, dir, "sub/deeper/nb.ipynb", nb, "deeper")
			commitFile(t, dir, "sub/deeper/b.ipynb", nb, "deeper b")
			r := ipynb(t, dir, "", append([]string{"git", "install"}, args...)...)
			if r.code != 0 || !strings.Contains(r.stderr, "sub/deeper/nb.ipynb") {
				t.Errorf("install %s: no warning about sub/deeper/nb.ipynb: %+v", strings.Join(args, " "), r)
			}
			// What git applies (the reference).
			if out := gitIn(t, dir, "check-attr", "merge", "diff", "--", "sub/deeper/nb.ipynb", "top.ipynb"); !strings.Contains(out, "sub/deeper/nb.ipynb: merge: union") || !strings.Contains(out, "top.ipynb: merge: ipynb") {
				t.Fatalf("git applies:\n%s", out)
			}
			r = ipynb(t, dir, "", "git", "status")
			if r.code != 1 || !strings.Contains(r.stdout, "merge=union") || !strings.Contains(r.stdout, "sub/deeper/nb.ipynb") ||
				!strings.Contains(r.stdout, "2 of 3 tracked notebooks") || strings.Contains(r.stdout, "ipynb merges and diffs notebooks here") {
				t.Errorf("status: %+v", r)
			}
			if strings.Contains(strings.Join(args, " "), "--strip") && !strings.Contains(r.stdout, "filter=unset") {
				t.Errorf("status does not say the filter is unset for sub/deeper: %+v", r)
			}
			// From the folder itself too.
			if r := ipynb(t, filepath.Join(dir, "sub"), "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, "merge=union") {
				t.Errorf("status in sub: %+v", r)
			}
			// Without the deeper attributes, all is well.
			gitIn(t, dir, "rm", "-q", "sub/.gitattributes")
			gitIn(t, dir, "commit", "-q", "-m", "no sub attributes")
			if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
				t.Errorf("status: %+v", r)
			}
		})
	}
}

func mkdirAll(t *testing.T, dir, sub string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
		t.Fatal(err)
	}
}

// uninstall in one scope while ipynb is installed in the other (the
// repository's, the user's) says that the drivers are still in effect,
// and where from; it used to print nothing and exit 0 while git went on
// merging and diffing notebooks with ipynb.
func TestGitUninstallSaysWhatStays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ install, uninstall, where string }{
		{"--global", "", "global"},
		{"", "--global", "local"},
	} {
		dir := newRepo(t)
		if r := ipynb(t, dir, "", strings.Fields("git install "+c.install)...); r.code != 0 {
			t.Fatalf("install %s: %+v", c.install, r)
		}
		r := ipynb(t, dir, "", strings.Fields("git uninstall "+c.uninstall)...)
		if r.code != 0 || !strings.Contains(r.stderr, "still in effect") || !strings.Contains(r.stderr, c.where) {
			t.Errorf("uninstall %s after install %s: %+v", c.uninstall, c.install, r)
		}
		// git itself still merges notebooks with ipynb.
		if out := gitIn(t, dir, "check-attr", "merge", "--", "nb.ipynb"); out != "nb.ipynb: merge: ipynb\n" {
			t.Errorf("git applies: %s", out)
		}
	}
}
