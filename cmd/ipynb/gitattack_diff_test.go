package main

// Tests that git diff through the driver never shows a modified notebook as
// nothing: no cell change, symbolic links, modes, renames.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A notebook git calls modified is never shown as nothing by git diff
// through the driver: where the cell diff finds no change, a line says
// how the files differ — only in their JSON's formatting (a tool that
// re-indented it), or as values at a JSON Pointer the cell diff does not
// show (the format version). git diff used to print nothing for such a
// file, and the commit then held changes nobody was shown.
func TestGitDiffNeverShowsADifferenceAsNothing(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	nb := mknbText(t, "a = 1", "b = 2")
	commitFile(t, dir, "nb.ipynb", []byte(nb), "base")
	reindented := strings.ReplaceAll(nb, "\n ", "\n\t")
	minor := strings.Replace(nb, `"nbformat_minor": 5`, `"nbformat_minor": 4`, 1)
	for _, c := range []struct {
		name, text, want string
		sameValue        bool
	}{
		{"re-indented", reindented, "only the formatting of its JSON differs", true},
		{"format version", minor, "first at /nbformat_minor (5 → 4)", false},
	} {
		// The reference: git sees a change, encoding/json says whether
		// the values are equal.
		var a, b any
		if json.Unmarshal([]byte(nb), &a) != nil || json.Unmarshal([]byte(c.text), &b) != nil || cmp.Equal(a, b) != c.sameValue {
			t.Fatalf("%s: the test's texts are not what it says", c.name)
		}
		writeFileT(t, dir, "nb.ipynb", c.text)
		if out := gitIn(t, dir, "status", "--porcelain"); out != " M nb.ipynb\n" {
			t.Fatalf("%s: git status: %q", c.name, out)
		}
		out := gitIn(t, dir, "diff")
		if !strings.Contains(out, "--- a/nb.ipynb\n+++ b/nb.ipynb\n") || !strings.Contains(out, c.want) {
			t.Errorf("%s: git diff:\n%s", c.name, out)
		}
		gitIn(t, dir, "commit", "-q", "-am", c.name)
		gitIn(t, dir, "reset", "-q", "--hard", "HEAD~1")
	}
	// Outside git: exit 0 for the same notebook, 1 for a difference.
	writeFileT(t, dir, "a.ipynb", nb)
	writeFileT(t, dir, "b.ipynb", reindented)
	writeFileT(t, dir, "c.ipynb", minor)
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb"); r.code != 0 || !strings.Contains(r.stdout, "only the formatting") {
		t.Errorf("diff of a re-indented notebook: %+v", r)
	}
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "c.ipynb"); r.code != 1 || !strings.Contains(r.stdout, "/nbformat_minor") {
		t.Errorf("diff of another minor version: %+v", r)
	}
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "a.ipynb"); r.code != 0 || r.stdout != "" {
		t.Errorf("diff of a file with itself: %+v", r)
	}
}

// writeFileT writes text to name in dir and returns the file's path.
func writeFileT(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A symbolic link named *.ipynb is diffed by git through the driver
// (git passes the link's target as the file's text, mode 120000): the
// driver shows the change of target as a line diff, with no error. It
// used to report "invalid character" for each side on standard error.
func TestGitDiffSymlinkNamedIpynb(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	writeFileT(t, dir, "real.ipynb", mknbText(t, "x"))
	if err := os.Symlink("real.ipynb", filepath.Join(dir, "link.ipynb")); err != nil {
		t.Skip(err)
	}
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "link")
	os.Remove(filepath.Join(dir, "link.ipynb"))
	os.Symlink("other.ipynb", filepath.Join(dir, "link.ipynb"))
	for _, args := range [][]string{{"diff"}, {"diff", "HEAD"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = testEnv(t)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || errb.String() != "" || !strings.Contains(out.String(), "-real.ipynb\n") || !strings.Contains(out.String(), "+other.ipynb\n") {
			t.Errorf("git %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errb.String())
		}
	}
}

// A change of a notebook's mode (chmod +x) reaches the diff driver,
// which git lets print the whole diff: the driver says it, alone or
// beside the cell changes, as git's own "old mode"/"new mode" lines do.
// git diff used to show nothing for a file git status called modified.
func TestGitDiffShowsModeChange(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a")), "nb")
	if err := os.Chmod(filepath.Join(dir, "nb.ipynb"), 0o755); err != nil {
		t.Fatal(err)
	}
	// git's own view (the reference).
	if out := gitIn(t, dir, "diff", "--no-ext-diff"); !strings.Contains(out, "old mode 100644\nnew mode 100755\n") {
		t.Skipf("git sees no mode change (core.fileMode?):\n%s", out)
	}
	if out := gitIn(t, dir, "diff"); !strings.Contains(out, "--- a/nb.ipynb\n+++ b/nb.ipynb\n") || !strings.Contains(out, "old mode 100644\nnew mode 100755\n") {
		t.Errorf("git diff of a mode change:\n%s", out)
	}
	writeFileT(t, dir, "nb.ipynb", mknbText(t, "b"))
	if out := gitIn(t, dir, "diff"); !strings.Contains(out, "old mode 100644\nnew mode 100755\n") || !strings.Contains(out, "+b") {
		t.Errorf("git diff of a mode and cell change:\n%s", out)
	}
}

// A notebook renamed without a change reaches the diff driver with git's
// lines about the rename: the driver writes them (git diff -M used to
// print nothing for it), and beside the cell changes of a rename too.
func TestGitDiffShowsRename(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a", "b", "c", "d", "e")), "nb")
	gitIn(t, dir, "mv", "nb.ipynb", "new.ipynb")
	if out := gitIn(t, dir, "diff", "--cached", "-M", "--no-ext-diff"); !strings.Contains(out, "rename from nb.ipynb\nrename to new.ipynb\n") {
		t.Fatalf("git sees no rename:\n%s", out)
	}
	if out := gitIn(t, dir, "diff", "--cached", "-M"); !strings.Contains(out, "--- a/nb.ipynb\n+++ b/new.ipynb\n") || !strings.Contains(out, "rename from nb.ipynb\nrename to new.ipynb\n") {
		t.Errorf("git diff of a rename:\n%s", out)
	}
	writeFileT(t, dir, "new.ipynb", mknbText(t, "a", "b", "c", "d", "E"))
	gitIn(t, dir, "add", "new.ipynb")
	if out := gitIn(t, dir, "diff", "--cached", "-M"); !strings.Contains(out, "rename to new.ipynb\n") || !strings.Contains(out, "+E") {
		t.Errorf("git diff of a rename with a change:\n%s", out)
	}
}
