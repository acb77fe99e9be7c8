package convert_test

// A fuzz test of reading any notebook as a dialog and writing it back: no
// panic, valid output, byte-for-byte round trips, edits read back.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzDialog checks that reading any notebook as a dialog and writing it
// back never panics; that an unedited valid notebook comes back byte for
// byte; that what is written is a valid notebook; that an edit to one
// message reads back; and that outputs read decode (Output.Map) to values
// that equal them and survive being written from those values.
func FuzzDialog(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "id": "a", "metadata": {"solveit_ai": 1}, "source": "q` + convert.ReplySeparator + `r` + convert.ReplySeparator + `s"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dialogOne(t, data)
		outputsOne(t, data)
	})
}

// outputsOne looks inside every output of a valid version 4 notebook read
// as a dialog, remakes each from its Map, and writes the dialog: the
// outputs read back equal the ones read first.
func outputsOne(t *testing.T, data []byte) {
	nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
	if err != nil || nb.Nbformat != 4 || nbformat.Validate(nb) != nil {
		return
	}
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		return
	}
	var read [][]dialog.Output
	for _, m := range d.Messages {
		read = append(read, m.Outputs)
		remade := make([]dialog.Output, len(m.Outputs))
		for j, o := range m.Outputs {
			g, err := o.Map()
			if err != nil {
				t.Fatalf("message %s output %d: Map: %v", m.ID, j, err)
			}
			if md, _ := g["metadata"].(map[string]any); md["__type"] != nil {
				return // transient metadata is left out of what is written
			}
			remade[j] = dialog.NewOutput(g)
			if !o.Equal(remade[j]) || !remade[j].Equal(o) {
				t.Fatalf("message %s output %d differs from the output made from its Map", m.ID, j)
			}
		}
		m.Outputs = remade
	}
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatalf("Marshal of remade outputs: %v", err)
	}
	back, err := convert.Unmarshal(out, convert.ReadOptions{})
	if err != nil {
		t.Fatalf("written notebook does not read: %v", err)
	}
	for i, m := range back.Messages {
		if i >= len(read) || len(m.Outputs) != len(read[i]) {
			t.Fatalf("message %d: %d outputs written, %d read", i, len(m.Outputs), len(read[i]))
		}
		for j, o := range m.Outputs {
			if !o.Equal(read[i][j]) {
				t.Fatalf("message %d output %d changed through Map and NewOutput:\n%v\n%v", i, j, read[i][j], o)
			}
		}
	}
}

func dialogOne(t *testing.T, data []byte) {
	{
		nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			return // versions 1 and 2 without worksheets, say
		}
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			return // a notebook nothing can heal
		}
		if nb.Nbformat == 4 && nbformat.Validate(nb) == nil && !bytes.Equal(out, data) {
			t.Fatalf("unedited valid notebook changed")
		}
		back, err := nbformat.Unmarshal(out)
		if err != nil {
			t.Fatalf("written notebook does not parse: %v", err)
		}
		if back.Nbformat == 4 {
			if err := nbformat.Validate(back); err != nil {
				t.Fatalf("written notebook invalid: %v\n%s", err, out)
			}
		}
		if len(d.Messages) > 0 {
			d.Messages[0].Content = "edited"
			out2, err := convert.Marshal(d, convert.WriteOptions{})
			if err != nil {
				t.Fatalf("Marshal after an edit: %v", err)
			}
			d2, err := convert.Unmarshal(out2, convert.ReadOptions{})
			if err != nil {
				t.Fatalf("edited notebook does not read: %v", err)
			}
			if d2.Messages[0].Content != "edited" {
				t.Fatalf("edit lost: %q", d2.Messages[0].Content)
			}
		}
	}
}
