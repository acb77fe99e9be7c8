package main

// git diff under --strip shows what git stores.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Under ipynb git install --strip, git diff, git diff --cached (after
// git add) and git diff HEAD show the source edit and none of the
// outputs, counts and volatile metadata the work tree has and git does
// not store: git hands the diff driver the work tree file itself,
// without the clean filter (for --cached too, the index entry being up
// to date), and the driver showed every output as added.
func TestGitDiffUnderStripShowsWhatIsStored(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	commitFile(t, dir, "nb.ipynb", base, "base") // stored without outputs
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(3)"`), 1), 0o644)
	check := func(args ...string) {
		t.Helper()
		out := gitIn(t, dir, args...)
		if !strings.Contains(out, "\n-plot()\n+plot(3)\n") || strings.Contains(out, "## out") || strings.Contains(out, "execution count") || strings.Contains(out, "## meta") {
			t.Errorf("git %s:\n%s", strings.Join(args, " "), out)
		}
	}
	check("diff")
	gitIn(t, dir, "add", "nb.ipynb")
	check("diff", "--cached")
	check("diff", "HEAD")
	// In a folder, names relative to it (git diff --relative names the
	// file under the folder, the path without it).
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(sub, 0o755)
	commitFile(t, dir, "sub/n.ipynb", base, "sub")
	os.WriteFile(filepath.Join(sub, "n.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(3)"`), 1), 0o644)
	for _, args := range [][]string{{"diff"}, {"diff", "--relative"}} {
		out := gitIn(t, sub, args...)
		if !strings.Contains(out, "\n-plot()\n+plot(3)\n") || strings.Contains(out, "## out") {
			t.Errorf("git %s in sub:\n%s", strings.Join(args, " "), out)
		}
	}
	gitIn(t, dir, "reset", "-q", "--hard")
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(3)"`), 1), 0o644)
	// Where the filter does not apply (the attributes without it), the
	// work tree is shown as it is.
	os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("*.ipynb merge=ipynb diff=ipynb\n"), 0o644)
	if out := gitIn(t, dir, "diff", "HEAD", "--", "nb.ipynb"); !strings.Contains(out, "## out") {
		t.Errorf("git diff HEAD without the filter:\n%s", out)
	}
}
