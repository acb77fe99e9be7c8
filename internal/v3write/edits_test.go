package v3write

// Random edits of version 3 notebooks' cells for the tests, and what writing
// them must give.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Random edits of a notebook's cells in version 4 form (what a merge
// makes of them), with what the result's upgrade must hold and which
// cells of ours must keep their bytes.

// edited is a notebook to write and what writing it must give.
type edited struct {
	cells  []Cell
	expect []nbformat.Cell // the cells the result's upgrade holds
	kept   []int           // ours' cells given unchanged (their bytes stay)
	meta   map[string]any  // nil: ours' metadata
	what   []string        // the edits, for failure messages
}

// newTexts are texts edits write: conflict markers, non-ASCII, line
// separators, an empty text, a one-line heading and near-headings.
var newTexts = []string{
	"x = 1\n",
	"<<<<<<< ours\nprint('é ☕')\n=======\nprint(\"theirs\")\n>>>>>>> theirs\n",
	"line\u2028sep\nnext",
	"",
	"# A heading",
	"## Sub heading é",
	"#not a heading",
	"#  two spaces",
	"tab\tand \"quotes\" \\ and \x01 control",
	"no final newline",
	"a\rb\r\nc\n",
	"\v first line ends oddly\nsecond",
}

// newOutputs are version 4 outputs edits add.
func newOutputs(r *rand.Rand) []nbformat.Output {
	count := r.IntN(40) + 1
	all := []nbformat.Output{
		nbformat.NewStream("stdout", "out é\nline 2\n"),
		nbformat.NewStream("stderr", "warning"),
		nbformat.NewExecuteResult(count, textBundle("text/plain", "42\n43", "text/html", "<b>42</b>\n")),
		nbformat.NewDisplayData(textBundle("image/png", "iVBORw0KGgo=\n", "text/plain", "<Figure>")),
		nbformat.NewDisplayData(textBundle("text/markdown", "*md*\nline", "text/latex", "$x$")),
		nbformat.NewError("ValueError", "bad é", "Traceback\n", "\x1b[0;31mValueError\x1b[0m"),
	}
	jr := nbformat.NewExecuteResult(count, textBundle("text/plain", "{}"))
	if err := jr.Data.SetJSON("application/json", []byte(`{"b": [1, 2.5, 1e400, "é"], "a": {"z": null, "y": true}}`)); err == nil {
		all = append(all, jr)
	}
	n := r.IntN(3)
	var out []nbformat.Output
	for range n {
		out = append(out, all[r.IntN(len(all))])
	}
	return out
}

// newCell returns a new version 4 cell.
func newCell(r *rand.Rand) nbformat.Cell {
	text := newTexts[r.IntN(len(newTexts))]
	switch r.IntN(4) {
	case 0:
		c := nbformat.NewCodeCell(text)
		c.Outputs = newOutputs(r)
		if r.IntN(2) == 0 {
			n := r.IntN(100)
			c.ExecutionCount = &n
		}
		if r.IntN(2) == 0 {
			b := r.IntN(2) == 0
			c.Metadata.Collapsed = &b
		}
		return c
	case 1:
		return nbformat.NewRawCell(text)
	}
	c := nbformat.NewMarkdownCell(text)
	if r.IntN(3) == 0 {
		c.Metadata.Tags = []string{"new", "é"}
	}
	return c
}

// editCells makes random edits of ours' cells (the upgrade of ours).
func editCells(t testing.TB, r *rand.Rand, ours []nbformat.Cell) edited {
	t.Helper()
	var e edited
	type item struct {
		c     Cell
		up    nbformat.Cell
		edit  bool
		index int
	}
	var items []item
	for i, c := range ours {
		items = append(items, item{c: Cell{Cell: c, From: Ours, Index: i}, up: c, index: i})
	}
	n := 1 + r.IntN(4)
	for range n {
		switch k := r.IntN(7); {
		case k == 0 && len(items) > 0: // delete
			i := r.IntN(len(items))
			e.what = append(e.what, fmt.Sprintf("delete %d", i))
			items = slices.Delete(items, i, i+1)
		case k == 1: // insert
			i := r.IntN(len(items) + 1)
			c := newCell(r)
			e.what = append(e.what, fmt.Sprintf("insert %s at %d", c.Type(), i))
			items = slices.Insert(items, i, item{c: Cell{Cell: c}, up: c, edit: true, index: -1})
		case k == 2 && len(items) > 1: // move
			i, j := r.IntN(len(items)), r.IntN(len(items)-1)
			e.what = append(e.what, fmt.Sprintf("move %d to %d", i, j))
			it := items[i]
			items = slices.Insert(slices.Delete(items, i, i+1), j, it)
		case len(items) > 0: // change a cell
			i := r.IntN(len(items))
			c := cloneCell(t, items[i].c.Cell)
			what := changeCell(r, c)
			e.what = append(e.what, fmt.Sprintf("cell %d: %s", i, what))
			items[i].c.Cell, items[i].up, items[i].edit = c, c, true
		}
	}
	for _, it := range items {
		e.cells = append(e.cells, it.c)
		e.expect = append(e.expect, it.up)
		if !it.edit && it.index >= 0 {
			e.kept = append(e.kept, it.index)
		}
	}
	return e
}

// changeCell changes cell c in place, saying how.
func changeCell(r *rand.Rand, c nbformat.Cell) string {
	text := newTexts[r.IntN(len(newTexts))]
	switch x := c.(type) {
	case *nbformat.CodeCell:
		switch r.IntN(5) {
		case 0:
			x.Source = nbformat.Text(x.Source.String() + text)
			return "source"
		case 1:
			if len(x.Outputs) > 0 {
				x.Outputs = x.Outputs[:len(x.Outputs)-1]
				return "drop an output"
			}
			x.Outputs = newOutputs(r)
			return "outputs"
		case 2:
			x.Outputs = append(slices.Clone(x.Outputs), newOutputs(r)...)
			return "add outputs"
		case 3:
			if x.ExecutionCount == nil {
				n := 7
				x.ExecutionCount = &n
			} else {
				x.ExecutionCount = nil
			}
			return "count"
		}
		x.Metadata.Tags = []string{"tagged"}
		if x.Metadata.Collapsed != nil {
			x.Metadata.Collapsed = nil
			return "metadata, collapsed removed"
		}
		return "metadata"
	case *nbformat.MarkdownCell:
		if r.IntN(3) == 0 {
			x.Metadata.Tags = []string{"tagged"}
			return "metadata"
		}
		if r.IntN(2) == 0 {
			x.Source = nbformat.Text(text)
		} else {
			x.Source = nbformat.Text(x.Source.String() + text)
		}
		return "source"
	case *nbformat.RawCell:
		x.Source = nbformat.Text(strings.ToUpper(x.Source.String()) + text)
		return "source"
	}
	return "nothing"
}
