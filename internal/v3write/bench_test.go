package v3write

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// bigV3 is a version 3 notebook of n code cells, each with a stream and
// a 4 kB image output, in Python's v3 style.
func bigV3(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [`)
	png := strings.Repeat("iVBORw0KGgo", 400)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "collapsed": false, "input": ["x = %d\n", "print(x)"], "language": "python", "metadata": {}, "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["%d\n"]}, {"metadata": {}, "output_type": "display_data", "png": "%s"}], "prompt_number": %d}`, i, i, png, i)
	}
	b.WriteString(`], "metadata": {}}]}` + "\n")
	return []byte(b.String())
}

// oneEdit is the cells of data's upgrade with the middle cell's source
// changed.
func oneEdit(tb testing.TB, data []byte) *Notebook {
	cells, _, err := tryUpgrade(data)
	if err != nil {
		tb.Fatal(err)
	}
	c := cells[len(cells)/2].(*nbformat.CodeCell)
	c.Source = nbformat.Text("edited\n")
	return &Notebook{Cells: oursCells(cells)}
}

// TestWriteScales: writing a notebook with one cell changed allocates in
// proportion to its size (bytes allocated at 500 and 1000 cells differ
// by about 2×), and at most a few times the file.
func TestWriteScales(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var per [2]float64
	for i, n := range []int{500, 1000} {
		data := bigV3(n)
		nb := oneEdit(t, data)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		if _, err := Write(data, nb); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		per[i] = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(data))
		t.Logf("%d cells, %d bytes: %.2f bytes allocated per byte", n, len(data), per[i])
	}
	if r := per[1] / per[0]; r > 1.3 || r < 0.7 {
		t.Errorf("allocation per byte grows by %.2f× from 500 to 1000 cells", r)
	}
	if per[1] > 8 {
		t.Errorf("%.1f bytes allocated per byte of the file", per[1])
	}
}

func BenchmarkWriteOneEdit(b *testing.B) {
	data := bigV3(1000)
	nb := oneEdit(b, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(data, nb); err != nil {
			b.Fatal(err)
		}
	}
}
