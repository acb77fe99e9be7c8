package nbformat_test

// Tests that the first Validate of a notebook read from valid bytes allocates
// nothing.

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The first Validate of a notebook read from valid bytes allocates
// nothing: it validates the bytes read (the notebook is unedited), and
// remembers their verdict, no problems, in a list shared by every valid
// notebook rather than in one of its own (one allocation per notebook
// read and validated before). Measured on notebooks read beforehand, each
// validated once, by the count of allocations (the least of three tries:
// anything else running may allocate).
func TestFirstValidateOfValidNotebookAllocatesNothing(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	first, again := uint64(1<<62), uint64(1<<62)
	for range 3 {
		nbs := make([]*nbformat.Notebook, n)
		for i := range nbs {
			if nbs[i], err = nbformat.Unmarshal(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := nbformat.Validate(nbs[0]); err != nil { // (compiles the schema, once)
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, nb := range nbs[1:] {
			if err := nbformat.Validate(nb); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		first = min(first, after.Mallocs-before.Mallocs)
		// Validating again reads the memo: still nothing.
		runtime.ReadMemStats(&before)
		for _, nb := range nbs[1:] {
			if err := nbformat.Validate(nb); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		again = min(again, after.Mallocs-before.Mallocs)
	}
	if first != 0 || again != 0 {
		t.Errorf("validating %d notebooks read from valid bytes: %d allocations, then again %d, want none", n-1, first, again)
	}
}
