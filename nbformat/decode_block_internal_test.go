package nbformat

import (
	"reflect"
	"testing"
)

// The tape a notebook is read from is made in the notebook's block (see
// notebookBlock and jsontree.Block.Tape), not allocated on its own: for
// every way of reading (a copy of the caller's bytes, or bytes kept), and
// for the temporary notebooks of the version 3 upgrade.
func TestTapeInNotebookBlock(t *testing.T) {
	t.Parallel()
	data := []byte(`{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["hi"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	for _, c := range []struct {
		name string
		copy bool
	}{{"Unmarshal", true}, {"unmarshal", false}} {
		nb, err := UnmarshalOptions{}.read(append([]byte(nil), data...), c.copy)
		if err != nil {
			t.Fatal(err)
		}
		// (The notebook is the block's first field: the tape and the
		// source lie at their fields' offsets from it.)
		at := func(p any) uintptr { return reflect.ValueOf(p).Pointer() - reflect.ValueOf(nb).Pointer() }
		tape, _ := reflect.TypeFor[notebookBlock]().FieldByName("tape")
		src, _ := reflect.TypeFor[notebookBlock]().FieldByName("src")
		if at(nb.src.tape) != tape.Offset || at(nb.src) != src.Offset {
			t.Errorf("%s: the tape is not in the notebook's block", c.name)
		}
	}
}
