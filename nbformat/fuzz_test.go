package nbformat_test

// Fuzz tests of Unmarshal, Validate and Heal (no panic, round trip, pointers
// resolve) and of line splitting against Python's splitlines.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

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
		if probs := nbformat.Problems(err); len(probs) > 0 && json.Valid(data) {
			var doc any
			json.Unmarshal(data, &doc)
			for _, p := range probs {
				if !resolvesIn(doc, string(p.Pointer)) {
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

// FuzzValidate checks that validation and healing never panic, that every
// problem's pointer resolves, and that a healed notebook validates (or
// Heal says why not).
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 99, "metadata": {}, "cells": [{"cell_type": "x", "metadata": {}}]}`))
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": 1}, "cells": [{"cell_type": "code", "outputs": [{"output_type": "stream"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		probs := nbformat.Problems(nbformat.Validate(nb))
		if json.Valid(data) {
			var doc any
			json.Unmarshal(data, &doc)
			for _, p := range probs {
				if !resolvesIn(doc, string(p.Pointer)) {
					t.Fatalf("pointer %q does not resolve", p.Pointer)
				}
			}
		}
		if nb.Nbformat != 4 {
			return
		}
		if _, err := nbformat.Heal(nb); err == nil {
			if err := nbformat.Validate(nb); err != nil {
				t.Fatalf("Heal said it healed, Validate says %v", err)
			}
			out, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			back, err := nbformat.Unmarshal(out)
			if err != nil {
				t.Fatalf("healed output does not parse: %v", err)
			}
			if err := nbformat.Validate(back); err != nil {
				t.Fatalf("healed output invalid: %v\n%s", err, out)
			}
		}
	})
}

// FuzzSplitLines compares Text(s).Lines() (Python's splitlines) with a direct transcription of
// Python's str.splitlines(keepends=True) over runes, seeded with every
// line boundary.
func FuzzSplitLines(f *testing.F) {
	for _, b := range []string{"\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\u0085", "\u2028", "\u2029"} {
		f.Add("a" + b + "b" + b + b)
	}
	f.Add("\r\r\n\n\xc2")
	f.Fuzz(func(t *testing.T, s string) {
		got := nbformat.Text(s).Lines()
		want := pySplitLines(s)
		if len(got) != len(want) {
			t.Fatalf("Text(%q).Lines() = %q, want %q", s, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("Text(%q).Lines() = %q, want %q", s, got, want)
			}
		}
	})
}

// pySplitLines follows CPython's unicode splitlines: a line ends at any of
// the boundary code points, "\r\n" counting as one.
func pySplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end := i + size
		boundary := false
		switch r {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			boundary = size > 1 || r < 0x80
		case '\r':
			boundary = true
			if end < len(s) && s[end] == '\n' {
				end++
			}
		}
		if r == utf8.RuneError && size == 1 {
			boundary = false
		}
		if boundary {
			out = append(out, s[start:end])
			start = end
		}
		i = end
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
