package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// Helpers for the tests that use the real git binary and the real
// merges of ../shared/merges (see its README).

// needGit skips t when the git binary is absent, and gives git an empty
// configuration: the user's ~/.gitconfig is never read or written.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if _, ok := parallelGit.Load(strings.SplitN(t.Name(), "/", 2)[0]); ok {
		return // the configuration TestMain gave the process
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
}

// needGitParallel is needGit for a test that runs in parallel with
// others: git's configuration is the empty one TestMain gives the whole
// process (HOME, XDG_CONFIG_HOME and the names in gitTestEnv), which
// such a test must not write (a test of --global installs uses needGit,
// and a HOME of its own).
func needGitParallel(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	parallelGit.Store(t.Name(), true)
	t.Parallel()
}

// parallelGit holds the names of the tests that called needGitParallel.
var parallelGit sync.Map

// gitTestEnv gives the process an empty git configuration in a HOME of
// its own, for the tests that run git in parallel (see needGitParallel).
func gitTestEnv(home string) {
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "t",
		"GIT_AUTHOR_EMAIL":    "t@example.com",
		"GIT_COMMITTER_NAME":  "t",
		"GIT_COMMITTER_EMAIL": "t@example.com",
	} {
		os.Setenv(k, v)
	}
}

// gitIn runs git in dir and returns its combined output, failing t on
// an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, status := gitStatusIn(t, dir, args...)
	if status != 0 {
		t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), status, out)
	}
	return out
}

// gitStatusIn runs git in dir and returns its combined output and exit
// status.
func gitStatusIn(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// mergeCase is one row of ../shared/merges/MANIFEST.tsv, with its blobs'
// paths.
type mergeCase struct {
	repo, path                 string
	base, ours, theirs, result string // file paths
	gitClean, gitEqualsResult  bool
}

func (c mergeCase) name() string {
	return c.repo + "/" + c.path + "@" + filepath.Base(c.result)[:8]
}

// mergeCases returns the real merges, skipping t when they are absent.
func mergeCases(t *testing.T) []mergeCase {
	t.Helper()
	s := corpus.Shared()
	if s == "" {
		t.Skip("../shared not present")
	}
	dir := filepath.Join(s, "merges")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("merges not present: %v", err)
	}
	defer f.Close()
	blob := func(id string) string { return filepath.Join(dir, "blobs", id+".ipynb") }
	var cases []mergeCase
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first {
			continue
		}
		if len(c) != 9 {
			t.Fatalf("MANIFEST.tsv: %d columns: %q", len(c), sc.Text())
		}
		cases = append(cases, mergeCase{
			repo: c[0], path: c[2],
			base: blob(c[3]), ours: blob(c[4]), theirs: blob(c[5]), result: blob(c[6]),
			gitClean: c[7] == "true", gitEqualsResult: c[8] == "true",
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// gitMergeFile runs git's line merge of c into dir/name (a copy of ours)
// with extra options (such as --diff3 or --ours) and returns the file
// and git's exit status (the number of conflicts).
func gitMergeFile(t *testing.T, c mergeCase, dir, name string, opts ...string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(c.ours)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"merge-file"}, opts...)
	args = append(args, p, c.base, c.theirs)
	out, status := gitStatusIn(t, dir, args...)
	if status < 0 || status > 127 {
		t.Fatalf("git merge-file: exit %d\n%s", status, out)
	}
	return p, status
}
