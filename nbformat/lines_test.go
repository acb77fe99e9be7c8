package nbformat_test

// Tests of line splitting (agreeing with CPython's str.splitlines) and of
// MultilineString.

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// Text(s).Lines() agrees with CPython's str.splitlines(True) on every line
// boundary (testdata/splitlines.json, from scripts/reference/python_text.py).
func TestSplitLinesMatchesPython(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/splitlines.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]json.RawMessage
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var in string
		var want []string
		if err := json.Unmarshal(c[0], &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c[1], &want); err != nil {
			t.Fatal(err)
		}
		got := nbformat.Text(in).Lines()
		if len(want) == 0 {
			want = nil
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Text(%q).Lines() (-python +go):\n%s", in, diff)
		}
		if strings.Join(got, "") != in {
			t.Errorf("Text(%q).Lines() does not join back", in)
		}
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
}

func TestMultilineString(t *testing.T) {
	t.Parallel()
	var zero nbformat.MultilineString
	if zero.String() != "" || zero.Lines() != nil || zero.String() != nbformat.Text("").String() {
		t.Errorf("zero value: %q %v", zero.String(), zero.Lines())
	}
	m := nbformat.Text("a\nb")
	if m.String() != "a\nb" {
		t.Errorf("Text: %q", m.String())
	}
	if diff := cmp.Diff([]string{"a\n", "b"}, m.Lines()); diff != "" {
		t.Error(diff)
	}
	// Set keeps the form, and setting the same text changes nothing.
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "raw", "id": "a", "metadata": {}, "source": "one string"},
 {"cell_type": "raw", "id": "b", "metadata": {}, "source": ["two\n", "lines"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	one := nb.Cells[0].(*nbformat.RawCell)
	two := nb.Cells[1].(*nbformat.RawCell)
	two.Source.Set("two\nlines")
	if two.Source.String() != nbformat.Text("two\nlines").String() {
		t.Error("Set of the same text")
	}
	one.Source.Set("new\ntext")
	two.Source.Set("a\nb\nc")
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "raw", "id": "a", "metadata": {}, "source": "new\ntext"},
 {"cell_type": "raw", "id": "b", "metadata": {}, "source": ["a\n", "b\n", "c"]}]}`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
