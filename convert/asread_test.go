package convert_test

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// An unchanged dialog read from a valid notebook (Python nbformat's
// verdict, MANIFEST.tsv) is written back as the bytes read, in one
// allocation (their copy): no Heal, no walk over the typed notebook, no
// second validation. ToNotebook gives it as a copy of the notebook read
// (two allocations: the notebook and its cell list), which writes the
// same bytes. The bytes returned are the caller's to change.
func TestUnchangedDialogWritesTheBytesRead(t *testing.T) {
	n := 0
	for e, data := range corpus.Sample(t) {
		if e.Schema != "valid" {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			continue // version 1 or 2
		}
		var out []byte
		allocs := testing.AllocsPerRun(3, func() {
			if out, err = convert.Marshal(d, convert.WriteOptions{}); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
		})
		if allocs > 1 {
			t.Errorf("%s: Marshal of the unchanged dialog: %.0f allocations, want 1 (the copy of the bytes read)", e.Path, allocs)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("%s: differs from the file %s", e.Path, firstDiff(data, out))
		}
		if len(out) > 0 {
			out[0] ^= 0xff
			again, err := convert.Marshal(d, convert.WriteOptions{})
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("%s: changing the bytes Marshal returned changed the dialog's next Marshal (%v)", e.Path, err)
			}
		}
		var nb *nbformat.Notebook
		allocs = testing.AllocsPerRun(3, func() {
			if nb, err = convert.ToNotebook(d, convert.WriteOptions{}); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
		})
		if allocs > 2 {
			t.Errorf("%s: ToNotebook of the unchanged dialog: %.0f allocations, want at most 2", e.Path, allocs)
		}
		nb.Cells = nb.Cells[:0] // the caller's copy: changing it changes nothing of the dialog's
		if out, err := convert.Marshal(d, convert.WriteOptions{}); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("%s: changing the notebook ToNotebook returned changed the dialog (%v)", e.Path, err)
		}
		if nb, err = convert.ToNotebook(d, convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if got, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s: ToNotebook's notebook writes other bytes (%v) %s", e.Path, err, firstDiff(data, got))
		}
		n++
	}
	t.Logf("%d unchanged dialogs written back", n)
	if n == 0 {
		t.Error("no valid corpus notebook read as a dialog")
	}
}
