package nbformat_test

// Writing a cell replaced by another file's cell compares its texts with
// the bytes it is written over without unescaping them whole.

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// replacedNotebook is a notebook of n code cells, each with an image (one
// string ending in an escaped newline, as Jupyter writes it) and a stream
// of lines, drawn by tag.
func replacedNotebook(n int, tag string) []byte {
	var b strings.Builder
	b.WriteString(`{"cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		img := strings.Repeat(fmt.Sprintf("%s%05d", tag, i), 4000)
		fmt.Fprintf(&b, `{"cell_type": "code", "execution_count": 1, "id": "c%d", "metadata": {}, "source": ["x\n"], "outputs": [`+
			`{"output_type": "display_data", "metadata": {}, "data": {"image/png": "%s\n"}}, `+
			`{"output_type": "stream", "name": "stdout", "text": ["%s a\n", "b\n"]}]}`, i, img, tag)
	}
	b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	return []byte(b.String())
}

// A notebook whose cells are each replaced (ReplaceCell) by another
// file's cell holding other outputs is written as the other file's cells
// are (ids and all), allocating less than the notebook's size: each text
// is compared with the one it is written over in a buffer reused (an
// image unescaped as a string, twice, allocated twice its size).
func TestWriteReplacedCellsAllocatesLittle(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	const n = 50
	ours, theirs := replacedNotebook(n, "o"), replacedNotebook(n, "t")
	a, err := nbformat.Unmarshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nbformat.Unmarshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Cells {
		if !nbformat.ReplaceCell(a.Cells[i], b.Cells[i]) {
			t.Fatalf("cell %d not replaced", i)
		}
	}
	var out bytes.Buffer
	if err := (nbformat.MarshalOptions{}).MarshalTo(&out, a); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), theirs) {
		t.Fatalf("written:\n%.300s\nwant theirs' bytes:\n%.300s", out.Bytes(), theirs)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := (nbformat.MarshalOptions{}).MarshalTo(io.Discard, a); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(ours)) {
		t.Errorf("writing the replaced cells allocated %d bytes, more than the notebook's %d", got, len(ours))
	}
}
