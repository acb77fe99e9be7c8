package main

// Tests that conflict markers carry git's names for the sides, under merge and
// rebase, old and new git, and in fix.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMergeLabels(t *testing.T) {
	t.Parallel()
	head := "GITHEAD_" + strings.Repeat("a", 40)
	for _, tc := range []struct {
		ours, theirs string
		env          []string
		want         [2]string
	}{
		{"HEAD", "topic", nil, [2]string{"HEAD", "topic"}},                                                        // git ≥ 2.44
		{"%X", "%Y", []string{head + "=topic"}, [2]string{"HEAD", "topic"}},                                       // git < 2.44, git merge
		{"%X", "%Y", nil, [2]string{"ours", "theirs"}},                                                            // git < 2.44, rebase, cherry-pick
		{"", "", []string{head + "=topic", "GITHEAD_x=y"}, [2]string{"HEAD", "topic"}},                            // not a commit id
		{"", "", []string{head + "=a", "GITHEAD_" + strings.Repeat("b", 40) + "=b"}, [2]string{"ours", "theirs"}}, // octopus
		{"HEAD:old.ipynb", "", nil, [2]string{"HEAD:old.ipynb", "theirs"}},
		{"a\nb", "c\x1b[2Jd\u202e", nil, [2]string{"a", "c\ufffd[2Jd\ufffd"}}, // one line, no controls
		{"  ", "%Y", nil, [2]string{"ours", "theirs"}},
	} {
		o, th := mergeLabels(tc.ours, tc.theirs, tc.env)
		if [2]string{o, th} != tc.want {
			t.Errorf("mergeLabels(%q, %q, %q) = %q, %q, want %q", tc.ours, tc.theirs, tc.env, o, th, tc.want)
		}
	}
}

// gitSQ quotes s as git's sq_quote_buf does (quote.c): in single quotes,
// with ' and ! taken out of them.
func gitSQ(s string) string {
	return "'" + strings.NewReplacer("'", `'\''`, "!", `'\!'`).Replace(s) + "'"
}

// expandDriver expands a merge driver's command line as git ≥ 2.44's
// ll_ext_merge (merge-ll.c) does: %O %A %B the temporary files as they
// are, %L the marker size, %P %S %X %Y the path and the three labels
// quoted for the shell (an absent label as ”), %% a percent sign, and
// any other % kept as it is.
func expandDriver(cmdline string, o, a, b string, size int, path, base, ours, theirs string) string {
	var out strings.Builder
	for i := 0; i < len(cmdline); i++ {
		if cmdline[i] != '%' || i+1 == len(cmdline) {
			out.WriteByte(cmdline[i])
			continue
		}
		i++
		switch cmdline[i] {
		case '%':
			out.WriteByte('%')
		case 'O':
			out.WriteString(o)
		case 'A':
			out.WriteString(a)
		case 'B':
			out.WriteString(b)
		case 'L':
			out.WriteString(strconv.Itoa(size))
		case 'P':
			out.WriteString(gitSQ(path))
		case 'S':
			out.WriteString(gitSQ(base))
		case 'X':
			out.WriteString(gitSQ(ours))
		case 'Y':
			out.WriteString(gitSQ(theirs))
		default:
			out.WriteByte('%')
			i--
		}
	}
	return out.String()
}

// labelRepo makes a repository with ipynb installed where main and topic
// change the same line of one cell of nb.ipynb; it returns the
// repository and the base, ours and theirs notebooks.
func labelRepo(t *testing.T, topic string) (dir string, base, ours, theirs []byte) {
	t.Helper()
	dir = newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	base, _ = os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	commitFile(t, dir, "nb.ipynb", base, "base")
	gitIn(t, dir, "checkout", "-q", "-b", topic)
	theirs = replaceOnce(t, base, `"plot()"`, `"plot(theirs)"`)
	commitFile(t, dir, "nb.ipynb", theirs, "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	ours = replaceOnce(t, base, `"plot()"`, `"plot(ours)"`)
	commitFile(t, dir, "nb.ipynb", ours, "ours")
	return dir, base, ours, theirs
}

// The markers a real "git merge" leaves through the driver carry git's
// names for the sides: on git < 2.44 (which passes %X and %Y as they
// are) HEAD and the branch "git merge" names in GITHEAD_<commit>; a
// cherry-pick, whose name git < 2.44 does not give, says ours and
// theirs.
func TestGitMergeLabelsRealGit(t *testing.T) {
	t.Parallel()
	const topic = "feature/ünï-'x'"
	dir, _, _, _ := labelRepo(t, topic)
	out, st := gitStatusIn(t, dir, "merge", "--no-edit", topic)
	if st != 1 || !strings.Contains(out, "CONFLICT (content)") {
		t.Fatalf("git merge: exit %d\n%s", st, out)
	}
	src := cellSources(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb"))))[3]
	if want := "<<<<<<< HEAD\nplot(ours)\n=======\nplot(theirs)\n>>>>>>> " + topic + "\n"; src != want {
		t.Errorf("cell 3 after git merge:\n%q\nwant\n%q", src, want)
	}
	gitIn(t, dir, "merge", "--abort")
	if gitAtLeast(t, 2, 44) {
		return // cherry-pick's labels come from git itself then
	}
	if out, st := gitStatusIn(t, dir, "cherry-pick", topic); st != 1 {
		t.Fatalf("git cherry-pick: exit %d\n%s", st, out)
	}
	src = cellSources(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb"))))[3]
	if want := "<<<<<<< ours\nplot(ours)\n=======\nplot(theirs)\n>>>>>>> theirs\n"; src != want {
		t.Errorf("cell 3 after git cherry-pick:\n%q\nwant\n%q", src, want)
	}
}

// gitAtLeast reports whether the git binary is version major.minor or
// later.
func gitAtLeast(t *testing.T, major, minor int) bool {
	t.Helper()
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out)) // git version 2.39.5
	if len(f) < 3 {
		t.Fatalf("git version: %q", out)
	}
	v := strings.SplitN(f[2], ".", 3)
	ma, _ := strconv.Atoi(v[0])
	mi := 0
	if len(v) > 1 {
		mi, _ = strconv.Atoi(v[1])
	}
	return ma > major || ma == major && mi >= minor
}

// The driver as git ≥ 2.44 runs it (this machine's git is older: the
// command line installed is expanded exactly as merge-ll.c expands it,
// and run with sh, as git runs it): the labels git passes — the branch
// names, "HEAD:old.ipynb" for a renamed file, quotes and all — are the
// markers', and an absent label (”) falls back as on older git.
func TestGitMergeLabelsNewGit(t *testing.T) {
	t.Parallel()
	dir, base, ours, theirs := labelRepo(t, "topic")
	cmdline := strings.TrimSpace(gitIn(t, dir, "config", "--get", "merge.ipynb.driver"))
	tmp := t.TempDir()
	for _, tc := range []struct {
		x, y, path   string
		wantO, wantT string
	}{
		{"HEAD", "topic", "nb.ipynb", "HEAD", "topic"},
		{"HEAD", "1a2b3c4 (fix: plot, 'quoted')", "nb.ipynb", "HEAD", "1a2b3c4 (fix: plot, 'quoted')"}, // rebase, cherry-pick: the commit replayed
		{"HEAD:old.ipynb", "topic:nb.ipynb", "-x 'it''s'!.ipynb", "HEAD:old.ipynb", "topic:nb.ipynb"},
		{"main", "it's a \"branch\" $HOME `x` !", "nb.ipynb", "main", "it's a \"branch\" $HOME `x` !"},
		{"", "", "nb.ipynb", "ours", "theirs"},
	} {
		o, a, b := filepath.Join(tmp, ".merge_file_o"), filepath.Join(tmp, ".merge_file_a"), filepath.Join(tmp, ".merge_file_b")
		os.WriteFile(o, base, 0o644)
		os.WriteFile(a, ours, 0o644)
		os.WriteFile(b, theirs, 0o644)
		cmd := exec.Command("sh", "-c", expandDriver(cmdline, o, a, b, 7, tc.path, "abc1234", tc.x, tc.y))
		cmd.Dir = dir
		cmd.Env = testEnv(t)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("driver: %v\n%s", err, out)
		}
		src := cellSources(t, []byte(readFile(t, a)))[3]
		if want := "<<<<<<< " + tc.wantO + "\nplot(ours)\n=======\nplot(theirs)\n>>>>>>> " + tc.wantT + "\n"; src != want {
			t.Errorf("labels %q %q: cell 3:\n%q\nwant\n%q", tc.x, tc.y, src, want)
		}
		if !strings.Contains(string(out), quoteName(tc.path)+": 1 conflict") {
			t.Errorf("the conflict is not reported under %q: %s", tc.path, out)
		}
	}
}

// fix labels the markers it writes by the same rule, from the markers
// it repairs: git's own (HEAD, the branch), or none (ours, theirs).
func TestFixLabels(t *testing.T) {
	t.Parallel()
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	lines := strings.SplitAfter(string(base), "\n")
	for _, tc := range []struct{ open, close, wantO, wantT string }{
		{"<<<<<<< HEAD", ">>>>>>> topic", "HEAD", "topic"},
		{"<<<<<<<", ">>>>>>>", "ours", "theirs"},
		{"<<<<<<< %X", ">>>>>>> %Y", "ours", "theirs"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "nb.ipynb")
		conflicted := strings.Join(lines[:101], "") + tc.open + "\n    \"plot(1)\"\n=======\n    \"plot(2)\"\n" + tc.close + "\n" + strings.Join(lines[102:], "")
		os.WriteFile(p, []byte(conflicted), 0o644)
		if r := ipynb(t, dir, "", "fix", "nb.ipynb"); r.code != 1 {
			t.Fatalf("fix: %+v", r)
		}
		src := cellSources(t, []byte(readFile(t, p)))[3]
		if want := "<<<<<<< " + tc.wantO + "\nplot(1)\n=======\nplot(2)\n>>>>>>> " + tc.wantT + "\n"; src != want {
			t.Errorf("%s: cell 3:\n%q\nwant\n%q", tc.open, src, want)
		}
	}
}

// Under git rebase the sides are the other way round from a merge: the
// driver's ours (%A) is the branch rebased onto (upstream), theirs the
// commit replayed. The markers show them so — upstream's text after
// <<<<<<<, the replayed commit's before >>>>>>> — labelled ours and
// theirs on git < 2.44 (which names neither side to a driver), and the
// conflict is found by check; rebase --abort leaves the commit as it was.
func TestGitRebaseLabelsRealGit(t *testing.T) {
	t.Parallel()
	dir, _, ours, _ := labelRepo(t, "topic")
	out, st := gitStatusIn(t, dir, "rebase", "topic")
	if st == 0 || !strings.Contains(out, "CONFLICT (content)") {
		t.Fatalf("git rebase: exit %d\n%s", st, out)
	}
	src := cellSources(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb"))))[3]
	o, th := "ours", "theirs"
	if gitAtLeast(t, 2, 44) {
		o, th = "", "" // git's own names then: only the texts' order is checked
	}
	if !strings.HasPrefix(src, "<<<<<<< "+o) || !strings.Contains(src, "\nplot(theirs)\n=======\nplot(ours)\n>>>>>>> "+th) {
		t.Errorf("cell 3 after git rebase (upstream's text first, the replayed commit's second):\n%q", src)
	}
	if r := ipynb(t, dir, "", "check", "nb.ipynb"); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "conflict") {
		t.Errorf("check after the conflicted rebase: %+v", r)
	}
	gitIn(t, dir, "rebase", "--abort")
	if got := readFile(t, filepath.Join(dir, "nb.ipynb")); got != string(ours) {
		t.Errorf("after rebase --abort the notebook is not main's commit")
	}
}
