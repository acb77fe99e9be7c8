package nbformat_test

// Tests that deciding a notebook is unedited allocates nothing.

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// TestUneditedCheckAllocatesNothing checks that deciding a notebook is
// unedited costs no allocation: Edited, Validate once the bytes read are
// validated (the problems found then are remembered), and the check inside
// MarshalTo (which allocates only to hand the pieces to the writer), and
// in Marshal (which allocates only the copy it returns): the comparison of
// the typed values with the tape (see eqStruct) allocates nothing.
func TestUneditedCheckAllocatesNothing(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, name := range []string{"jupyter.ipynb", "colab.ipynb", "vscode.ipynb", "kaggle.ipynb", "numbers.ipynb", "v4.4.ipynb"} {
		_, nb := readNotebook(t, filepath.Join("..", "testdata", name))
		if n := testing.AllocsPerRun(20, func() {
			if nb.Edited() {
				t.Fatalf("%s: edited", name)
			}
		}); n != 0 {
			t.Errorf("%s: Edited allocates %v times", name, n)
		}
		_ = nbformat.Validate(nb)
		if n := testing.AllocsPerRun(20, func() { _ = nbformat.Validate(nb) }); n > 0 {
			if len(nbformat.Problems(nbformat.Validate(nb))) == 0 {
				t.Errorf("%s: Validate of a valid unedited notebook allocates %v times", name, n)
			}
		}
		base := testing.AllocsPerRun(20, func() {
			if err := (nbformat.MarshalOptions{}).MarshalTo(io.Discard, nb); err != nil {
				t.Fatal(err)
			}
		})
		// Marshal: the copy it returns, and nothing else (it allocated
		// three times: the closure handing it the pieces, and their list).
		marshal := func() float64 {
			return testing.AllocsPerRun(20, func() {
				if _, err := nbformat.Marshal(nb); err != nil {
					t.Fatal(err)
				}
			})
		}
		if n := marshal(); n != 1 {
			t.Errorf("%s: Marshal of an unedited notebook allocates %v times, want 1 (its copy)", name, n)
		}
		nb.Cells = append(nb.Cells[:len(nb.Cells):len(nb.Cells)], nbformat.NewCodeCell("x"))
		nb.Cells = nb.Cells[:len(nb.Cells)-1] // the same cells again, in another array: still unedited
		if nb.Edited() {
			t.Errorf("%s: edited after its cells moved to another array", name)
		}
		if n := testing.AllocsPerRun(20, func() { _ = (nbformat.MarshalOptions{}).MarshalTo(io.Discard, nb) }); n != base || n > 2 {
			t.Errorf("%s: MarshalTo allocates %v times (%v before the cells moved)", name, n, base)
		}
		if n := marshal(); n != 1 {
			t.Errorf("%s: Marshal after the cells moved allocates %v times, want 1", name, n)
		}
	}
}
