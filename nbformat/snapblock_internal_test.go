package nbformat

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// blockNotebook returns a notebook of n code cells, each with an id,
// tags, an execution count, a source of lines and three outputs, the
// notebook with a kernelspec and language_info. (The sources are long
// enough for the blocks to hold fewer bytes than the file: see
// snapshot.take.)
func blockNotebook(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},` +
		` "language_info": {"name": "python", "version": "3.12.1", "file_extension": ".py"}}, "cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "id": "c%d", "execution_count": %d, "metadata": {"tags": ["t%d", "x"], "collapsed": false},`+
			` "source": ["x = %d  # `+strings.Repeat("a comment of some length ", 30)+`\n", "print(x)"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ["%d\n"]},`+
			` {"output_type": "execute_result", "execution_count": %d, "data": {"text/plain": ["%d"]}, "metadata": {}},`+
			` {"output_type": "display_data", "data": {"image/png": "iVBO%d", "text/plain": ["<Figure>"]}, "metadata": {}}]}`,
			i, i+1, i, i, i, i+1, i, i)
		if i%4 == 3 {
			fmt.Fprintf(&b, `, {"cell_type": "markdown", "id": "m%d", "metadata": {}, "source": "# %d"}`, i, i)
		}
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// TestUneditedCheckByBlocks checks that the unedited check compares the
// cells, outputs and the values they hold as the decoder's blocks (see
// snapblock.go): the values it walks one by one are as many for a
// notebook of 8 cells as for one of 128 (the kernelspec, language_info,
// the outputs' metadata maps: what lies outside the blocks), where a walk
// from the Document (the snapshot before) walks every cell and output.
// Every cell and output lies in a region.
func TestUneditedCheckByBlocks(t *testing.T) {
	walked := map[int]int{}
	for _, n := range []int{8, 16, 32, 128} {
		data := blockNotebook(n)
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		s := &nb.src.snap
		ok, k := s.match(&nb.Document)
		if !ok || len(s.regions) == 0 {
			t.Fatalf("%d cells: match %v, %d regions", n, ok, len(s.regions))
		}
		walked[n] = k
		w := snapWalker{lay: snapCommonLayouts(), regions: s.regions}
		for i, c := range nb.Cells {
			if !w.dynamicCovered(c) {
				t.Fatalf("%d cells: cell %d is in no region", n, i)
			}
			if cc, isCode := c.(*CodeCell); isCode {
				for j, o := range cc.Outputs {
					if !w.dynamicCovered(o) {
						t.Fatalf("%d cells: output %d of cell %d is in no region", n, j, i)
					}
				}
				if !w.inBlock(unsafe.Pointer(cc.ExecutionCount), 1, snapLayoutOf(reflect.TypeFor[int]())) {
					t.Fatalf("%d cells: the execution count of cell %d is in no region", n, i)
				}
			}
		}
		// The walk from the Document, for comparison: every value.
		var old snapshot
		old.take(&nb.Document, nb.src.tape.Data, nil, nil)
		ok, all := old.match(&nb.Document)
		if !ok || all < 4*n {
			t.Fatalf("%d cells: the walk from the Document walks %d values (match %v)", n, all, ok)
		}
	}
	t.Logf("walked %v", walked)
	if walked[128] != walked[8] || walked[8] > 16 {
		t.Errorf("values walked one by one by the unedited check: %v (want as many for any number of cells, few)", walked)
	}
}

// TestSnapshotRegionsAfterEdits checks the check by blocks on edits of
// the values in the blocks, in place and moved: a change is seen, a move
// that keeps the value is not.
func TestSnapshotRegionsAfterEdits(t *testing.T) {
	data := blockNotebook(6)
	for _, c := range []struct {
		name  string
		edit  func(nb *Notebook)
		keeps bool
	}{
		{"an execution count in place", func(nb *Notebook) { *nb.Cells[2].(*CodeCell).ExecutionCount = 99 }, false},
		{"a tag in place", func(nb *Notebook) { nb.Cells[3].(*CodeCell).Metadata.Tags[1] = "y" }, false},
		{"an output's text", func(nb *Notebook) {
			nb.Cells[0].(*CodeCell).Outputs[0].(*Stream).Text = Text("other\n")
		}, false},
		{"an output's metadata map filled", func(nb *Notebook) {
			nb.Cells[1].(*CodeCell).Outputs[1].(*ExecuteResult).Metadata["k"] = 1
		}, false},
		{"an output's metadata map replaced by an equal one", func(nb *Notebook) {
			nb.Cells[1].(*CodeCell).Outputs[1].(*ExecuteResult).Metadata = map[string]any{}
		}, true},
		{"the cells moved", func(nb *Notebook) { nb.Cells = append([]Cell(nil), nb.Cells...) }, true},
		{"the cells moved, one replaced", func(nb *Notebook) {
			nb.Cells = append([]Cell(nil), nb.Cells...)
			nb.Cells[4] = NewCodeCell("new")
		}, false},
		{"the cells moved, two swapped", func(nb *Notebook) {
			nb.Cells = append([]Cell(nil), nb.Cells...)
			nb.Cells[0], nb.Cells[1] = nb.Cells[1], nb.Cells[0]
		}, false},
		{"outputs of two cells exchanged", func(nb *Notebook) {
			a, b := nb.Cells[0].(*CodeCell), nb.Cells[1].(*CodeCell)
			a.Outputs, b.Outputs = b.Outputs, a.Outputs
		}, false},
		// Moved and shorter (a length read before it is compared: the
		// elements now are fewer than those recorded).
		{"outputs moved, one fewer", func(nb *Notebook) {
			c := nb.Cells[0].(*CodeCell)
			c.Outputs = append([]Output(nil), c.Outputs[1:]...)
		}, false},
		{"tags moved, one fewer", func(nb *Notebook) {
			c := nb.Cells[1].(*CodeCell)
			c.Metadata.Tags = append([]string(nil), c.Metadata.Tags[:1]...)
		}, false},
		{"tags moved and changed", func(nb *Notebook) {
			c := nb.Cells[5].(*CodeCell)
			c.Metadata.Tags = append([]string(nil), c.Metadata.Tags...)
			c.Metadata.Tags[0] = "z"
		}, false},
	} {
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		c.edit(nb)
		snap := nb.src.snap.matches(&nb.Document)
		walk := walkSaysUnedited(nb)
		if snap && !walk {
			t.Errorf("%s: the snapshot says unedited, the walk edited", c.name)
		}
		if snap != c.keeps || walk != c.keeps {
			t.Errorf("%s: snapshot %v, walk %v, want %v", c.name, snap, walk, c.keeps)
		}
	}
}

// TestSnapshotOfManyEmptyCells checks that a notebook of many nearly
// empty cells, whose blocks hold more bytes than its file (a markdown
// cell's slot is 176 bytes, for 51 in the file: 3.5 times), is recorded
// by the walk from the Document (1.3 times the file) and still matches;
// a notebook of the same cells with some text is recorded by blocks.
func TestSnapshotOfManyEmptyCells(t *testing.T) {
	for _, c := range []struct {
		source string
		blocks bool
	}{{"", false}, {strings.Repeat("text ", 40), true}} {
		var b strings.Builder
		b.WriteString(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [`)
		for i := range 3000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"cell_type":"markdown","metadata":{},"source":%q}`, c.source)
		}
		b.WriteString("]}")
		data := []byte(b.String())
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		s := &nb.src.snap
		if !s.ok || !s.matches(&nb.Document) {
			t.Fatalf("source %q: no snapshot that matches", c.source)
		}
		if (s.regions != nil) != c.blocks || s.size > 2*len(data) {
			t.Errorf("source %q: by blocks %v, %d bytes recorded for %d in the file; want by blocks %v, at most twice the file", c.source, s.regions != nil, s.size, len(data), c.blocks)
		}
	}
}
