package convert_test

// Tests of writes of dialogs read: unchanged ones write the bytes read, edited
// ones what Python nbformat writes for the same edits.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// The round trip of an unchanged dialog read from a valid notebook (Python
// nbformat's verdict, MANIFEST.tsv) writes the bytes read. An invalid one
// is healed; a second Marshal writes the same bytes.
func TestDialogRoundTripWritesTheBytesRead(t *testing.T) {
	t.Parallel()
	valid, invalid := 0, 0
	for e, data := range corpus.Sample(t) {
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			continue // version 1 or 2
		}
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if e.Schema == "valid" {
			valid++
			if !bytes.Equal(out, data) {
				t.Errorf("%s: differs from the file %s", e.Path, firstDiff(data, out))
			}
			continue
		}
		invalid++
		again, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("%s: a second Marshal differs (%v)", e.Path, err)
		}
	}
	t.Logf("%d valid, %d invalid notebooks", valid, invalid)
	if valid == 0 {
		t.Error("no valid corpus notebook")
	}
}

// pyEdits applies, with Python nbformat, edits of the sources of two
// cells (FIRST and LAST, by index, given per file) to corpus files that
// Python writes back unchanged, writing OUT/EDIT/PATH as nbformat.write
// does: "one" edits the first cell, "two" the last, "both" both, "three"
// both and the first once more.
const pyEdits = `
import sys, os, nbformat
src, out = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
for k in range(0, len(args), 3):
    rel, first, last = args[k], int(args[k+1]), int(args[k+2])
    with open(os.path.join(src, rel), encoding='utf-8', newline='') as f:
        text = f.read()
    for edit in ('one', 'two', 'both', 'three'):
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        if edit in ('one', 'both', 'three'):
            nb.cells[first].source += '\nedited one'
        if edit in ('two', 'both', 'three'):
            nb.cells[last].source += '\nedited two'
        if edit == 'three':
            nb.cells[first].source += '\nedited three'
        p = os.path.join(out, edit, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w', encoding='utf-8', newline='') as f:
            f.write(nbformat.writes(nb) + '\n')
`

// editable returns the indices of the first and last messages whose
// content is their cell's source (notes, code, raw), or -1.
func editable(d *dialog.Dialog) (first, last int) {
	first, last = -1, -1
	for i, m := range d.Messages {
		if m.Kind == dialog.Note || m.Kind == dialog.Code || m.Kind == dialog.Raw {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}

// editedFiles are corpus files Python writes back unchanged (version 4,
// two editable cells or more), with Python nbformat's writes of the edits
// of pyEdits (dir/EDIT/PATH).
type editedFiles struct {
	corpus, dir string
	paths       []string
	cells       map[string][2]int
}

func (f *editedFiles) want(t *testing.T, edit, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, edit, path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func pythonEdits(t *testing.T, limit int) *editedFiles {
	py := nbtest.NbformatPython()
	if py == "" {
		t.Skip("Python nbformat not found")
	}
	dir, entries := corpus.Entries(t)
	f := &editedFiles{corpus: dir, dir: t.TempDir(), cells: map[string][2]int{}}
	var args []string
	for _, e := range entries {
		if e.Ref != "same" || e.Schema != "valid" || len(f.paths) == limit {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 64<<10 {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil || !bytes.Contains(data, []byte(`"nbformat": 4`)) {
			continue
		}
		first, last := editable(d.Dialog)
		if first < 0 || first == last {
			continue
		}
		f.paths = append(f.paths, e.Path)
		f.cells[e.Path] = [2]int{first, last}
		args = append(args, e.Path, strconv.Itoa(first), strconv.Itoa(last))
	}
	if len(f.paths) == 0 {
		t.Skip("no corpus file to edit")
	}
	cmd := exec.Command(py, append([]string{"-c", pyEdits, dir, f.dir}, args...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("Python: %v\n%s", err, msg)
	}
	return f
}

// editMsg appends text to the content of message i.
func editMsg(d *dialog.Dialog, i int, text string) { d.Messages[i].Content += text }

// A caller's change to the notebook ToNotebook returns (which shares the
// cells read) is never taken for the notebook as read: neither by that
// notebook's Marshal, nor after a later ToNotebook or Marshal of the
// dialog (which take the snapshot if it was not taken: it must have been
// taken before the notebook was handed out). Both notebooks write what
// Python nbformat writes for the same edit of the file.
func TestToNotebookChangeNotTakenAsRead(t *testing.T) {
	t.Parallel()
	limit := 40
	if !testtier.Full() {
		limit = 8
	}
	f := pythonEdits(t, limit)
	for _, p := range f.paths {
		data, err := os.ReadFile(filepath.Join(f.corpus, p))
		if err != nil {
			t.Fatal(err)
		}
		want := f.want(t, "one", p)
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		first := f.cells[p][0]
		nb, err := convert.ToNotebook(d, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The caller's change, in place, in a cell shared with the
		// notebook read.
		c := nb.Cells[first]
		src := nbformat.SourceOf(c)
		src.Set(src.String() + "\nedited one")
		switch c := c.(type) {
		case *nbformat.CodeCell:
			c.Source = src
		case *nbformat.MarkdownCell:
			c.Source = src
		case *nbformat.RawCell:
			c.Source = src
		}
		if out, err := convert.Marshal(d, convert.WriteOptions{}); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("%s: the dialog, unchanged, writes other bytes (%v) %s", p, err, firstDiff(data, out))
		}
		// A write of the dialog edited (which needs the snapshot), the
		// edit then undone.
		last := f.cells[p][1]
		editMsg(d.Dialog, last, "\nedited two")
		if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		d.Messages[last].Content = d.Messages[last].Content[:len(d.Messages[last].Content)-len("\nedited two")]
		again, err := convert.ToNotebook(d, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range []*nbformat.Notebook{nb, again} {
			if !n.Edited() {
				t.Errorf("%s: notebook %d: the caller's change is taken for the notebook as read", p, i)
			}
			got, err := nbformat.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: notebook %d differs from Python's write of the same edit %s", p, i, firstDiff(want, got))
			}
		}
	}
	t.Logf("%d files", len(f.paths))
}

// Writes of an edited dialog keep edit locality (they are what Python
// nbformat writes for the same edits of a file it writes back unchanged)
// whatever came before: a ToNotebook of the unedited dialog, a Save that
// failed, a Save that merged with the file changed on disk, or another
// goroutine writing the same dialog at once.
func TestEditsAfterOtherWrites(t *testing.T) {
	t.Parallel()
	limit := 40
	if !testtier.Full() {
		limit = 8
	}
	f := pythonEdits(t, limit)
	check := func(p, edit, what string, got []byte, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %s: %v", p, what, err)
		}
		if want := f.want(t, edit, p); !bytes.Equal(got, want) {
			t.Errorf("%s: %s: differs from Python's write of the edits %s", p, what, firstDiff(want, got))
		}
	}
	for _, p := range f.paths {
		data, err := os.ReadFile(filepath.Join(f.corpus, p))
		if err != nil {
			t.Fatal(err)
		}
		first, last := f.cells[p][0], f.cells[p][1]

		// After ToNotebook of the dialog unedited.
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := convert.ToNotebook(d, convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		editMsg(d.Dialog, first, "\nedited one")
		out, err := convert.Marshal(d, convert.WriteOptions{})
		check(p, "one", "edited after ToNotebook", out, err)
		nb, err := convert.ToNotebook(d, convert.WriteOptions{})
		if err == nil {
			out, err = nbformat.Marshal(nb)
		}
		check(p, "one", "ToNotebook edited after ToNotebook", out, err)

		// After a Save that failed (the file changed on disk), then one
		// forced, then one merging with the file changed again.
		file := filepath.Join(t.TempDir(), "nb.ipynb")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err = convert.ReadFile(file, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		editMsg(d.Dialog, first, "\nedited one")
		if err := os.WriteFile(file, append(bytes.Clone(data), ' '), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := d.Save(convert.SaveOptions{}); !errors.Is(err, convert.ErrChanged) {
			t.Fatalf("%s: Save over a changed file: %v, want ErrChanged", p, err)
		}
		out, err = convert.Marshal(d, convert.WriteOptions{})
		check(p, "one", "edited, after a failed Save", out, err)
		if err := d.Save(convert.SaveOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
		out, err = os.ReadFile(file)
		check(p, "one", "saved by force after a failed Save", out, err)
		// Ours edits the first cell, theirs the last (as Python writes
		// it): merged by Save; then ours edits the first cell again.
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err = convert.ReadFile(file, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, f.want(t, "two", p), 0o644); err != nil {
			t.Fatal(err)
		}
		editMsg(d.Dialog, first, "\nedited one")
		if err := d.Save(convert.SaveOptions{MergeOnChange: &dialog.MergeOptions{}}); err != nil {
			t.Fatalf("%s: merging Save: %v", p, err)
		}
		out, err = os.ReadFile(file)
		check(p, "both", "merged by Save", out, err)
		out, err = convert.Marshal(d, convert.WriteOptions{})
		check(p, "both", "the merged dialog", out, err)
		editMsg(d.Dialog, first, "\nedited three")
		out, err = convert.Marshal(d, convert.WriteOptions{})
		check(p, "three", "edited after a merge", out, err)

		// Concurrent writes of one edited dialog.
		d, err = convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		editMsg(d.Dialog, first, "\nedited one")
		editMsg(d.Dialog, last, "\nedited two")
		var wg sync.WaitGroup
		outs := make([][]byte, 8)
		errs := make([]error, 8)
		for i := range outs {
			wg.Go(func() {
				if i%2 == 0 {
					outs[i], errs[i] = convert.Marshal(d, convert.WriteOptions{})
					return
				}
				nb, err := convert.ToNotebook(d, convert.WriteOptions{})
				if err == nil {
					outs[i], err = nbformat.Marshal(nb)
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i := range outs {
			check(p, "both", "written concurrently", outs[i], errs[i])
		}
	}
	t.Logf("%d files", len(f.paths))
}
