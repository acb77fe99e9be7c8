package nbformat_test

// MarshalTo of an edited notebook writes in bounded pieces, as Marshal.

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/nbformat"
)

// pieceWriter records what it is given and the largest piece.
type pieceWriter struct {
	bytes.Buffer
	writes, largest int
}

func (w *pieceWriter) Write(p []byte) (int, error) {
	w.writes++
	w.largest = max(w.largest, len(p))
	return w.Buffer.Write(p)
}

// TestMarshalToStreamsEdited: an edited notebook of 2.5 MB (cells of a
// few KB each), its first and last cells edited, is written by MarshalTo
// as Marshal writes it, in pieces of at most 64 KiB and one cell, never
// in one Write of the whole; so is a notebook built in memory (written as
// Python writes it).
func TestMarshalToStreamsEdited(t *testing.T) {
	t.Parallel()
	data := nbtest.Heavy{Cells: 200, Seed: 7, ImageLines: true}.Notebook()
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	edited := nb
	edit(nb)
	last := nb.Cells[len(nb.Cells)-1].(*nbformat.CodeCell)
	last.Source.Set(last.Source.String() + "\n# edited too")
	built, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := &nbformat.Notebook{Document: built.Document}
	for name, nb := range map[string]*nbformat.Notebook{"edited": nb, "built in memory": fresh} {
		want, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		if nb == edited && bytes.Equal(want, data) {
			t.Fatalf("%s: Marshal wrote the file as read", name)
		}
		var w pieceWriter
		if err := (nbformat.MarshalOptions{}).MarshalTo(&w, nb); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%s: MarshalTo differs from Marshal", name)
		}
		cells, _ := jsonvalue.MemberRaw(want, "cells")
		spans, ok := jsonvalue.ElementSpans(cells)
		if !ok {
			t.Fatal("no cells written")
		}
		largestCell := 0
		for _, c := range spans {
			largestCell = max(largestCell, c[1]-c[0])
		}
		if w.writes < len(want)/(128<<10) || w.largest > 64<<10+largestCell+4096 {
			t.Errorf("%s: %d bytes in %d writes, the largest %d bytes (cells up to %d): not in pieces of 64 KiB", name, len(want), w.writes, w.largest, largestCell)
		}
	}
}
