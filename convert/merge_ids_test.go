package convert_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// A merge that has to give ids (cells without ids, one deleted by ours and
// edited by theirs, so the kept cell's derived id is taken or empty) gives
// the same ids, and the same bytes, every time it runs: git may run a
// merge driver again, and two runs must agree.
func TestMergeGivesTheSameIDsEveryTime(t *testing.T) {
	t.Parallel()
	nb := func(cells ...map[string]any) []byte {
		b, err := json.MarshalIndent(map[string]any{
			"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 2,
		}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	md := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
	}
	code := func(src string) map[string]any {
		return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "source": src,
			"outputs": []any{}, "execution_count": nil}
	}
	withID := func(c map[string]any) map[string]any { c["id"] = "2b34b2fd"; return c }
	// As found by merging mutated corpus notebooks (a 4.2 file where only
	// one cell has an id): both sides emptied the first cell, ours deleted
	// the second and theirs edited it.
	base := nb(md("# Load the library"), code("<svg id=\"target\"></svg>"), md("# Now use it"), withID(code("y = 2")))
	ours := nb(md(""), md("# Now use it"), withID(code("y = 2")))
	theirs := nb(md(""), code("<svg id=\"target\"></svg> # edited"), md("# Now use it"), withID(code("y = 2")))
	first, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Conflicts) == 0 {
		t.Fatal("merge was clean; the case needs a delete/edit conflict")
	}
	for i := range 20 {
		again, err := merge(base, ours, theirs, dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Data, first.Data) {
			t.Fatalf("run %d wrote other bytes than the first:\n%s\n---\n%s", i+2, first.Data, again.Data)
		}
	}
}
