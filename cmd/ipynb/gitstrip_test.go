package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With "ipynb git install --strip" (local, and --global with a
// temporary HOME and no system configuration), every everyday git
// command works on a notebook with outputs, with the real git binary:
// add, commit, diff, stash and stash pop, restore, checkout of another
// branch, cherry-pick, rebase, merge, clone; no source and no edit is
// ever lost. Outputs are not in git by design: a command that writes the
// file from git (stash, restore, checkout) writes it without them.
func TestGitStripEveryday(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		name := "local"
		if global {
			name = "global"
		}
		t.Run(name, func(t *testing.T) {
			needGit(t)
			var dir string
			if global {
				if r := ipynb(t, t.TempDir(), "", "git", "install", "--global", "--strip"); r.code != 0 {
					t.Fatalf("install --global --strip: %+v", r)
				}
				dir = newRepoIn(t, filepath.Join(t.TempDir(), "repo"))
			} else {
				dir = newRepo(t)
				if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
					t.Fatalf("install --strip: %+v", r)
				}
			}
			stripEveryday(t, dir)
			if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
				t.Errorf("git status: %+v", r)
			}
			args := []string{"git", "uninstall"}
			if global {
				args = append(args, "--global")
			}
			if r := ipynb(t, dir, "", args...); r.code != 0 {
				t.Fatalf("uninstall: %+v", r)
			}
			for _, key := range []string{"filter.ipynb.smudge", "filter.ipynb.clean", "filter.ipynb.required"} {
				if out, st := gitStatusIn(t, dir, "config", "--get", key); st != 1 {
					t.Errorf("%s left after uninstall: %s", key, out)
				}
			}
		})
	}
}

// stripEveryday runs the everyday commands in dir, where the strip
// filter is installed.
func stripEveryday(t *testing.T, dir string) {
	t.Helper()
	const nb = "nb.ipynb"
	file := filepath.Join(dir, nb)
	withOutputs, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	// add, commit: stored without outputs, the work tree keeps them.
	commitFile(t, dir, nb, withOutputs, "base")
	stored := gitIn(t, dir, "show", "HEAD:"+nb)
	if n := outputCount(t, []byte(stored)); n != 0 {
		t.Fatalf("committed with %d outputs", n)
	}
	if readFile(t, file) != string(withOutputs) {
		t.Fatal("git add changed the work tree file")
	}
	if out := gitIn(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("git status after commit: %q", out)
	}
	source := func() []string { t.Helper(); return cellSources(t, []byte(readFile(t, file))) }

	// diff shows an edit of the sources, not the outputs.
	edited := replaceOnce(t, withOutputs, `"plot()"`, `"plot(edited)"`)
	os.WriteFile(file, edited, 0o644)
	if d, st := gitStatusIn(t, dir, "diff"); st != 0 || !strings.Contains(d, "+plot(edited)") {
		t.Errorf("git diff: exit %d\n%s", st, d)
	}

	// stash keeps the edit, the file stays (as stored); pop gives the
	// edit back.
	gitIn(t, dir, "stash")
	if got := readFile(t, file); got != stored {
		t.Errorf("after git stash the file is not the stored one:\n%s", got)
	}
	gitIn(t, dir, "stash", "pop")
	if s := source(); s[3] != "plot(edited)" {
		t.Errorf("after git stash pop cell 3 is %q: the edit is lost", s[3])
	}

	// restore writes the stored file.
	gitIn(t, dir, "commit", "-q", "-am", "edit")
	os.WriteFile(file, replaceOnce(t, withOutputs, `"1+1"`, `"1+9"`), 0o644)
	gitIn(t, dir, "restore", nb)
	if got := readFile(t, file); got != gitIn(t, dir, "show", "HEAD:"+nb) {
		t.Errorf("after git restore:\n%s", got)
	}

	// checkout of another branch and back; cherry-pick; rebase; merge.
	head := []byte(gitIn(t, dir, "show", "HEAD:"+nb))
	gitIn(t, dir, "checkout", "-q", "-b", "other")
	commitFile(t, dir, nb, replaceOnce(t, head, `"1/0"`, `"1/2"`), "other: 1/2")
	gitIn(t, dir, "checkout", "-q", "main")
	if s := source(); s[4] != "1/0" || s[3] != "plot(edited)" {
		t.Errorf("after checkout main: %q", s)
	}
	gitIn(t, dir, "cherry-pick", "other")
	if s := source(); s[4] != "1/2" || s[3] != "plot(edited)" {
		t.Errorf("after cherry-pick: %q", s)
	}
	gitIn(t, dir, "checkout", "-q", "-b", "topic", "HEAD~1")
	commitFile(t, dir, nb, replaceOnce(t, head, `"raw text"`, `"raw topic"`), "topic: raw")
	gitIn(t, dir, "rebase", "-q", "main")
	if s := source(); s[4] != "1/2" || s[6] != "raw topic" || s[3] != "plot(edited)" {
		t.Errorf("after rebase: %q", s)
	}
	gitIn(t, dir, "checkout", "-q", "main")
	now := []byte(gitIn(t, dir, "show", "HEAD:"+nb))
	commitFile(t, dir, nb, replaceOnce(t, now, `"1+1"`, `"1+5"`), "main: 1+5")
	if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic"); st != 0 {
		t.Fatalf("git merge: exit %d\n%s", st, out)
	}
	if s := source(); s[2] != "1+5" || s[6] != "raw topic" || s[4] != "1/2" || s[3] != "plot(edited)" {
		t.Errorf("after merge: %q", s)
	}

	// clone: checked out as stored.
	clone := filepath.Join(t.TempDir(), "clone")
	if out, st := gitStatusIn(t, dir, "clone", "-q", dir, clone); st != 0 {
		t.Fatalf("git clone: exit %d\n%s", st, out)
	}
	if got, want := readFile(t, filepath.Join(clone, nb)), gitIn(t, dir, "show", "HEAD:"+nb); got != want {
		t.Errorf("cloned file:\n%s\nwant:\n%s", got, want)
	}
	if out := gitIn(t, clone, "status", "--porcelain"); out != "" {
		t.Errorf("git status in the clone: %q", out)
	}
}

// outputCount is the number of outputs in a notebook's code cells.
func outputCount(t *testing.T, data []byte) int {
	t.Helper()
	n := 0
	for _, c := range decodeJSON(t, data)["cells"].([]any) {
		if o, ok := c.(map[string]any)["outputs"].([]any); ok {
			n += len(o)
		}
	}
	return n
}

// A set-up an older install wrote — a clean filter required, no smudge
// filter, in the repository's or the user's configuration — breaks git
// restore; ipynb git status finds it and says how to repair it (exit
// 1), and ipynb git install repairs it.
func TestGitStripOldInstallRepaired(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		scope, flag := "--local", ""
		if global {
			scope, flag = "--global", " --global"
		}
		t.Run(scope[2:], func(t *testing.T) {
			dir := newRepo(t)
			exe, _ := filepath.EvalSymlinks(binary)
			// What install wrote before it had a smudge filter.
			for _, kv := range [][2]string{
				{"merge.ipynb.driver", exe + " merge --marker-size %L --path %P %O %A %B"},
				{"diff.ipynb.command", exe + " diff"},
				{"diff.ipynb.textconv", exe + " diff --textconv"},
				{"filter.ipynb.clean", exe + " strip -"},
				{"filter.ipynb.required", "true"},
			} {
				gitIn(t, dir, "config", scope, kv[0], kv[1])
			}
			attrs := filepath.Join(dir, ".git", "info", "attributes")
			if global {
				attrs = filepath.Join(testHome(t), ".config", "git", "attributes")
			}
			os.MkdirAll(filepath.Dir(attrs), 0o755)
			os.WriteFile(attrs, []byte("*.ipynb merge=ipynb diff=ipynb filter=ipynb\n"), 0o644)
			nb, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
			commitFile(t, dir, "nb.ipynb", nb, "add")
			os.WriteFile(filepath.Join(dir, "nb.ipynb"), replaceOnce(t, nb, `"1+1"`, `"1+2"`), 0o644)
			if out, st := gitStatusIn(t, dir, "restore", "nb.ipynb"); st == 0 || !strings.Contains(out, "smudge filter ipynb failed") {
				t.Fatalf("the old set-up did not break git restore (exit %d):\n%s", st, out)
			}

			r := ipynb(t, dir, "", "git", "status")
			if r.code != 1 || !strings.Contains(r.stdout, "no smudge filter") || !strings.Contains(r.stdout, "repair with: ipynb git install"+flag+"\n") ||
				!strings.Contains(r.stdout, "diff.ipynb.command was written by an older ipynb git install") {
				t.Errorf("status of the old set-up: %+v", r)
			}
			args := []string{"git", "install"}
			if global {
				args = append(args, "--global")
			}
			if r := ipynb(t, dir, "", args...); r.code != 0 || !strings.Contains(r.stdout, "filter.ipynb.smudge = cat") {
				t.Fatalf("install: %+v", r)
			}
			if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
				t.Errorf("status after the repair: %+v", r)
			}
			if out, st := gitStatusIn(t, dir, "restore", "nb.ipynb"); st != 0 {
				t.Errorf("git restore after the repair: exit %d\n%s", st, out)
			}
			if got := cellSources(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb")))); got[2] != "1+1" {
				t.Errorf("restored cell 2: %q", got[2])
			}
		})
	}
}
