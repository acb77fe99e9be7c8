package nbmap_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// benchNotebook is a cell's and a notebook's metadata and an output as
// notebooks commonly hold them.
const benchNotebook = `{"cells": [{"cell_type": "code", "execution_count": 3, "id": "a1", "metadata": {"collapsed": false, "tags": ["x", "y"], "colab": {"base_uri": "https://localhost:8080/"}, "executionInfo": {"elapsed": 12, "status": "ok"}},
 "outputs": [{"data": {"text/plain": ["<Figure size 640x480 with 1 Axes>"], "image/png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}, "metadata": {"needs_background": "light"}, "output_type": "display_data"}], "source": ["plot()\n"]}],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py", "name": "python", "version": "3.11.4"}, "colab": {"provenance": []}},
 "nbformat": 4, "nbformat_minor": 5}`

func benchValues(b *testing.B) (*nbformat.CodeCell, map[string]any, map[string]any, map[string]any) {
	nb, err := nbformat.Unmarshal([]byte(benchNotebook))
	if err != nil {
		b.Fatal(err)
	}
	c := nb.Cells[0].(*nbformat.CodeCell)
	cm, err := nbmap.ToMap(&c.Metadata)
	if err != nil {
		b.Fatal(err)
	}
	nm, err := nbmap.ToMap(&nb.Metadata)
	if err != nil {
		b.Fatal(err)
	}
	om, err := nbmap.OutputToMap(c.Outputs[0])
	if err != nil {
		b.Fatal(err)
	}
	return c, cm, nm, om
}

// BenchmarkConversions: each conversion of common values (their cost on
// convert's read and write paths).
func BenchmarkConversions(b *testing.B) {
	c, cm, nm, om := benchValues(b)
	run := func(name string, f func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("CellToMap", func() error { _, err := nbmap.ToMap(c); return err })
	run("CellMetadataToMap", func() error { _, err := nbmap.ToMap(&c.Metadata); return err })
	run("CellMetadataFromMap", func() error { return nbmap.FromMap(cm, new(nbformat.CodeCellMetadata)) })
	run("NotebookMetadataFromMap", func() error { return nbmap.FromMap(nm, new(nbformat.NotebookMetadata)) })
	run("OutputToMap", func() error { _, err := nbmap.OutputToMap(c.Outputs[0]); return err })
	run("OutputFromMap", func() error { _, err := nbmap.OutputFromMap(om); return err })
}
