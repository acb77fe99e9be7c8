package main

// git diff --no-index under --strip compares what git's own diff compares.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// git diff --no-index A B in a repository installed with --strip: git's
// own diff (no driver, no textconv) runs the clean filter on both files,
// so the driver strips both sides too — each side is a file git names by
// its own path — and shows a difference exactly where git's own diff
// sees one: none for files differing only in their outputs (git does not
// call the driver for them), the source edit and no outputs for the
// others, with the sides in a subfolder, and
// named in either order.
func TestGitDiffNoIndexUnderStrip(t *testing.T) {
	needGitParallel(t)
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	outputsOnly := bytes.Replace(base, []byte(`"hello\n"`), []byte(`"bye\n"`), 1)
	sourceToo := bytes.Replace(bytes.Replace(outputsOnly, []byte(`"plot()"`), []byte(`"plot(3)"`), 1), []byte(`"warn\n"`), []byte(`"careful\n"`), 1)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	for name, data := range map[string][]byte{"a.ipynb": base, "sub/o.ipynb": outputsOnly, "s.ipynb": sourceToo} {
		writeFileT(t, dir, name, string(data))
	}
	for _, pair := range [][2]string{{"a.ipynb", "sub/o.ipynb"}, {"sub/o.ipynb", "a.ipynb"}, {"a.ipynb", "s.ipynb"}, {"s.ipynb", "sub/o.ipynb"}} {
		// The reference: git's own diff of the cleaned files.
		_, own := gitStatusIn(t, dir, "diff", "--no-index", "--no-ext-diff", "--no-textconv", "--quiet", pair[0], pair[1])
		out, status := gitStatusIn(t, dir, "diff", "--no-index", pair[0], pair[1])
		if own > 1 || status > 1 {
			t.Fatalf("git diff --no-index %s %s: exit %d (own diff %d)\n%s", pair[0], pair[1], status, own, out)
		}
		shown := strings.Contains(out, "\n-") || strings.Contains(out, "\n+")
		if shown != (own == 1) || strings.Contains(out, "## out") || strings.Contains(out, "bye") || strings.Contains(out, "hello") || strings.Contains(out, "warn") || strings.Contains(out, "careful") {
			t.Errorf("git diff --no-index %s %s (git's own diff exit %d):\n%s", pair[0], pair[1], own, out)
		}
		if own == 1 && !strings.Contains(out, "plot(3)") {
			t.Errorf("git diff --no-index %s %s: the source edit is not shown:\n%s", pair[0], pair[1], out)
		}
	}
}
