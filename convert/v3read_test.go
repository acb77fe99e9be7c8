package convert_test

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Reading a version 3 dialog parses the file once and the version 4 JSON
// of its upgraded cells once, and writing a valid one back unedited parses
// nothing: on every version 2 and 3 corpus notebook, convert.Unmarshal
// parses two notebooks (nbformat's reading, the upgrade's cells), and
// Marshal of a valid one parses none and gives the bytes read.
func TestV3DialogReadsTheFileOnce(t *testing.T) {
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat >= 4 {
			continue
		}
		before := nbimpl.Unmarshals()
		d, err := convert.Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if got := nbimpl.Unmarshals() - before; got != 2 {
			t.Errorf("%s: convert.Unmarshal parsed %d notebooks, want 2", e.Path, got)
		}
		if nbformat.Validate(nb) == nil {
			before = nbimpl.Unmarshals()
			out, err := convert.Marshal(d)
			if err != nil || !bytes.Equal(out, data) {
				t.Errorf("%s: Marshal of the unedited dialog: %v, or not the bytes read", e.Path, err)
			}
			if got := nbimpl.Unmarshals() - before; got != 0 {
				t.Errorf("%s: Marshal of the unedited valid dialog parsed %d notebooks, want 0", e.Path, got)
			}
		}
		n++
	}
	if n == 0 {
		t.Skip("no version 2 or 3 notebook in the corpus")
	}
	t.Logf("%d version 2 and 3 notebooks", n)
}
