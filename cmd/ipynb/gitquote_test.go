package main

// Names quoted as git quotes them.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quoteNames are file names git quotes in every way quote_c_style does
// (and two it does not).
var quoteNames = []string{
	`back\slash.ipynb`, `q"uote.ipynb`, "\u202e.ipynb", "\x1b.ipynb", "\u00fc.ipynb",
	"tab\t.ipynb", "nl\n.ipynb", "\x7f.ipynb", "\x01\a\b\v\f\r.ipynb", "\xff.ipynb",
	"\u0085.ipynb", "sp ace.ipynb", "plain.ipynb",
}

// cQuote writes each name as git ls-files does, with core.quotePath
// true (git's default) and, for names without characters that drive a
// terminal, false.
func TestQuoteAsGitLsFiles(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	for _, n := range quoteNames {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "add", ".")
	for _, fully := range []bool{true, false} {
		v := "false"
		if fully {
			v = "true"
		}
		for _, n := range quoteNames {
			got, _ := gitStatusIn(t, dir, "-c", "core.quotePath="+v, "ls-files", "--", n)
			want := strings.TrimSuffix(got, "\n")
			if !fully && (strings.ContainsAny(n, "\u202e\u0085") || strings.Contains(n, "\xff")) {
				continue // ipynb still quotes these (terminal safety)
			}
			if q := cQuote(n, fully); q != want {
				t.Errorf("core.quotePath=%v: cQuote(%q) = %s, git ls-files: %s", fully, n, q, want)
			}
		}
	}
	// quoteText never quotes letters.
	if q := quoteText("\u00fc"); q != "\u00fc" {
		t.Errorf("quoteText: %s", q)
	}
}

// The diff driver's --- and +++ lines name the file as git's own diff
// does, and check names the file as git ls-files does.
func TestGitDiffNamesQuotedAsGit(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t)
	names := []string{`back\slash.ipynb`, `q"uote.ipynb`, "\u202e.ipynb", "\x1b.ipynb", "\u00fc.ipynb"}
	for _, n := range names {
		commitFile(t, dir, n, base, "add")
		os.WriteFile(filepath.Join(dir, n), []byte(strings.Replace(string(base), `"plot()"`, `"plot(3)"`, 1)), 0o644)
	}
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	headers := func(out string) []string {
		var h []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
				h = append(h, l)
			}
		}
		return h
	}
	for _, n := range names {
		ours := headers(gitIn(t, dir, "diff", "--", n))
		git := headers(gitIn(t, dir, "diff", "--no-ext-diff", "--", n))
		if strings.Join(ours, "\n") != strings.Join(git, "\n") || len(git) != 2 {
			t.Errorf("%q: the driver writes %q, git %q", n, ours, git)
		}
		listed := strings.TrimSuffix(gitIn(t, dir, "ls-files", "--", n), "\n")
		if r := ipynb(t, dir, "", "check", "--", n); r.code != 0 || !strings.Contains(r.stdout, "same "+listed+"\n") {
			t.Errorf("check %q: %+v, want the name %s", n, r, listed)
		}
	}
}
