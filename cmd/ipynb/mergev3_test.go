package main

// nbformat 3 notebooks through merge, fix, diff and git: the result
// stays nbformat 3, in the file's own style, valid, with conflicts marked
// inside cells.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

// v3Sides returns the shipped version 3 notebook and two edits of it:
// ours changes the code cell's first line, theirs the markdown cell
// (conflict true: theirs changes the same line as ours).
func v3Sides(t *testing.T, conflict bool) (base, ours, theirs []byte) {
	t.Helper()
	base, err := os.ReadFile(filepath.Join(shipped, "v3.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	ours = replaceOnce(t, base, `"print(1)\n",`, `"print(2)\n",`)
	if conflict {
		theirs = replaceOnce(t, base, `"print(1)\n",`, `"print(3)\n",`)
	} else {
		theirs = replaceOnce(t, base, `"Some *text*\n",`, `"Some *TEXT*\n",`)
	}
	return base, ours, theirs
}

// validV3 fails t unless data is a valid nbformat 3 notebook (for ours'
// package and, when it is installed, for Python nbformat).
func validV3(t *testing.T, data []byte) *nbformat.Notebook {
	t.Helper()
	nb := validNotebook(t, data)
	if nb.Nbformat != 3 {
		t.Fatalf("nbformat %d, want 3", nb.Nbformat)
	}
	if msg := pythonInvalid(t, data); msg != "" {
		t.Fatalf("Python nbformat: %s", msg)
	}
	return nb
}

// inputOf returns the input of the version 3 file's code cell.
func inputOf(t *testing.T, data []byte) string {
	t.Helper()
	nb := decodeJSON(t, data)
	var b strings.Builder
	for _, c := range nb["worksheets"].([]any)[0].(map[string]any)["cells"].([]any) {
		if cm := c.(map[string]any); cm["cell_type"] == "code" {
			for _, l := range cm["input"].([]any) {
				b.WriteString(l.(string))
			}
		}
	}
	return b.String()
}

// merge of version 3 notebooks: clean, the result is git's line merge
// byte for byte (and nbformat 3, valid); conflicting, exit 1, the
// conflict marked inside the code cell, the other cells as they were.
func TestMergeV3(t *testing.T) {
	t.Parallel()
	base, ours, theirs := v3Sides(t, false)
	dir := mergeFiles(t, base, ours, theirs)
	r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 0 {
		t.Fatalf("merge: %+v", r)
	}
	validV3(t, got)
	if line, st := gitLineMerge(t, base, ours, theirs); st == 0 && line != string(got) {
		t.Errorf("not git's clean line merge:\n%s\nwant\n%s", got, line)
	}

	base, ours, theirs = v3Sides(t, true)
	dir = mergeFiles(t, base, ours, theirs)
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ = os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 1 || !strings.Contains(r.stderr, "1 conflict left (marked in the cells)") {
		t.Fatalf("conflicting merge: %+v", r)
	}
	validV3(t, got)
	if in := inputOf(t, got); in != "<<<<<<< ours\nprint(2)\n=======\nprint(3)\n>>>>>>> theirs\n1" {
		t.Errorf("conflicted input %q", in)
	}
	oc, gc := cellsOfV3(t, ours), cellsOfV3(t, got)
	for _, i := range []int{0, 1} {
		if !bytes.Equal(oc[i], gc[i]) {
			t.Errorf("cell %d changed:\n%s", i, gc[i])
		}
	}
}

// cellsOfV3 returns the bytes of a version 3 file's cells.
func cellsOfV3(t *testing.T, data []byte) [][]byte {
	t.Helper()
	tp, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, w := range tp.ChildList(tp.Lookup(jsontree.Root, "worksheets")) {
		for _, c := range tp.ChildList(tp.Lookup(w, "cells")) {
			out = append(out, tp.Raw(c))
		}
	}
	return out
}

// fix of a version 3 file holding git's conflict markers, with and
// without the base section: the conflict marked inside the code cell,
// nbformat 3, valid; both sides' lines kept.
func TestFixV3(t *testing.T) {
	base, ours, theirs := v3Sides(t, true)
	for _, style := range []string{"merge", "diff3"} {
		dir := mergeFiles(t, base, ours, theirs)
		args := []string{"merge-file", "ours.ipynb", "base.ipynb", "theirs.ipynb"}
		if style == "diff3" {
			args = append(args[:1], append([]string{"--diff3"}, args[1:]...)...)
		}
		if _, st := gitStatusIn(t, dir, args...); st != 1 {
			t.Fatalf("%s: git merge-file: exit %d", style, st)
		}
		r := ipynb(t, dir, "", "fix", "ours.ipynb")
		got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
		if r.code != 1 {
			t.Fatalf("%s: fix: %+v\n%s", style, r, got)
		}
		validV3(t, got)
		in := inputOf(t, got)
		for _, l := range []string{"<<<<<<< ours.ipynb\n", "print(2)\n", "=======\n", "print(3)\n", ">>>>>>> theirs.ipynb\n"} {
			if !strings.Contains(in, l) {
				t.Errorf("%s: fixed input lacks %q: %q", style, l, in)
			}
		}
	}
}

// diff of version 3 notebooks names the changed cell.
func TestDiffV3(t *testing.T) {
	base, ours, _ := v3Sides(t, false)
	dir := mergeFiles(t, base, ours, nil)
	r := ipynb(t, dir, "", "diff", "base.ipynb", "ours.ipynb")
	if r.code != 1 || !strings.Contains(r.stdout, "## code [1] (cell 3): changed content\n@@ -1,2 +1,2 @@\n-print(1)\n+print(2)\n 1\n") {
		t.Errorf("diff: %+v", r)
	}
}

// git with the driver installed: a clean merge of two edits of a
// version 3 notebook is git's line merge, nbformat 3; a conflicting one
// leaves a valid nbformat 3 notebook, the conflict marked inside the cell
// with git's labels, which check finds.
func TestGitMergeV3(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	base, ours, theirs := v3Sides(t, false)
	const nb = "old.ipynb"
	commitFile(t, dir, nb, base, "base")
	baseCommit := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))
	gitIn(t, dir, "checkout", "-q", "-b", "theirs")
	commitFile(t, dir, nb, theirs, "theirs: the markdown cell")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, nb, ours, "ours: the code cell")
	if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "theirs"); st != 0 {
		t.Fatalf("git merge: exit %d\n%s", st, out)
	}
	merged, _ := os.ReadFile(filepath.Join(dir, nb))
	validV3(t, merged)
	if line, st := gitLineMerge(t, base, ours, theirs); st != 0 || line != string(merged) {
		t.Errorf("not git's clean line merge (exit %d):\n%s", st, merged)
	}

	_, _, other := v3Sides(t, true)
	gitIn(t, dir, "checkout", "-q", "-b", "other", baseCommit)
	commitFile(t, dir, nb, other, "other: print(3)")
	gitIn(t, dir, "checkout", "-q", "main")
	out, st := gitStatusIn(t, dir, "merge", "--no-edit", "other")
	if st != 1 || !strings.Contains(out, "CONFLICT (content): Merge conflict in old.ipynb") {
		t.Fatalf("conflicting git merge: exit %d\n%s", st, out)
	}
	conflicted, _ := os.ReadFile(filepath.Join(dir, nb))
	validV3(t, conflicted)
	in := inputOf(t, conflicted)
	for _, l := range []string{"<<<<<<< ", "print(2)\n", "=======\n", "print(3)\n", ">>>>>>> "} {
		if !strings.Contains(in, l) {
			t.Errorf("conflicted input lacks %q: %q", l, in)
		}
	}
	if !bytes.Contains(conflicted, []byte(`"Some *TEXT*\n",`)) {
		t.Errorf("theirs' earlier change lost:\n%s", conflicted)
	}
	if r := ipynb(t, dir, "", "check", nb); r.code != 1 || !strings.Contains(r.stdout, ": /worksheets/0/cells/2/input/") {
		t.Errorf("check of the conflicted file: %+v", r)
	}
}

// upgradedV3 returns a version 3 notebook text upgraded to 4.5 (as
// Jupyter upgrades on saving), with edit applied to its cells.
func upgradedV3(t *testing.T, data []byte, edit func(cells []nbformat.Cell)) []byte {
	t.Helper()
	nb, err := nbformat.Unmarshal(data)
	if err == nil {
		err = nbformat.Upgrade(nb)
	}
	if err != nil {
		t.Fatal(err)
	}
	edit(nb.Cells)
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The result keeps ours' version: a version 3 ours merged with a theirs
// upgraded to version 4 stays version 3 (a note says so) with both
// sides' changes; ours as base with theirs upgraded gives theirs'
// version 4 (a note says so); what version 3 has no place for (theirs'
// attachment) is refused, nothing written; a metadata conflict is
// recorded in the version 3 cell's metadata, valid for Python nbformat.
func TestMergeV3Versions(t *testing.T) {
	base, ours, _ := v3Sides(t, false)
	theirs := upgradedV3(t, base, func(cs []nbformat.Cell) {
		cs[1].(*nbformat.MarkdownCell).Source = nbformat.Text("Some *TEXT*\nover lines")
	})
	dir := mergeFiles(t, base, ours, theirs)
	r := ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 0 || r.stderr != "ours.ipynb: note: theirs is nbformat 4: the result stays nbformat 3, as ours\n" {
		t.Fatalf("merge with an upgraded theirs: %+v", r)
	}
	validV3(t, got)
	if !bytes.Contains(got, []byte(`"Some *TEXT*\n",`)) || inputOf(t, got) != "print(2)\n1" {
		t.Errorf("a side's change lost:\n%s", got)
	}

	dir = mergeFiles(t, base, base, theirs)
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ = os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 0 || !strings.Contains(r.stderr, "note: theirs changed the format to nbformat 4") {
		t.Fatalf("merge of ours as base with an upgraded theirs: %+v", r)
	}
	if nb := validNotebook(t, got); nb.Nbformat != 4 || !bytes.Contains(got, []byte(`"Some *TEXT*\n",`)) {
		t.Errorf("not theirs' version 4:\n%s", got)
	}

	withAttachment := upgradedV3(t, base, func(cs []nbformat.Cell) {
		var b nbformat.MimeBundle
		if err := b.SetJSON("image/png", json.RawMessage(`"iVBORw0KGgo="`)); err != nil {
			t.Fatal(err)
		}
		cs[1].(*nbformat.MarkdownCell).Attachments = map[string]nbformat.MimeBundle{"a.png": b}
	})
	dir = mergeFiles(t, base, ours, withAttachment)
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != 2 || !strings.Contains(r.stderr, "/cells/1/attachments") || !strings.Contains(r.stderr, "upgrading ours to version 4 merges it") {
		t.Errorf("an attachment for a version 3 result: %+v", r)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb")); !bytes.Equal(now, ours) {
		t.Error("OURS changed")
	}

	const meta = "\"language\": \"python\",\n     \"metadata\": {}"
	tagged := func(tag string) []byte {
		return replaceOnce(t, base, meta, strings.Replace(meta, "{}", `{"tags": ["`+tag+`"]}`, 1))
	}
	dir = mergeFiles(t, base, tagged("x"), tagged("y"))
	r = ipynb(t, dir, "", "merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	got, _ = os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if r.code != 1 || !strings.Contains(r.stderr, "metadata key tags") {
		t.Fatalf("tags changed on both sides: %+v", r)
	}
	validV3(t, got)
	cell := decodeJSON(t, got)["worksheets"].([]any)[0].(map[string]any)["cells"].([]any)[2].(map[string]any)
	md := cell["metadata"].(map[string]any)
	recs, _ := md["ipynb_conflicts"].([]any)
	if len(recs) != 1 || fmt.Sprint(md["tags"]) != "[x]" {
		t.Fatalf("the code cell's metadata: %v", md)
	}
	rec := recs[0].(map[string]any)
	if rec["pointer"] != "/metadata/tags" || fmt.Sprint(rec["ours"]) != "[x]" || fmt.Sprint(rec["theirs"]) != "[y]" {
		t.Errorf("record %v", rec)
	}
}
