package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Reading a version 3 dialog parses the file once: the upgrade is made on
// a copy in memory of the notebook read, not on a second reading of its
// bytes. On every version 3 corpus notebook, convert.Unmarshal parses as
// many notebooks as nbformat.Unmarshal and Upgrade do (the upgrade parses
// the cells it builds), and the dialog read is the one read before
// (TestCorpusDialogRoundTrip and the oracle tests check its content).
func TestV3DialogReadsTheFileOnce(t *testing.T) {
	n := 0
	for e, data := range corpus.Files(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 3 {
			continue
		}
		before := nbimpl.Unmarshals()
		nb, _ = nbformat.Unmarshal(data)
		if err := nbformat.Upgrade(nb); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		want := nbimpl.Unmarshals() - before
		before = nbimpl.Unmarshals()
		if _, err := convert.Unmarshal(data); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if got := nbimpl.Unmarshals() - before; got != want {
			t.Errorf("%s: convert.Unmarshal parsed %d notebooks, nbformat's read and upgrade %d", e.Path, got, want)
		}
		n++
	}
	if n == 0 {
		t.Skip("no version 3 notebook in the corpus")
	}
	t.Logf("%d version 3 notebooks", n)
}
