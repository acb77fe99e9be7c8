package main

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose notebooks git passes through another filter — an
// encryption filter such as git-crypt (filter=git-crypt), Git LFS
// (filter=lfs) — keeps it: install --strip refuses, changing nothing
// (local, --attributes, --global), and says why, since ipynb's line
// would replace that filter and git would store the notebooks as the
// work tree has them (in clear, or in git itself) and check out what it
// stores (ciphertext, LFS pointers). It used to install: the next commit
// stored the notebook in clear. nbstripout's filter, which strips as
// ipynb does, is replaced as before.
func TestGitInstallStripKeepsOtherFilters(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--strip"}, {"--strip", "--attributes"}, {"--strip", "--global"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := newRepo(t)
			// A stand-in for git-crypt: the repository stores base64.
			gitIn(t, dir, "config", "filter.secret.clean", "base64")
			gitIn(t, dir, "config", "filter.secret.smudge", "base64 -d")
			gitIn(t, dir, "config", "filter.secret.required", "true")
			commitFile(t, dir, ".gitattributes", []byte("*.ipynb filter=secret diff=secret\n"), "encrypted notebooks")
			nb := mknbText(t, "password = 'hunter2'")
			commitFile(t, dir, "nb.ipynb", []byte(nb), "nb")
			if stored := gitIn(t, dir, "cat-file", "blob", "HEAD:nb.ipynb"); strings.Contains(stored, "hunter2") {
				t.Fatal("the stand-in filter does not hide the text")
			}
			files := []string{filepath.Join(dir, ".git", "config"), filepath.Join(dir, ".gitattributes"), filepath.Join(dir, ".git", "info", "attributes")}
			before := make([]string, len(files))
			for i, f := range files {
				before[i] = readFile(t, f)
			}
			r := ipynb(t, dir, "", append([]string{"git", "install"}, args...)...)
			if global := args[len(args)-1] == "--global"; global {
				// The user's attributes come before the repository's:
				// installed, with a warning that they do not apply here.
				if r.code != 0 || !strings.Contains(r.stderr, "warning: git applies filter=secret") {
					t.Errorf("install %s: %+v", strings.Join(args, " "), r)
				}
				before[0] = readFile(t, files[0])
			} else if r.code != 2 || !strings.Contains(r.stderr, "filter=secret") {
				t.Errorf("install %s over filter=secret: %+v", strings.Join(args, " "), r)
			}
			for i, f := range files {
				if got := readFile(t, f); got != before[i] {
					t.Errorf("install changed %s:\n%s", f, got)
				}
			}
			writeFileT(t, dir, "nb.ipynb", strings.Replace(nb, "hunter2", "hunter3", 1))
			gitIn(t, dir, "commit", "-q", "-am", "edit")
			stored := gitIn(t, dir, "cat-file", "blob", "HEAD:nb.ipynb")
			if strings.Contains(stored, "hunter3") {
				t.Errorf("the notebook was committed in clear:\n%s", stored)
			}
			if dec, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(stored, "\n", "")); err != nil || !strings.Contains(string(dec), "hunter3") {
				t.Errorf("stored: %v\n%s", err, stored)
			}
			// Without --strip, the filter is not touched.
			rest := args[1:]
			if r := ipynb(t, dir, "", append([]string{"git", "install"}, rest...)...); r.code != 0 {
				t.Errorf("install %s: %+v", strings.Join(rest, " "), r)
			}
			if out := gitIn(t, dir, "check-attr", "filter", "--", "nb.ipynb"); out != "nb.ipynb: filter: secret\n" {
				t.Errorf("after install without --strip: %s", out)
			}
		})
	}
}

// A repository whose committed .gitattributes asks for ipynb's filter
// (a teammate's install --strip --attributes), cloned where the filter
// is not configured: git ignores the filter and commits outputs. ipynb
// git status says so (exit 1) and how to install it; it used to report
// the set-up in effect.
func TestGitStatusFilterAskedButMissing(t *testing.T) {
	needGitParallel(t)
	dir := newRepo(t)
	commitFile(t, dir, ".gitattributes", []byte("*.ipynb merge=ipynb diff=ipynb filter=ipynb\n"), "shared attributes")
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a")), "nb")
	withOutput := strings.Replace(mknbText(t, "a"), `"outputs": []`, `"outputs": [{"name": "stdout", "output_type": "stream", "text": "SECRET"}]`, 1)
	writeFileT(t, dir, "nb.ipynb", withOutput)
	gitIn(t, dir, "commit", "-q", "-am", "outputs")
	if stored := gitIn(t, dir, "cat-file", "blob", "HEAD:nb.ipynb"); !strings.Contains(stored, "SECRET") {
		t.Fatalf("git stripped without the filter configured:\n%s", stored)
	}
	r := ipynb(t, dir, "", "git", "status")
	if r.code != 1 || !strings.Contains(r.stdout, "filter=ipynb") || !strings.Contains(r.stdout, "ipynb git install --strip") {
		t.Errorf("status: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install --strip: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
		t.Errorf("status after install --strip: %+v", r)
	}
}
