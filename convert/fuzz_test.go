package convert_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzDialog checks that reading any notebook as a dialog and writing it
// back never panics; that an unedited valid notebook comes back byte for
// byte; that what is written is a valid notebook; and that an edit to one
// message reads back.
func FuzzDialog(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "id": "a", "metadata": {"solveit_ai": 1}, "source": "q` + convert.ReplySeparator + `r` + convert.ReplySeparator + `s"}]}`))
	f.Fuzz(dialogOne)
}

func dialogOne(t *testing.T, data []byte) {
	{
		nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		d, err := convert.Unmarshal(data)
		if err != nil {
			return // versions 1 and 2 without worksheets, say
		}
		out, err := convert.Marshal(d)
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
			out2, err := convert.Marshal(d)
			if err != nil {
				t.Fatalf("Marshal after an edit: %v", err)
			}
			d2, err := convert.Unmarshal(out2)
			if err != nil {
				t.Fatalf("edited notebook does not read: %v", err)
			}
			if d2.Messages[0].Content != "edited" {
				t.Fatalf("edit lost: %q", d2.Messages[0].Content)
			}
		}
	}
}
