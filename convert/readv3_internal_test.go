package convert

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// The direct version 3 reader reads nbformat's tape of the notebook,
// which leaves lazy what no schema reads: a container whose members or
// elements it needs, found lazy, is noted (the caller then parses the
// worksheets again), never taken as empty; lazy arrays of lines and lazy
// metadata values are read from their bytes. Each container of the
// worksheets, left lazy alone, is noted; empty ones need nothing.
func TestV3ReaderNotesLazyContainers(t *testing.T) {
	raw := []byte(`[{"cells": [{"cell_type": "code", "input": ["a\n", "b"], "metadata": {"a": [1], "b": 2}, "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["x"]}], "prompt_number": 1}, {"cell_type": "markdown", "metadata": {}, "source": ["x", "y"]}], "metadata": {}}]`)
	scalars := &jsontree.Shape{}
	full := func() (cell, output *jsontree.Shape, ws *jsontree.Shape, root *jsontree.Shape) {
		output = &jsontree.Shape{}
		cell = &jsontree.Shape{Members: map[string]*jsontree.Shape{"metadata": scalars, "outputs": {Elem: output}}}
		ws = &jsontree.Shape{Members: map[string]*jsontree.Shape{"cells": {Elem: cell}}}
		root = &jsontree.Shape{Elem: ws}
		return
	}
	read := func(shape *jsontree.Shape) (*v3Reader, []v3Cell, bool) {
		tp, err := jsontree.ParseShaped(raw, jsontree.Limits{}, shape)
		if err != nil {
			t.Fatal(err)
		}
		r := &v3Reader{t: tp}
		cells, ok := r.worksheets(jsontree.Root)
		return r, cells, ok
	}
	// Lines lazy (as nbformat leaves them), everything else recorded.
	if r, cells, ok := read(func() *jsontree.Shape { _, _, _, root := full(); return root }()); !ok || r.lazy || len(cells) != 2 {
		t.Fatalf("with every container read recorded: ok %v, lazy %v, %d cells", ok, r.lazy, len(cells))
	}
	for name, lazyOne := range map[string]func(cell, output, ws, root *jsontree.Shape){
		"worksheet":     func(_, _, ws, root *jsontree.Shape) { root.Elem = nil },
		"cells":         func(_, _, ws, _ *jsontree.Shape) { ws.Members = nil },
		"cell":          func(_, _, ws, _ *jsontree.Shape) { ws.Members["cells"].Elem = nil },
		"cell metadata": func(cell, _, _, _ *jsontree.Shape) { delete(cell.Members, "metadata") },
		"outputs":       func(cell, _, _, _ *jsontree.Shape) { delete(cell.Members, "outputs") },
		"output":        func(cell, _, _, _ *jsontree.Shape) { cell.Members["outputs"].Elem = nil },
	} {
		cell, output, ws, root := full()
		lazyOne(cell, output, ws, root)
		if r, _, _ := read(root); !r.lazy {
			t.Errorf("%s lazy: not noted", name)
		}
	}
}
