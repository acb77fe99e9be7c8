package main

// Helpers for the tests that use the real git binary and the real
// merges of ../shared/merges (see its README).

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// needGit skips t when the git binary is absent, and gives the git and
// ipynb processes t starts (through gitIn, ipynb or testEnv) an empty
// configuration in a HOME of t's own: the user's ~/.gitconfig is never
// read or written, and t may run in parallel with others, --global
// installs included. A second call gives t a fresh HOME.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	e := &procEnv{home: home}
	if old, ok := testEnvs.Load(t.Name()); ok {
		e.extra = old.(*procEnv).extra
	}
	testEnvs.Store(t.Name(), e)
	t.Cleanup(func() { testEnvs.CompareAndDelete(t.Name(), e) })
}

// needGitParallel is needGit for a test that runs in parallel with
// others.
func needGitParallel(t *testing.T) {
	t.Helper()
	needGit(t)
	t.Parallel()
}

// procEnv is what needGit and setTestEnv give the processes a test
// starts: a HOME and settings over the process's environment.
type procEnv struct {
	home  string
	mu    sync.Mutex
	extra []string // NAME=value, the later winning
}

// testEnvs maps a test's name to its *procEnv.
var testEnvs sync.Map

// ownEnv returns the procEnv of t, or of the nearest test enclosing it,
// or nil.
func ownEnv(t testing.TB) *procEnv {
	for name := t.Name(); ; {
		if e, ok := testEnvs.Load(name); ok {
			return e.(*procEnv)
		}
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			return nil
		}
		name = name[:i]
	}
}

// testEnv returns the environment for a process t starts: the
// process's, with the HOME and settings needGit and setTestEnv gave t;
// nil (the process's own) when they gave none.
func testEnv(t testing.TB) []string {
	e := ownEnv(t)
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Concat(os.Environ(), gitConfigEnv(e.home), e.extra)
}

// testHome returns the HOME of the processes t starts.
func testHome(t testing.TB) string {
	if e := ownEnv(t); e != nil {
		return e.home
	}
	return os.Getenv("HOME")
}

// setTestEnv is t.Setenv for the processes t starts after needGit: the
// test process's own environment is left alone, so t may run in
// parallel.
func setTestEnv(t testing.TB, name, value string) {
	t.Helper()
	e := ownEnv(t)
	if e == nil {
		t.Fatal("setTestEnv before needGit")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.extra = append(e.extra, name+"="+value)
}

// gitConfigEnv is an empty git configuration in home, as NAME=value.
func gitConfigEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t",
		"GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com",
	}
}

// gitTestEnv gives the process an empty git configuration in a HOME of
// its own, for the processes tests start without needGit.
func gitTestEnv(home string) {
	for _, kv := range gitConfigEnv(home) {
		k, v, _ := strings.Cut(kv, "=")
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
	cmd.Env = testEnv(t)
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
