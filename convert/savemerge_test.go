package convert_test

// Tests of Save with MergeOnChange: a file changed on disk is merged, as git's
// line merge agrees, and nothing is written on conflict.

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// otherWriter changes the file the way another program would: it reads
// it, edits it, and writes it back with a new modification time.
func otherWriter(t *testing.T, path string, edit func(d *dialog.Dialog)) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := edited(t, data, edit)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	return out
}

// Save with MergeOnChange merges a file changed on disk: both edits are
// in the file, which git's line merge (the reference) agrees with, and the
// dialog follows the file.
func TestSaveMergesChangedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "jupyter.ipynb", dir)
	base, _ := os.ReadFile(path)
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := len(d.Messages)
	d.Messages[0].Content += "\nedited here"
	disk := otherWriter(t, path, func(d *dialog.Dialog) { d.Messages[n-1].Content += "\nedited elsewhere" })
	ours, _ := convert.Marshal(d, convert.WriteOptions{})
	if err := d.Save(convert.SaveOptions{}); !errors.Is(err, convert.ErrChanged) {
		t.Fatalf("Save without MergeOnChange: %v", err)
	}
	o := convert.Options{MergeOnChange: &dialog.MergeOptions{}}
	if err := o.Save(d); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want, clean := gitMergeFile(t, t.TempDir(), base, ours, disk)
	if !clean || !bytes.Equal(got, want) {
		t.Errorf("saved file differs from git's merge (clean %v) %s", clean, firstDiff(want, got))
	}
	if !strings.HasSuffix(d.Messages[0].Content, "edited here") || !strings.HasSuffix(d.Messages[n-1].Content, "edited elsewhere") {
		t.Errorf("dialog does not hold the merge:\n%s", d.Summary(0, 0))
	}
	// The dialog now follows the merged file: saving it unedited writes
	// nothing; an edit saves normally.
	fi1, _ := os.Stat(path)
	if err := o.Save(d); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(path); !fi2.ModTime().Equal(fi1.ModTime()) {
		t.Error("saving the unedited merged dialog wrote the file")
	}
	d.Messages[1].Content = "again"
	if err := o.Save(d); err != nil {
		t.Fatal(err)
	}
	if d2, err := convert.ReadFile(path, convert.ReadOptions{}); err != nil || d2.Messages[1].Content != "again" {
		t.Errorf("second save: %v", err)
	}
}

// A conflicting change on disk: nothing is written, and the error carries
// the conflicts and a valid merged notebook.
func TestSaveMergeConflictWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "jupyter.ipynb", dir)
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "mine"
	disk := otherWriter(t, path, func(d *dialog.Dialog) { d.Messages[0].Content = "theirs" })
	err = d.Save(convert.SaveOptions{MergeOnChange: &dialog.MergeOptions{}})
	var ce *convert.Error
	if !errors.As(err, &ce) || ce.Op != "save" || ce.Path != path || !errors.Is(err, convert.ErrChanged) || len(ce.Conflicts) != 1 || ce.Conflicts[0].What != "content" {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, disk) {
		t.Error("the file on disk changed")
	}
	md, err := convert.Unmarshal(ce.Merged, convert.ReadOptions{})
	if err != nil || md.Messages[0].Content != "<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n" {
		t.Errorf("merged: %v %q", err, md.Messages[0].Content)
	}
	if py := pythonNbformatValid(t, ce.Merged); py != "" {
		t.Errorf("merged notebook invalid for Python nbformat: %s", py)
	}
	if d.Messages[0].Content != "mine" {
		t.Error("the dialog changed")
	}
}

// A file replaced on disk by something that is not a notebook is not
// merged with, and stays.
func TestSaveMergeRefusesNonNotebook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "jupyter.ipynb", dir)
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "mine"
	junk := []byte("{\n <<<<<<< HEAD\n")
	if err := os.WriteFile(path, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	err = d.Save(convert.SaveOptions{MergeOnChange: &dialog.MergeOptions{}})
	var se *nbformat.SyntaxError
	if !errors.As(err, &se) || se.File != path || se.Line != 2 || !strings.HasPrefix(err.Error(), "convert: save: ") || !strings.Contains(err.Error(), path+":2:") {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, junk) {
		t.Error("the file on disk changed")
	}
}

// A change made while Save marshals (found by the check right before the
// rename) is merged too, not overwritten.
func TestSaveMergesChangeDuringSave(t *testing.T) {
	t.Parallel()
	path := copyTestdata(t, "dialog.ipynb", t.TempDir())
	var n int
	o := during(t, func() {
		otherWriter(t, path, func(d *dialog.Dialog) { d.Messages[n-1].Content += "\nedited meanwhile" })
	})
	o.MergeOnChange = &dialog.MergeOptions{}
	d, err := o.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n = len(d.Messages)
	d.Messages[0].Attrs = map[string]any{"mark": 1}
	d.Messages[0].Content += "\nedited here"
	if err := o.Save(d); err != nil {
		t.Fatal(err)
	}
	back, err := o.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(back.Messages[0].Content, "edited here") || back.Messages[0].Attrs["mark"] != 1 || !strings.HasSuffix(back.Messages[n-1].Content, "edited meanwhile") {
		t.Errorf("saved:\n%s", back.Summary(0, 0))
	}
}
