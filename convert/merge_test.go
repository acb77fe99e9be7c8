package convert_test

// Tests of Merge against git's line merge on the corpus, of conflicts written
// valid, refused inputs, Diff, upgrades and hidden changes.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// editAt applies one edit, chosen by op, around message i of d: a line
// added to or changed in its text, a new message inserted before it, it
// deleted, moved to the end, its outputs cleared, a metadata key set.
func editAt(d *dialog.Dialog, op, i int, tag string) {
	if len(d.Messages) == 0 {
		d.Add(dialog.Note, "new "+tag)
		return
	}
	i = i % len(d.Messages)
	m := d.Messages[i]
	switch op % 7 {
	case 0:
		m.Content += "\n# line added by " + tag
	case 1:
		lines := strings.SplitAfter(m.Content, "\n")
		lines[0] = "changed by " + tag + "\n"
		m.Content = strings.Join(lines, "")
	case 2:
		if _, err := d.Make(dialog.Code, "print('inserted by "+tag+"')", dialog.MakeOptions{At: i + 1}); err != nil {
			panic(err)
		}
	case 3:
		d.Messages = append(d.Messages[:i:i], d.Messages[i+1:]...)
	case 4:
		d.Messages = append(append(d.Messages[:i:i], d.Messages[i+1:]...), m)
	case 5:
		if m.Kind == dialog.Code {
			m.Outputs, m.ExecutionCount = []dialog.Output{}, nil
		} else {
			m.Content = tag + " " + m.Content
		}
	case 6:
		meta := map[string]any{}
		for k, v := range m.Meta {
			meta[k] = v
		}
		meta["edited_by_"+tag] = true
		m.Meta = meta
	}
}

func edited(t testing.TB, data []byte, edit func(d *dialog.Dialog)) []byte {
	t.Helper()
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	edit(d.Dialog)
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gitMergeFile runs git's line merge (the reference) on three texts; ok
// is false when git reports conflicts.
func gitMergeFile(t testing.TB, dir string, base, ours, theirs []byte) ([]byte, bool) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	for name, data := range map[string][]byte{"base": base, "ours": ours, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out, err == nil
}

// On the corpus, with edits of two cells far apart (one near the start,
// one near the end, of every kind editAt makes), every merge is a valid
// notebook, and equals git's line merge of the files byte for byte
// wherever that merge is clean: the
// result differs from ours only in the cells the merge took from theirs,
// and those keep theirs' bytes.
func TestMergeAgreesWithGitOnCorpus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	var tried, compared, skipped int
	for e, data := range corpus.Files(t) {
		if e.Schema != "valid" {
			continue
		}
		if !testtier.Full() && tried >= 60 {
			break
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil || len(d.Messages) < 8 {
			continue
		}
		tried++
		n := len(d.Messages)
		opO, opT := r.IntN(7), r.IntN(7)
		iO, iT := r.IntN(n/3), n-1-r.IntN(n/3)
		ours := edited(t, data, func(d *dialog.Dialog) { editAt(d, opO, iO, "ours") })
		theirs := edited(t, data, func(d *dialog.Dialog) { editAt(d, opT, iT, "theirs") })
		want, clean := gitMergeFile(t, dir, data, ours, theirs)
		res, err := merge(data, ours, theirs, dialog.MergeOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if nb, err := nbformat.Unmarshal(res.Data); err != nil || nbformat.Validate(nb) != nil {
			t.Errorf("%s (ops %d@%d, %d@%d): merged notebook invalid: %v", e.Path, opO, iO, opT, iT, err)
		}
		if !clean {
			skipped++
			continue
		}
		compared++
		if len(res.Conflicts) > 0 {
			t.Errorf("%s (ops %d@%d, %d@%d): conflicts %v", e.Path, opO, iO, opT, iT, res.Conflicts)
			continue
		}
		if !bytes.Equal(res.Data, want) {
			t.Errorf("%s (ops %d@%d, %d@%d): differs from git's merge %s", e.Path, opO, iO, opT, iT, firstDiff(want, res.Data))
		}
	}
	t.Logf("%d notebooks edited and merged (all valid), %d compared with git's clean merge (%d where git conflicted)", tried, compared, skipped)
	if tried > 0 && compared == 0 {
		t.Error("nothing compared")
	}
}

// A true conflict gives a valid notebook (checked by Python nbformat, the
// reference, when present) whose conflicting cell carries the markers, and
// the conflict as a value.
func TestMergeConflictWritesValidNotebook(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	target := -1
	for i, m := range d.Messages {
		if m.Kind == dialog.Code {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("no code cell in testdata/jupyter.ipynb")
	}
	ours := edited(t, data, func(d *dialog.Dialog) { d.Messages[target].Content = "ours = 1" })
	theirs := edited(t, data, func(d *dialog.Dialog) { d.Messages[target].Content = "theirs = 2" })
	res, err := merge(data, ours, theirs, dialog.MergeOptions{MarkerSize: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].What != "content" || res.Conflicts[0].ID != d.Messages[target].ID {
		t.Fatalf("conflicts %v", res.Conflicts)
	}
	nb, err := nbformat.Unmarshal(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Errorf("invalid: %v", err)
	}
	want := "<<<<<<<<< ours\nours = 1\n=========\ntheirs = 2\n>>>>>>>>> theirs\n"
	if got := nbformat.SourceOf(nb.Cells[target]).String(); got != want {
		t.Errorf("cell source %q, want %q", got, want)
	}
	if py := pythonNbformatValid(t, res.Data); py != "" {
		t.Errorf("Python nbformat: %s", py)
	}
	// Everything else is ours' bytes: only the conflicting cell changed.
	d2, _ := convert.Unmarshal(ours, convert.ReadOptions{})
	d2.Messages[target].Content = want
	expect, _ := convert.Marshal(d2, convert.WriteOptions{})
	if !bytes.Equal(res.Data, expect) {
		t.Errorf("more than the conflicting cell changed %s", firstDiff(expect, res.Data))
	}
}

func pythonNbformatValid(t *testing.T, data []byte) string {
	msg, _ := nbtest.PythonComplaint(data)
	return msg
}

// Inputs that are not notebooks are refused, naming the input and the
// place.
func TestMergeRefusesNonNotebooks(t *testing.T) {
	t.Parallel()
	good := []byte(`{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	for _, tc := range []struct {
		in    [3][]byte
		input string
		where string
	}{
		{[3][]byte{good, good, []byte("{\n \"cells\": [\n  <<<<<<< HEAD\n")}, "theirs", "3:3"},
		{[3][]byte{[]byte(`{"cells": [], "metadata": {}, "nbformat": "4"}`), good, good}, "base", "/nbformat"},
		{[3][]byte{good, []byte(`[1]`), good}, "ours", ""},
	} {
		_, err := merge(tc.in[0], tc.in[1], tc.in[2], dialog.MergeOptions{})
		var ie *convert.Error
		if !errors.As(err, &ie) || ie.Op != "merge" || ie.Input != tc.input || !strings.Contains(err.Error(), tc.where) || !strings.HasPrefix(err.Error(), "convert: merge: "+tc.input+": ") {
			t.Errorf("%s: %v", tc.input, err)
		}
	}
}

// Diff of notebooks: cells matched by id, or by content without ids.
func TestDiffNotebooks(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"jupyter.ipynb", "v4.4.ipynb"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		b := edited(t, data, func(d *dialog.Dialog) {
			d.Messages[0].Content += "\nmore"
			d.Add(dialog.Note, "new")
		})
		cs, err := convert.Diff(data, b)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, fmt.Sprintf("%v %v", c.Kind, c.Parts))
		}
		if want := "changed content|added "; strings.Join(got, "|") != want {
			t.Errorf("%s: %q, want %q", name, strings.Join(got, "|"), want)
		}
		if cs, _ := convert.Diff(data, data); len(cs) != 0 {
			t.Errorf("%s: equal notebooks differ: %v", name, cs)
		}
	}
	if _, err := convert.Diff([]byte("{"), []byte("{}")); err == nil {
		t.Error("bad input accepted")
	}
}

// One side upgraded a notebook without cell ids to 4.5 (ids added),
// the other edited a cell: the merge is 4.5 with the upgrade's ids and
// the edit, as Python nbformat reads it.
func TestMergeWithUpgradedSide(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join("..", "testdata", "v4.4.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	ours := edited(t, base, func(d *dialog.Dialog) { d.Messages[0].Content += "\nours" })
	nb, err := nbformat.Unmarshal(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := nbformat.Upgrade(nb); err != nil {
		t.Fatal(err)
	}
	theirs, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("%v %v", err, res)
	}
	got, err := nbformat.Unmarshal(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if got.NbformatMinor != 5 || len(got.Cells) != len(nb.Cells) {
		t.Fatalf("minor %d, %d cells", got.NbformatMinor, len(got.Cells))
	}
	for i, c := range got.Cells {
		if nbformat.CellIDOf(c) != nbformat.CellIDOf(nb.Cells[i]) {
			t.Errorf("cell %d: id %q, theirs %q", i, nbformat.CellIDOf(c), nbformat.CellIDOf(nb.Cells[i]))
		}
	}
	if s := nbformat.SourceOf(got.Cells[0]).String(); !strings.HasSuffix(s, "\nours") {
		t.Errorf("ours' edit missing: %q", s)
	}
	if err := nbformat.Validate(got); err != nil {
		t.Error(err)
	}
	if py := pythonNbformatValid(t, res.Data); py != "" {
		t.Errorf("Python nbformat: %s", py)
	}
}

// A change theirs made in what a message does not show (an empty
// attachments object, as VS Code adds; a member unknown to the schema)
// survives when ours edited the same cell's text, as in git's merge.
func TestMergeKeepsTheirsHiddenChanges(t *testing.T) {
	t.Parallel()
	base := []byte(`{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "line one\n",
    "line two\n",
    "line three"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 4
}
`)
	ours := bytes.Replace(base, []byte(`"line one\n"`), []byte(`"line ONE\n"`), 1)
	theirs := bytes.Replace(base, []byte(`   "cell_type": "markdown",`), []byte(`   "attachments": {},
   "cell_type": "markdown",`), 1)
	theirs = bytes.Replace(theirs, []byte(`    "line three"
   ]`), []byte(`    "line THREE"
   ],
   "x_tool": 1`), 1)
	want, clean := gitMergeFile(t, t.TempDir(), base, ours, theirs)
	if !clean {
		t.Fatal("git's merge conflicts")
	}
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("%v %v", err, res)
	}
	if !bytes.Equal(res.Data, want) {
		t.Errorf("differs from git's merge %s", firstDiff(want, res.Data))
	}
}

// A cell only theirs has keeps theirs' bytes when the two files share a
// style, even where its members are in an order the file's first cell
// does not use (Colab writes both orders), as git's merge keeps them.
func TestMergeTheirsNewCellKeepsItsBytes(t *testing.T) {
	t.Parallel()
	cell := func(order, id, text string) string {
		parts := map[string]string{
			"t": `      "cell_type": "markdown"`,
			"m": `      "metadata": {
        "id": "` + id + `"
      }`,
			"s": `      "source": [
        "` + text + `"
      ]`,
		}
		var ms []string
		for _, k := range order {
			ms = append(ms, parts[string(k)])
		}
		return "    {\n" + strings.Join(ms, ",\n") + "\n    }"
	}
	nb := func(cells ...string) []byte {
		return []byte("{\n  \"nbformat\": 4,\n  \"nbformat_minor\": 0,\n  \"metadata\": {\n    \"colab\": {}\n  },\n  \"cells\": [\n" + strings.Join(cells, ",\n") + "\n  ]\n}")
	}
	c1, c2, c3 := cell("tms", "a1", "one"), cell("tms", "b2", "two"), cell("tms", "c3", "three")
	base := nb(c1, c2, c3)
	ours := nb(c1, cell("tms", "b2", "two, edited"), c3)
	theirs := nb(c1, c2, c3, cell("tsm", "d4", "four, in another order"))
	want, clean := gitMergeFile(t, t.TempDir(), base, ours, theirs)
	if !clean {
		t.Fatal("git's merge conflicts")
	}
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("%v %v", err, res)
	}
	if !bytes.Equal(res.Data, want) {
		t.Errorf("differs from git's merge %s", firstDiff(want, res.Data))
	}
}

// Host attributes (declared in a Registry) merge key by key like the rest
// of cell metadata, and are written back through their descriptors.
func TestMergeHostAttributes(t *testing.T) {
	t.Parallel()
	reg, err := convert.NewRegistry(convert.Flag("pinned", "pinned"), convert.Descriptor{Attr: "bookmark", Key: "bookmark"})
	if err != nil {
		t.Fatal(err)
	}
	o := convert.Options{Registry: reg}
	base, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(d *dialog.Dialog)) []byte {
		d, err := o.Unmarshal(base)
		if err != nil {
			t.Fatal(err)
		}
		f(d.Dialog)
		out, err := o.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ours := edit(func(d *dialog.Dialog) { d.Messages[0].Attrs = map[string]any{"pinned": 1} })
	theirs := edit(func(d *dialog.Dialog) { d.Messages[0].Attrs = map[string]any{"bookmark": 3} })
	res, err := o.Merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("%v %v", err, res)
	}
	d, err := o.Unmarshal(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Messages[0].Attrs; a["pinned"] != 1 || a["bookmark"] != 3 {
		t.Errorf("attributes %v", a)
	}
	// As JSON the cell's metadata has both keys (pinned as the schema's
	// boolean): read independently of the code under test.
	var nb struct {
		Cells []struct {
			Metadata map[string]any `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(res.Data, &nb); err != nil {
		t.Fatal(err)
	}
	if m := nb.Cells[0].Metadata; m["pinned"] != true || m["bookmark"] != float64(3) {
		t.Errorf("cell metadata %v", m)
	}
}
