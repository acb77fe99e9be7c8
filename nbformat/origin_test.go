package nbformat_test

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// A cell or output read from an invalid file keeps its missing required
// members missing when written (it is the value read); one the user made,
// or took from another notebook, even one read from the same bytes, is
// not the value read and is written whole, wherever it is put. A copy by
// value carries the provenance of the value copied (as a protobuf message
// copied carries its state): of a value read and its copies, the first in
// the notebook is written over the original, the others whole.
func TestCopiedCellsAreNotOriginals(t *testing.T) {
	t.Parallel()
	const (
		markdown = `{"cell_type": "markdown", "source": "m"}`
		stream   = `{"output_type": "stream", "text": "t"}`
		data     = `{"cells": [` + markdown + `, {"cell_type": "code", "metadata": {}, "source": "", "execution_count": null, "outputs": [` + stream + `]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`
		// The same values, written whole.
		markdownWhole = `{"cell_type": "markdown", "source": "m", "metadata": {}}`
		streamWhole   = `{"output_type": "stream", "text": "t", "name": ""}`
	)
	nb, err := nbformat.Unmarshal([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	other, err := nbformat.Unmarshal([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	md := nb.Cells[0].(*nbformat.MarkdownCell)
	code := nb.Cells[1].(*nbformat.CodeCell)
	st := code.Outputs[0].(*nbformat.Stream)
	mdCopy, stCopy := *md, *st
	// Copies first, so that they stand where the originals were read.
	code.Outputs = []nbformat.Output{&stCopy, other.Cells[1].(*nbformat.CodeCell).Outputs[0], st, &nbformat.Stream{Text: nbformat.Text("t")}}
	nb.Cells = []nbformat.Cell{&mdCopy, code, other.Cells[0], md, &nbformat.MarkdownCell{Source: nbformat.Text("m")}}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cells": [` + markdown + `, {"cell_type": "code", "metadata": {}, "source": "", "execution_count": null, "outputs": [` +
		stream + `, ` + streamWhole + `, ` + streamWhole + `, ` + streamWhole + `]}, ` +
		markdownWhole + `, ` + markdownWhole + `, ` + markdownWhole + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`
	if string(out) != want {
		t.Errorf("written:\n%s\nwant:\n%s", out, want)
	}
	if strings.Count(string(out), `"metadata": {}}`) != 3 {
		t.Errorf("want the three markdown cells that do not stand for the one read written whole")
	}
}
