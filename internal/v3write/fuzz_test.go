package v3write

// A fuzz test of Write: any version 3 notebook, edited at random, is written or
// refused with an *Error, never a panic.

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzWrite: any input that reads as a version 3 notebook, its cells
// edited at random (and given again as theirs), is written without a
// panic, or refused with an *Error; what is written is a version 3
// notebook; for a valid input, the cells given unchanged keep their bytes
// and the result's upgrade holds the cells written.
func FuzzWrite(f *testing.F) {
	for i := range 12 {
		f.Add(newGen(rand.New(rand.NewPCG(uint64(i), 5))).notebook(), uint64(i))
	}
	f.Add([]byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": []}`), uint64(1))
	f.Add([]byte(`{"nbformat":3,"nbformat_minor":0,"metadata":{},"worksheets":[{"cells":[{"cell_type":"heading","level":0,"source":"x"},{"cell_type":"code","input":["a","b"],"outputs":[{"output_type":"pyout","json":"[1]"}]}]}]}`), uint64(2))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 1<<16 {
			return
		}
		cells, _, err := tryUpgrade(data)
		if err != nil {
			return
		}
		if _, err := readFile("ours", data); err != nil {
			return
		}
		r := rand.New(rand.NewPCG(seed, 7))
		e := editCells(t, r, cells)
		addTheirs(t, r, &e, cells)
		out, err := Write(data, &Notebook{Cells: e.cells, Theirs: data})
		if err != nil {
			var we *Error
			if !errors.As(err, &we) {
				t.Fatalf("not an *Error: %v", err)
			}
			return
		}
		nb, err := nbformat.Unmarshal(out)
		if err != nil || nb.Nbformat != 3 {
			t.Fatalf("wrote what is not a version 3 notebook (%v):\n%s", err, out)
		}
		if in, _ := nbformat.Unmarshal(data); nbformat.Validate(in) != nil {
			return
		}
		oc, nc := cellBytes(t, data), cellBytes(t, out)
		kept := map[int]bool{}
		for _, i := range e.kept {
			kept[i] = true
		}
		for k, c := range e.cells {
			if c.From == Ours && kept[c.Index] && !bytes.Equal(nc[k], oc[c.Index]) {
				t.Fatalf("cell %d (ours' %d) changed:\n%s\nwant\n%s", k, c.Index, nc[k], oc[c.Index])
			}
		}
		got, _, err := tryUpgrade(out)
		if err != nil {
			t.Fatalf("the result's upgrade: %v\n%s", err, out)
		}
		if d := cmp.Diff(cellsJSON(t, e.expect), cellsJSON(t, got)); d != "" {
			t.Fatalf("%v: the result's upgrade is not the cells written (-want +got):\n%s\n%s", e.what, d, out)
		}
	})
}

// cellsJSON returns the JSON values of cells with their texts joined and
// without ids.
func cellsJSON(t *testing.T, cells []nbformat.Cell) []any {
	t.Helper()
	out := make([]any, len(cells))
	for i, c := range cells {
		forms, err := cellForms(c)
		if err == nil {
			err = forms.normalized()
		}
		if err != nil {
			t.Fatal(err)
		}
		out[i] = forms.n
	}
	return out
}
