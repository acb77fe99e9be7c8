package nbformat_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzUnmarshal checks, for any input: no panic; what parses marshals back
// to the same bytes and parses again; validation and canonical output do
// not fail on what parses (pointers resolve); and an edit gives a notebook
// that parses and holds the edit. Seeds: testdata notebooks and
// testdata/fuzz/FuzzUnmarshal.
func FuzzUnmarshal(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`,
		`{"nbformat":4,"cells":[{"cell_type":"code","source":["a","b"],"outputs":[{"output_type":"stream","text":"x"}]}]}`,
		`{"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "heading", "level": 1, "source": "T"}]}]}`,
		"\xef\xbb\xbf{\"nbformat\": 4, \"metadata\": {\"a\": NaN, \"a\": [1e400, -0]}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(fuzzOne)
}

func fuzzOne(t *testing.T, data []byte) {
	{
		nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("round trip differs %s", firstDiff(data, out))
		}
		err = nbformat.Validate(nb)
		if json.Valid(data) {
			for _, p := range nbformat.Problems(err) {
				if !resolves(data, string(p.Pointer)) {
					t.Fatalf("pointer %q does not resolve", p.Pointer)
				}
			}
		}
		if nb.Nbformat == 3 || nb.Nbformat == 4 {
			canon, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			switch {
			case errors.Is(err, nbformat.ErrNotCanonical):
			case err != nil:
				t.Fatalf("canonical: %v", err)
			default:
				if _, err := nbformat.Unmarshal(canon); err != nil {
					t.Fatalf("canonical output does not parse: %v\n%s", err, canon)
				}
			}
		}
		// Edit the first typed cell and an output; the result parses and
		// holds the edit.
		for _, c := range nb.Cells {
			switch c := c.(type) {
			case *nbformat.CodeCell:
				c.Source.Set("edited\n")
				c.Outputs = append(c.Outputs, nbformat.NewStream("stdout", "out\n"))
			case *nbformat.MarkdownCell:
				c.Source.Set("edited\n")
			case *nbformat.RawCell:
				c.Source.Set("edited\n")
			default:
				continue
			}
			edited, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatalf("Marshal after edit: %v", err)
			}
			back, err := nbformat.Unmarshal(edited)
			if err != nil {
				t.Fatalf("edited output does not parse: %v\n%s", err, edited)
			}
			for i, bc := range back.Cells {
				if nbformat.SourceOf(bc).String() == "edited\n" {
					break
				}
				if i == len(back.Cells)-1 {
					t.Fatalf("edit lost:\n%s", edited)
				}
			}
			break
		}
	}
}
