package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The ipynb that install wrote into git's configuration may be removed
// later (a package manager's upgrade, go clean, a deleted virtualenv).
// Git then fails loudly and no work is lost: a merge falls back to git's
// own line merge (the driver runs "git merge-file" when the shell cannot
// run ipynb: a conflict is marked in the file, theirs' lines are in it;
// it used to be a conflict whose file held ours alone without a marker),
// git diff stops naming the command, a clone with --strip still checks
// out (smudge = cat), and ipynb git status says the command is missing.
func TestGitDriversWithIpynbGone(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	gone := filepath.Join(t.TempDir(), "bin", "ipynb")
	os.MkdirAll(filepath.Dir(gone), 0o755)
	copyFile(t, binary, gone)
	if r := ipynb(t, dir, "", "git", "install", "--global", "--command", shellQuote(gone), "--strip"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	base := mknbText(t, "a", "b", "c", "d", "e")
	commitFile(t, dir, "nb.ipynb", []byte(base), "base")
	gitIn(t, dir, "branch", "topic")
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "A", "b", "C", "d", "e")), "ours")
	gitIn(t, dir, "checkout", "-q", "topic")
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a", "b", "THEIRS", "d", "E")), "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}

	// The clean filter cannot run: git refuses to go on (no work lost).
	writeFileT(t, dir, "nb.ipynb", mknbText(t, "A", "b", "C", "d", "edited"))
	if out, st := gitStatusIn(t, dir, "diff"); st == 0 {
		t.Errorf("git diff with ipynb gone: exit 0\n%s", out)
	}
	if out, st := gitStatusIn(t, dir, "merge", "topic"); st == 0 || !strings.Contains(out, "not found") {
		t.Errorf("git merge over an edit with ipynb gone: exit %d\n%s", st, out)
	}
	if got := readFile(t, filepath.Join(dir, "nb.ipynb")); !strings.Contains(got, `"edited"`) {
		t.Errorf("the edit is lost:\n%s", got)
	}

	// Without the filter in the way, the merge is git's line merge.
	gitIn(t, dir, "config", "filter.ipynb.required", "false")
	gitIn(t, dir, "config", "filter.ipynb.clean", "cat")
	gitIn(t, dir, "checkout", "--", "nb.ipynb")
	out, st := gitStatusIn(t, dir, "merge", "topic")
	if st != 1 || !strings.Contains(out, "not found") || !strings.Contains(out, "CONFLICT") {
		t.Errorf("git merge with ipynb gone: exit %d\n%s", st, out)
	}
	got := readFile(t, filepath.Join(dir, "nb.ipynb"))
	for _, want := range []string{"<<<<<<< ", "\"C\"", "\"THEIRS\"", ">>>>>>> ", "\"E\"", "\"A\""} {
		if !strings.Contains(got, want) {
			t.Errorf("the conflicted file lacks %q:\n%s", want, got)
		}
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, "merge.ipynb.driver: "+gone+" does not exist or cannot run") {
		t.Errorf("git status: %+v", r)
	}
	gitIn(t, dir, "merge", "--abort")

	// A clone checks out (the user's filter is required, its smudge
	// filter is cat).
	clone := filepath.Join(t.TempDir(), "clone")
	if out, st := gitStatusIn(t, filepath.Dir(clone), "clone", "-q", dir, clone); st != 0 {
		t.Errorf("git clone: exit %d\n%s", st, out)
	}
	if got := readFile(t, filepath.Join(clone, "nb.ipynb")); !strings.Contains(got, `"A"`) {
		t.Errorf("cloned:\n%s", got)
	}
}
