package nbformat

import (
	"testing"
	"unsafe"
)

// The tape a notebook is read from is made in the notebook's block (see
// notebookBlock and jsontree.Block.Tape), not allocated on its own: for
// every way of reading (a copy of the caller's bytes, or bytes kept), and
// for the temporary notebooks of the version 3 upgrade.
func TestTapeInNotebookBlock(t *testing.T) {
	data := []byte(`{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["hi"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	for _, c := range []struct {
		name string
		copy bool
	}{{"Unmarshal", true}, {"unmarshal", false}} {
		nb, err := UnmarshalOptions{}.read(append([]byte(nil), data...), c.copy)
		if err != nil {
			t.Fatal(err)
		}
		b := (*notebookBlock)(unsafe.Pointer(nb)) // (the notebook is the block's first field)
		if nb.src.tape != &b.tape || &b.src != nb.src {
			t.Errorf("%s: the tape is not in the notebook's block", c.name)
		}
	}
}
