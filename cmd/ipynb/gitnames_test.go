package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// weirdNames are notebook names that break a command line built
// carelessly: a leading dash (a flag), spaces, a newline, a tab, quotes,
// non-ASCII letters, a backslash.
var weirdNames = []string{
	"-x.ipynb",
	"--help.ipynb",
	"a b.ipynb",
	"new\nline.ipynb",
	"tab\there.ipynb",
	`q"u'o $HOME.ipynb`,
	"ünï ☕.ipynb",
	`back\slash.ipynb`,
}

// Every git entry point takes every name, with the real git binary:
// the clean filter (git add, commit), the diff driver's 7 arguments
// (git diff), the textconv (git log -p), the merge driver's %O %A %B %P
// (a clean and a conflicting git merge), and ipynb git status PATH.
func TestGitWeirdNames(t *testing.T) {
	needGitParallel(t)
	nb, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	for _, name := range weirdNames {
		t.Run(quoteName(name), func(t *testing.T) {
			t.Parallel() // a repository of its own
			dir := newRepo(t)
			if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			commitFile(t, dir, "README", []byte("x\n"), "start")
			file := filepath.Join(dir, name)
			// Clean filter.
			commitFile(t, dir, name, nb, "add "+name)
			if n := outputCount(t, []byte(gitIn(t, dir, "show", "HEAD:"+name))); n != 0 {
				t.Errorf("committed with %d outputs", n)
			}
			// Diff driver: a/NAME and b/NAME, quoted as git quotes them.
			os.WriteFile(file, replaceOnce(t, nb, `"plot()"`, `"plot(edited)"`), 0o644)
			d, st := gitStatusIn(t, dir, "diff", "--", name)
			if st != 0 || !strings.Contains(d, "\n+plot(edited)\n") || !strings.Contains(d, "--- "+quoteName("a/"+name)+"\n") || strings.Contains(d, `"source"`) {
				t.Errorf("git diff: exit %d\n%s", st, d)
			}
			// Textconv.
			gitIn(t, dir, "commit", "-q", "-am", "edit")
			if l, st := gitStatusIn(t, dir, "log", "-p", "-1", "--", name); st != 0 || !strings.Contains(l, "\n+plot(edited)\n") || strings.Contains(l, `"source"`) {
				t.Errorf("git log -p: exit %d\n%s", st, l)
			}
			// Merge driver: a clean merge of two cells, then a conflict.
			head := []byte(gitIn(t, dir, "show", "HEAD:"+name))
			gitIn(t, dir, "checkout", "-q", "-b", "b")
			commitFile(t, dir, name, replaceOnce(t, head, `"1/0"`, `"1/2"`), "b")
			gitIn(t, dir, "checkout", "-q", "main")
			commitFile(t, dir, name, replaceOnce(t, head, `"1+1"`, `"1+5"`), "main")
			if out, st := gitStatusIn(t, dir, "merge", "-q", "--no-edit", "b"); st != 0 {
				t.Fatalf("clean git merge: exit %d\n%s", st, out)
			}
			if s := cellSources(t, []byte(readFile(t, file))); s[2] != "1+5" || s[4] != "1/2" {
				t.Errorf("merged cells: %q", s)
			}
			head = []byte(gitIn(t, dir, "show", "HEAD:"+name))
			gitIn(t, dir, "checkout", "-q", "-b", "c")
			commitFile(t, dir, name, replaceOnce(t, head, `"1+5"`, `"1+6"`), "c")
			gitIn(t, dir, "checkout", "-q", "main")
			commitFile(t, dir, name, replaceOnce(t, head, `"1+5"`, `"1+7"`), "main 2")
			out, st := gitStatusIn(t, dir, "merge", "--no-edit", "c")
			if st != 1 || !strings.Contains(out, quoteName(name)+": 1 conflict left") {
				t.Errorf("conflicting git merge: exit %d\n%s", st, out)
			}
			if s := cellSources(t, []byte(readFile(t, file))); !strings.Contains(s[2], "<<<<<<< HEAD\n1+7\n=======\n1+6\n>>>>>>> c\n") {
				t.Errorf("conflicted cell: %q", s[2])
			}
			gitIn(t, dir, "merge", "--abort")
			gitIn(t, dir, "branch", "-q", "-D", "b", "c")
			// ipynb git status NAME.
			r := ipynb(t, dir, "", "git", "status", "--", name)
			if r.code != 0 || !strings.Contains(r.stdout, "in effect for "+quoteName(name)+": merge=ipynb diff=ipynb filter=ipynb\n") {
				t.Errorf("git status: %+v", r)
			}
		})
	}
}
