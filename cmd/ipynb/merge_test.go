package main

// Tests of merge as git calls it: exit statuses, real merges against git's line
// merge, old formats, output strategies.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// mergeFiles writes base, ours and theirs into a temporary folder.
func mergeFiles(t *testing.T, base, ours, theirs []byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"base.ipynb": base, "ours.ipynb": ours, "theirs.ipynb": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ipynb merge as git calls it: over OURS, exit 0 clean, 1 with
// conflicts (still a valid notebook), 2 for unreadable inputs with
// nothing written; -o elsewhere; --marker-size and labels.
func TestMergeCommand(t *testing.T) {
	t.Parallel()
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	ours := replaceOnce(t, base, `"print(\"hello\")\n",`, `"print(\"hello, world\")\n",`)
	theirs := replaceOnce(t, base, `"plot()"`, `"plot(x)"`)
	dir := mergeFiles(t, base, ours, theirs)
	r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("clean merge: %+v", r)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	want := decodeJSON(t, base)
	cellOf(want, 1)["source"].([]any)[1] = "print(\"hello, world\")\n"
	cellOf(want, 3)["source"] = []any{"plot(x)"}
	if diff := cmp.Diff(want, decodeJSON(t, got)); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	// Git's line merge is clean here: the same bytes.
	switch line, st := gitLineMerge(t, base, ours, theirs); {
	case st > 0:
		t.Errorf("git's line merge conflicts (%d): the test's edits are not what it means", st)
	case st == 0 && line != string(got):
		t.Error("clean merge differs from git's clean line merge")
	}

	// -o - and -o FILE leave OURS alone.
	dir = mergeFiles(t, base, ours, theirs)
	r = ipynb(t, dir, "", "merge", "-o", "-", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 0 || r.stdout != string(got) {
		t.Errorf("-o -: exit %d %s", r.code, r.stderr)
	}
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb", "-o", "out.ipynb")
	if out, _ := os.ReadFile(filepath.Join(dir, "out.ipynb")); r.code != 0 || string(out) != string(got) {
		t.Errorf("-o FILE: %+v", r)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb")); !bytes.Equal(now, ours) {
		t.Error("-o changed OURS")
	}

	// A conflict: both sides change one line.
	ours2 := replaceOnce(t, base, `"plot()"`, `"plot(1)"`)
	theirs2 := replaceOnce(t, base, `"plot()"`, `"plot(2)"`)
	dir = mergeFiles(t, base, ours2, theirs2)
	r = ipynb(t, dir, "", "merge", "--marker-size", "9", "--ours-label", "HEAD", "--theirs-label", "topic", "--path", "nb.ipynb", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 1 || r.stderr != "nb.ipynb: 1 conflict left (marked in the cells): cell d4e5f6a7: content\n" {
		t.Errorf("conflict: %+v", r)
	}
	conflicted, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	validNotebook(t, conflicted)
	if src := cellSources(t, conflicted)[3]; src != "<<<<<<<<< HEAD\nplot(1)\n=========\nplot(2)\n>>>>>>>>> topic" && src != "<<<<<<<<< HEAD\nplot(1)\n=========\nplot(2)\n>>>>>>>>> topic\n" {
		t.Errorf("conflicted cell: %q", src)
	}
	// Every other cell is ours' bytes.
	var o, c struct{ Cells []json.RawMessage }
	json.Unmarshal(ours2, &o)
	json.Unmarshal(conflicted, &c)
	for i := range o.Cells {
		if i != 3 && !bytes.Equal(o.Cells[i], c.Cells[i]) {
			t.Errorf("cell %d changed", i)
		}
	}

	// Unreadable inputs: nothing written, the place named.
	// Line 10 of theirs becomes "   oops": not JSON from column 4.
	ls := strings.SplitAfter(string(base), "\n")
	ls[9] = "   oops\n"
	broken := []byte(strings.Join(ls, ""))
	dir = mergeFiles(t, base, ours, broken)
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 2 || !strings.HasPrefix(r.stderr, "theirs.ipynb:10:4: ") {
		t.Errorf("broken theirs: %+v", r)
	}
	r = ipynb(t, dir, "", "merge", "--path", "a/nb.ipynb", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 2 || !strings.HasPrefix(r.stderr, "a/nb.ipynb (theirs):10:4: ") {
		t.Errorf("broken theirs, with --path: %+v", r)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb")); !bytes.Equal(now, ours) {
		t.Error("OURS changed although an input is unreadable")
	}
	for _, args := range [][]string{
		{"merge", "base.ipynb", "ours.ipynb"},
		{"merge", "--outputs", "newest", "base.ipynb", "ours.ipynb", "theirs.ipynb"},
		{"merge", "--marker-size", "0", "base.ipynb", "ours.ipynb", "theirs.ipynb"},
		{"merge", "base.ipynb", "missing.ipynb", "theirs.ipynb"},
	} {
		if r := ipynb(t, dir, "", args...); r.code != 2 || r.stderr == "" {
			t.Errorf("ipynb %s: %+v", strings.Join(args, " "), r)
		}
	}
}

// gitLineMerge is git merge-file -p of the three texts: the merged text
// and the number of conflicts (-1 without git).
func gitLineMerge(t *testing.T, base, ours, theirs []byte) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return "", -1
	}
	dir := mergeFiles(t, base, ours, theirs)
	return gitStatusIn(t, dir, "merge-file", "-p", "ours.ipynb", "base.ipynb", "theirs.ipynb")
}

// ipynb merge on every real merge (../shared/merges), as git's driver
// would run it: exit 2 only for inputs that are not JSON (and then OURS
// is unchanged); otherwise the file written is a valid notebook; where
// git's line merge was clean, ipynb merges cleanly too.
func TestMergeRealMerges(t *testing.T) {
	t.Parallel()
	cases := mergeCases(t)
	counts := map[string]int{}
	for i, c := range cases {
		if !testtier.Sample(i) {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			var texts [3][]byte
			notJSON := false
			for i, p := range []string{c.base, c.ours, c.theirs} {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				texts[i] = data
				notJSON = notJSON || !json.Valid(data)
			}
			dir := mergeFiles(t, texts[0], texts[1], texts[2])
			r := ipynb(t, dir, "", "merge", "--path", c.path, "base.ipynb", "ours.ipynb", "theirs.ipynb")
			got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
			if notJSON {
				if r.code != 2 || !strings.HasPrefix(r.stderr, c.path+" (") || !bytes.Equal(got, texts[1]) {
					t.Errorf("an input is not JSON: want exit 2, a located reason and OURS unchanged: %+v", r)
				}
				counts["refused (not JSON)"]++
				return
			}
			if r.code == 2 {
				t.Fatalf("exit 2: %s", r.stderr)
			}
			validNotebook(t, got)
			switch {
			case c.gitClean && r.code == 0:
				counts["git clean, ipynb clean"]++
			case c.gitClean:
				// The merge's agreement with git is the library's
				// acceptance test (convert); here it is counted.
				counts["git clean, ipynb conflicts"]++
				t.Logf("git's line merge is clean, ipynb merge reports: %s", r.stderr)
			case r.code == 0:
				counts["git conflicts, ipynb clean"]++
			default:
				counts["git conflicts, ipynb conflicts"]++
			}
		})
	}
	t.Logf("ipynb merge on %d real merges: %v", len(cases), counts)
}

// Notebooks before version 3: merge and fix refuse them (exit 2,
// nothing written) rather than write another format; version 3 ones are
// merged as version 3 (TestMergeV3, TestFixV3); diff compares the cells
// of both by content.
func TestMergeOldFormat(t *testing.T) {
	t.Parallel()
	const v2 = "{\n \"metadata\": {\"name\": \"old\"},\n \"nbformat\": 2,\n \"nbformat_minor\": 0,\n \"worksheets\": [{\"cells\": [{\n" +
		"  \"cell_type\": \"code\", \"collapsed\": false, \"language\": \"python\", \"outputs\": [],\n  \"input\": [\n   \"print(1)\",\n   \"print(2)\"\n  ]\n }]}]\n}\n"
	base := []byte(v2)
	ours := replaceOnce(t, base, `print(1)`, `print(10)`)
	theirs := replaceOnce(t, base, `print(2)`, `print(20)`)
	dir := mergeFiles(t, base, ours, theirs)
	r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 2 || r.stderr != "ours.ipynb: nbformat 2: merging handles version 3 and 4 notebooks (upgrade with 'ipynb fmt --upgrade')\n" {
		t.Errorf("merge: %+v", r)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb")); !bytes.Equal(now, ours) {
		t.Error("OURS changed")
	}
	r = ipynb(t, dir, "", "diff", "--json", "base.ipynb", "theirs.ipynb")
	var doc struct{ Changes []jsonChange }
	json.Unmarshal([]byte(r.stdout), &doc)
	if r.code != 1 || len(doc.Changes) != 1 || doc.Changes[0].Kind != "changed" || doc.Changes[0].Content != "@@ -1,2 +1,2 @@\n print(1)\n-print(2)\n+print(20)\n" {
		t.Errorf("diff of version 2 notebooks: %+v", r)
	}
	v3, _ := os.ReadFile(filepath.Join(shipped, "v3.ipynb"))
	dir = mergeFiles(t, v3, replaceOnce(t, v3, `"Some *text*\n",`, `"Some *TEXT*\n",`), nil)
	r = ipynb(t, dir, "", "diff", "--json", "base.ipynb", "ours.ipynb")
	doc.Changes = nil
	json.Unmarshal([]byte(r.stdout), &doc)
	if r.code != 1 || len(doc.Changes) != 1 || doc.Changes[0].Kind != "changed" || doc.Changes[0].Content != "@@ -1,2 +1,2 @@\n-Some *text*\n+Some *TEXT*\n over lines\n" {
		t.Errorf("diff of version 3 notebooks: %+v", r)
	}
	in := strings.Replace(v2, "   \"print(1)\",\n", "<<<<<<< a\n   \"print(10)\",\n=======\n   \"print(11)\",\n>>>>>>> b\n", 1)
	os.WriteFile(filepath.Join(dir, "c.ipynb"), []byte(in), 0o644)
	if r := ipynb(t, dir, "", "fix", "c.ipynb"); r.code != 2 || !strings.Contains(r.stderr, "nbformat 2") {
		t.Errorf("fix: %+v", r)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "c.ipynb")); string(now) != in {
		t.Error("fix changed the file")
	}
}

// --outputs decides outputs both sides changed: conflict (the default:
// exit 1, both kept), ours, theirs, clear.
func TestMergeOutputsStrategy(t *testing.T) {
	t.Parallel()
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	ours := replaceOnce(t, base, "\"2\"\n", "\"3\"\n")
	theirs := replaceOnce(t, base, "\"2\"\n", "\"4\"\n")
	outputs := func(data []byte) []any {
		return cellOf(decodeJSON(t, data), 2)["outputs"].([]any)
	}
	for _, tc := range []struct {
		strategy string
		code     int
		want     []any
	}{
		{"ours", 0, outputs(ours)},
		{"theirs", 0, outputs(theirs)},
		{"clear", 0, []any{}},
	} {
		dir := mergeFiles(t, base, ours, theirs)
		r := ipynb(t, dir, "", "merge", "--outputs", tc.strategy, "base.ipynb", "ours.ipynb", "theirs.ipynb")
		got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
		if r.code != tc.code {
			t.Errorf("--outputs %s: %+v", tc.strategy, r)
		}
		if diff := cmp.Diff(tc.want, outputs(got)); diff != "" {
			t.Errorf("--outputs %s (-want +got):\n%s", tc.strategy, diff)
		}
		validNotebook(t, got)
	}
	dir := mergeFiles(t, base, ours, theirs)
	r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 1 || !strings.Contains(r.stderr, "cell c3d4e5f6: outputs") {
		t.Errorf("default strategy: %+v", r)
	}
	validNotebook(t, got)
	text, _ := json.Marshal(outputs(got))
	if !bytes.Contains(text, []byte(`"3"`)) || !bytes.Contains(text, []byte(`"4"`)) {
		t.Errorf("default strategy keeps both sides' outputs: %s", text)
	}
}

// A merge whose result is ours (theirs changed nothing ours lacks)
// leaves OURS untouched: same file, same modification time.
func TestMergeKeepsOursWhenNothingToTake(t *testing.T) {
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	ours := replaceOnce(t, base, `"plot()"`, `"plot(x)"`)
	dir := mergeFiles(t, base, ours, base)
	p := filepath.Join(dir, "ours.ipynb")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(p, old, old)
	before, _ := os.Stat(p)
	if r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	after, _ := os.Stat(p)
	if !after.ModTime().Equal(old) || !os.SameFile(before, after) {
		t.Error("OURS was rewritten")
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, ours) {
		t.Error("OURS changed")
	}
}

// --outputs takes the strategies' names and refuses others.
func TestParseStrategy(t *testing.T) {
	for _, s := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsOurs, dialog.OutputsTheirs, dialog.OutputsClear} {
		got, err := parseStrategy(s.String())
		if err != nil || got != s {
			t.Errorf("%v: %v %v", s, got, err)
		}
	}
	if _, err := parseStrategy("union"); err == nil || !strings.Contains(err.Error(), `"union"`) {
		t.Errorf("unknown strategy: %v", err)
	}
}
