package nbformat

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbimpl"
)

// A notebook read without the snapshot (nbimpl.UnmarshalUnwatched, as
// convert reads) has none, and answers as one read by Unmarshal: not
// edited, the same validation verdict, the bytes read when written, and
// after the same edit the same bytes; its input is copied unless owned.
func TestUnwatchedAnswersAsWatched(t *testing.T) {
	n := 0
	for e, data := range corpus.Files(t) {
		watched, err := Unmarshal(data)
		if err != nil {
			continue
		}
		x, err := nbimpl.UnmarshalUnwatched(bytes.Clone(data), true)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		nb := x.(*Notebook)
		if nb.src.snap.ok || !watched.src.snap.ok {
			t.Fatalf("%s: snapshot taken: unwatched %v, watched %v", e.Path, nb.src.snap.ok, watched.src.snap.ok)
		}
		if nb.Edited() != watched.Edited() {
			t.Errorf("%s: Edited %v, watched %v", e.Path, nb.Edited(), watched.Edited())
		}
		if a, b := fmt.Sprint(Validate(nb)), fmt.Sprint(Validate(watched)); a != b {
			t.Errorf("%s: Validate %s, watched %s", e.Path, a, b)
		}
		a, errA := Marshal(nb)
		b, errB := Marshal(watched)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: Marshal differs from the watched notebook's (%v, %v)", e.Path, errA, errB)
		}
		for _, m := range []*Notebook{nb, watched} {
			if len(m.Cells) > 0 {
				if c, ok := m.Cells[0].(*MarkdownCell); ok {
					c.Source.Set(c.Source.String() + "\nedited")
				}
			}
		}
		a, errA = Marshal(nb)
		b, errB = Marshal(watched)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: an edited notebook writes other bytes than the watched one (%v, %v)", e.Path, errA, errB)
		}
		n++
	}
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`)
	x, err := nbimpl.UnmarshalUnwatched(data, false)
	if err != nil {
		t.Fatal(err)
	}
	if read, _ := nbimpl.ReadBytes(x); &read[0] == &data[0] {
		t.Error("the input was kept without a copy when not owned")
	}
	if n == 0 {
		t.Skip("no corpus notebook")
	}
}
