package main

// The acceptance test of the git integration, with the real git binary
// in a temporary repository and the ipynb program built by TestMain:
// ipynb git install, then git merge, git diff and git log -p as usual.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// replaceOnce replaces the only occurrence of old in data by new.
func replaceOnce(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	if n := bytes.Count(data, []byte(old)); n != 1 {
		t.Fatalf("%q occurs %d times", old, n)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// commitFile writes data to dir/name and commits it.
func commitFile(t *testing.T, dir, name string, data []byte, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "--", name)
	gitIn(t, dir, "commit", "-q", "-m", msg)
}

// decodeJSON decodes a JSON text with encoding/json (independently of
// the code under test).
func decodeJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return v
}

func cellOf(nb map[string]any, i int) map[string]any {
	return nb["cells"].([]any)[i].(map[string]any)
}

// validNotebook fails t unless data is a notebook valid against its
// schema.
func validNotebook(t *testing.T, data []byte) *nbformat.Notebook {
	t.Helper()
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatalf("not a notebook: %v", err)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Fatalf("invalid notebook: %v", err)
	}
	return nb
}

func TestGitMergeDriver(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	const nb = "nb.ipynb"
	commitFile(t, dir, nb, base, "base")

	// Theirs: cell 2 re-run, its outputs only.
	gitIn(t, dir, "checkout", "-q", "-b", "theirs")
	theirs := replaceOnce(t, base, "\"2\"\n", "\"3\"\n")
	commitFile(t, dir, nb, theirs, "theirs: outputs of cell 2")
	// Ours: the text of cells 1 and 3.
	gitIn(t, dir, "checkout", "-q", "main")
	ours := replaceOnce(t, base, `"print(\"hello\")\n",`, `"print(\"hello, world\")\n",`)
	ours = replaceOnce(t, ours, `"plot()"`, `"plot(x)"`)
	commitFile(t, dir, nb, ours, "ours: cells 1 and 3")
	oursCommit := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))

	out, status := gitStatusIn(t, dir, "merge", "--no-edit", "theirs")
	if status != 0 {
		t.Fatalf("git merge: exit %d\n%s", status, out)
	}
	merged, _ := os.ReadFile(filepath.Join(dir, nb))
	validNotebook(t, merged)
	// What the merge should be: both sides' edits applied to the base,
	// with encoding/json.
	want := decodeJSON(t, base)
	cellOf(want, 1)["source"].([]any)[1] = "print(\"hello, world\")\n"
	cellOf(want, 3)["source"] = []any{"plot(x)"}
	cellOf(want, 2)["outputs"].([]any)[0].(map[string]any)["data"].(map[string]any)["text/plain"] = []any{"3"}
	if diff := cmp.Diff(want, decodeJSON(t, merged)); diff != "" {
		t.Errorf("merged notebook (-want +got):\n%s", diff)
	}
	// Git's line merge is clean here, and ours agrees with it byte for
	// byte.
	tmp := t.TempDir()
	for name, data := range map[string][]byte{"base": base, "ours": ours, "theirs": theirs} {
		os.WriteFile(filepath.Join(tmp, name), data, 0o644)
	}
	if line, st := gitStatusIn(t, tmp, "merge-file", "-p", "ours", "base", "theirs"); st != 0 || line != string(merged) {
		t.Errorf("differs from git's clean line merge (exit %d)", st)
	}
	if got := gitIn(t, dir, "log", "-1", "--format=%P"); len(strings.Fields(got)) != 2 {
		t.Errorf("no merge commit: parents %q", got)
	}

	// git log -p shows notebooks through the textconv: the cells' text.
	logp := gitIn(t, dir, "log", "-p", "-1", oursCommit)
	for _, l := range []string{"-print(\"hello\")", "+print(\"hello, world\")", "-plot()", "+plot(x)", " ## code d4e5f6a7 [3]"} {
		if !strings.Contains(logp, "\n"+l+"\n") {
			t.Errorf("git log -p: no line %q:\n%s", l, logp)
		}
	}
	if strings.Contains(logp, `"source"`) {
		t.Errorf("git log -p shows the JSON, not the textconv:\n%s", logp)
	}

	// git diff runs ipynb diff with git's 7 arguments.
	changed := replaceOnce(t, merged, `"1/0"`, `"1/1"`)
	os.WriteFile(filepath.Join(dir, nb), changed, 0o644)
	d, st := gitStatusIn(t, dir, "diff")
	if st != 0 || !strings.Contains(d, "e5f6a7b8") || !strings.Contains(d, "\n-1/0\n") || !strings.Contains(d, "\n+1/1\n") || strings.Contains(d, `"source"`) {
		t.Errorf("git diff through the driver: exit %d\n%s", st, d)
	}
	gitIn(t, dir, "checkout", "--", nb)

	// A true conflict: both sides change the same line of cell 3.
	gitIn(t, dir, "checkout", "-q", "-b", "other")
	commitFile(t, dir, nb, replaceOnce(t, merged, `"plot(x)"`, `"plot(y)"`), "other: plot(y)")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, nb, replaceOnce(t, merged, `"plot(x)"`, `"plot(z)"`), "main: plot(z)")
	out, status = gitStatusIn(t, dir, "merge", "--no-edit", "other")
	if status != 1 || !strings.Contains(out, "CONFLICT (content): Merge conflict in nb.ipynb") {
		t.Fatalf("conflicting git merge: exit %d\n%s", status, out)
	}
	conflicted, _ := os.ReadFile(filepath.Join(dir, nb))
	validNotebook(t, conflicted)
	src := nbformat.SourceOf(validNotebook(t, conflicted).Cells[3]).String()
	for _, l := range []string{"<<<<<<< ", "plot(z)", "=======", "plot(y)", ">>>>>>> "} {
		if !strings.Contains(src, l) {
			t.Errorf("conflicted cell's text lacks %q:\n%s", l, src)
		}
	}
	if st := gitIn(t, dir, "status", "--porcelain"); st != "UU nb.ipynb\n" {
		t.Errorf("git status: %q, want an unmerged path", st)
	}
	// Cells outside the conflict are untouched.
	mj, cj := decodeJSON(t, merged), decodeJSON(t, conflicted)
	for _, i := range []int{0, 1, 2, 4, 5, 6, 7} {
		if diff := cmp.Diff(cellOf(mj, i), cellOf(cj, i)); diff != "" {
			t.Errorf("cell %d changed by the conflicting merge:\n%s", i, diff)
		}
	}
}

// With --strip, what git commits has no outputs and no counts; the work
// tree keeps them.
func TestGitStripFilter(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install --strip: %+v", r)
	}
	data, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	commitFile(t, dir, "nb.ipynb", data, "add")
	committed := decodeJSON(t, []byte(gitIn(t, dir, "show", "HEAD:nb.ipynb")))
	for _, c := range committed["cells"].([]any) {
		c := c.(map[string]any)
		if c["cell_type"] != "code" {
			continue
		}
		if len(c["outputs"].([]any)) != 0 || c["execution_count"] != nil {
			t.Errorf("committed cell %v keeps outputs or its count", c["id"])
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb")); !bytes.Equal(now, data) {
		t.Error("the work tree file changed")
	}
	// A notebook strip refuses is not added (the filter is required);
	// what is not JSON is added as it is (TestStripFilterPassesNonJSON).
	os.WriteFile(filepath.Join(dir, "broken.ipynb"), []byte("{\"cells\": {}, \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n"), 0o644)
	if out, st := gitStatusIn(t, dir, "add", "broken.ipynb"); st == 0 {
		t.Errorf("git add of a notebook strip refuses succeeded:\n%s", out)
	}
	if out := gitIn(t, dir, "status", "--porcelain"); out != "?? broken.ipynb\n" {
		t.Errorf("git status: %q", out)
	}
}

// A notebook committed broken (a conflict committed as it was) does not
// stop git log -p or git diff; a rename reaches the driver with its new
// path.
func TestGitHistoryWithBrokenNotebook(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	good, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	commitFile(t, dir, "nb.ipynb", good, "good")
	broken := replaceOnce(t, good, "    \"plot()\"\n", "<<<<<<< HEAD\n    \"plot(1)\"\n=======\n    \"plot(2)\"\n>>>>>>> topic\n")
	commitFile(t, dir, "nb.ipynb", broken, "committed with markers")
	commitFile(t, dir, "nb.ipynb", replaceOnce(t, good, `"plot()"`, `"plot(1)"`), "repaired")
	out, st := gitStatusIn(t, dir, "log", "-p")
	if st != 0 || strings.Count(out, "\ncommit ") != 2 || !strings.Contains(out, "## not a notebook (line 102, column 1: ") || !strings.Contains(out, "\n+<<<<<<< HEAD\n") {
		t.Errorf("git log -p: exit %d\n%s", st, out)
	}
	out, st = gitStatusIn(t, dir, "diff", "HEAD~2", "HEAD~1")
	if st != 0 || !strings.Contains(out, "\n+<<<<<<< HEAD\n") {
		t.Errorf("git diff to a broken notebook: exit %d\n%s", st, out)
	}
	gitIn(t, dir, "mv", "nb.ipynb", "renamed.ipynb")
	os.WriteFile(filepath.Join(dir, "renamed.ipynb"), replaceOnce(t, good, `"plot()"`, `"plot(3)"`), 0o644)
	gitIn(t, dir, "add", "renamed.ipynb")
	out, st = gitStatusIn(t, dir, "diff", "--cached", "-M")
	if st != 0 || !strings.Contains(out, "--- a/nb.ipynb\n+++ b/renamed.ipynb\n") || !strings.Contains(out, "\n-plot(1)\n+plot(3)\n") {
		t.Errorf("git diff of a rename: exit %d\n%s", st, out)
	}
}

// Both branches add the same notebook: git calls the driver with an
// empty base; the cells both added alike are kept once, the one added in
// two versions is a conflict inside a valid notebook.
func TestGitMergeAddAdd(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	commitFile(t, dir, "README", []byte("x\n"), "start")
	nb, _ := os.ReadFile(filepath.Join(shipped, "v4.4.ipynb"))
	gitIn(t, dir, "checkout", "-q", "-b", "other")
	commitFile(t, dir, "nb.ipynb", replaceOnce(t, nb, `"1+1"`, `"1+2"`), "other adds nb")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", replaceOnce(t, nb, `"1+1"`, `"1+3"`), "main adds nb")
	out, status := gitStatusIn(t, dir, "merge", "--no-edit", "other")
	if status != 1 || !strings.Contains(out, "CONFLICT (add/add)") {
		t.Fatalf("git merge: exit %d\n%s", status, out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	validNotebook(t, got)
	srcs, want := cellSources(t, got), cellSources(t, nb)
	if len(srcs) != len(want) {
		t.Fatalf("%d cells, want %d", len(srcs), len(want))
	}
	for i := range want {
		if i == 2 {
			// Labelled as git labels its own markers: HEAD and the
			// branch merged (git 2.39 names it in GITHEAD_<commit>).
			if !strings.Contains(srcs[i], "<<<<<<< HEAD\n1+3\n=======\n1+2\n>>>>>>> other") {
				t.Errorf("cell 2: %q", srcs[i])
			}
			continue
		}
		if srcs[i] != want[i] {
			t.Errorf("cell %d: %q, want %q", i, srcs[i], want[i])
		}
	}
	if bytes.Contains(got, []byte(`"id"`)) {
		t.Error("made-up ids left in the file")
	}
}
