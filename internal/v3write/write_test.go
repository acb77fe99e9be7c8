package v3write

// Tests of Write on random edits of corpus and generated version 3 notebooks:
// ours' cells keep their bytes, and Python nbformat reads the cells written.

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// checkEdited writes e over ours and checks the result: ours' cells given
// unchanged are ours' bytes, at their places; nothing outside the cells
// arrays changed (without metadata given); the result's upgrade holds the
// cells written; it is valid where ours is. It returns the result.
func checkEdited(t *testing.T, name string, ours []byte, e edited, theirs []byte) []byte {
	t.Helper()
	out, err := Write(ours, &Notebook{Cells: e.cells, Meta: e.meta, Theirs: theirs})
	if err != nil {
		t.Errorf("%s %v: %v", name, e.what, err)
		return nil
	}
	oc, nc := cellBytes(t, ours), cellBytes(t, out)
	if len(nc) != len(e.cells) {
		t.Errorf("%s %v: %d cells written, want %d", name, e.what, len(nc), len(e.cells))
		return nil
	}
	kept := map[int]bool{}
	for _, i := range e.kept {
		kept[i] = true
	}
	for k, c := range e.cells {
		if c.From == Ours && kept[c.Index] && !bytes.Equal(nc[k], oc[c.Index]) {
			t.Errorf("%s %v: cell %d (ours' %d) changed:\n%s\nwant\n%s", name, e.what, k, c.Index, nc[k], oc[c.Index])
		}
	}
	if e.meta == nil && hasCellsArrays(t, ours) && !bytes.Equal(outside(t, out), outside(t, ours)) {
		t.Errorf("%s %v: changed outside the cells:\n%s", name, e.what, out)
	}
	cells, _, err := tryUpgrade(out)
	if err != nil {
		t.Errorf("%s %v: the result's upgrade: %v\n%s", name, e.what, err, out)
		return nil
	}
	if got, want := canonicalV4(t, cells, nil), canonicalV4(t, e.expect, nil); !bytes.Equal(got, want) {
		t.Errorf("%s %v: the result's upgrade is not the cells written (-want +got):\n%s", name, e.what, jsonDiff(t, want, got))
	}
	if nb, err := nbformat.Unmarshal(ours); err == nil && nbformat.Validate(nb) == nil {
		nb, err := nbformat.Unmarshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := nbformat.Validate(nb); err != nil && !nullCountOutput(e.expect) {
			t.Errorf("%s %v: invalid: %v", name, e.what, err)
		}
	}
	return out
}

// hasCellsArrays reports whether a version 3 file has worksheets, each
// with a cells array (else writing cells into it adds them).
func hasCellsArrays(t *testing.T, data []byte) bool {
	f, err := readFile("ours", data)
	if err != nil {
		t.Fatal(err)
	}
	return len(f.sheets) > 0 && !slices.Contains(f.lists, -1)
}

// nullCountOutput reports whether a code cell holds an execute_result
// without an execution count (which has no valid version 3 form).
func nullCountOutput(cells []nbformat.Cell) bool {
	for _, c := range cells {
		if cc, ok := c.(*nbformat.CodeCell); ok {
			for _, o := range cc.Outputs {
				if er, ok := o.(*nbformat.ExecuteResult); ok && er.ExecutionCount == nil {
					return true
				}
			}
		}
	}
	return false
}

// TestCorpusEdits: random edits (change, insert, delete, move cells;
// sources with conflict markers, outputs of every type, counts, metadata)
// of every corpus version 3 notebook, written and checked by
// checkEdited; then Python nbformat reads every result, and its upgrade
// of it holds the cells written.
func TestCorpusEdits(t *testing.T) {
	t.Parallel()
	seeds := 2
	if !testtier.Full() {
		seeds = 1
	}
	type written struct {
		expect []nbformat.Cell
		meta   map[string]any
		what   []string
	}
	outs := map[string][]byte{}
	wants := map[string]written{}
	files := corpusV3(t)
	readable := map[string]bool{} // by Python
	for name, r := range reference(t, files) {
		readable[name] = r.Upgrade != nil
	}
	for name, data := range files {
		cells, meta, err := tryUpgrade(data)
		if err != nil {
			continue
		}
		for seed := range seeds {
			r := rand.New(rand.NewPCG(uint64(seed), uint64(len(data))))
			e := editCells(t, r, cells)
			if out := checkEdited(t, name, data, e, nil); out != nil {
				if readable[name] {
					key := fmt.Sprintf("%s.%d", strings.ReplaceAll(name, "/", "_"), seed)
					outs[key], wants[key] = out, written{e.expect, meta, e.what}
				}
			}
		}
	}
	for key, r := range reference(t, outs) {
		if r.Upgrade == nil {
			t.Errorf("%s %v: Python cannot read the result: %s", key, wants[key].what, deref(r.Error))
			continue
		}
		if d := jsonDiff(t, canonicalV4(t, wants[key].expect, wants[key].meta), []byte(*r.Upgrade)); d != "" {
			t.Errorf("%s %v: Python's upgrade of the result is not the cells written (-want +got):\n%s", key, wants[key].what, d)
		}
	}
	t.Logf("%d edited notebooks checked", len(outs))
}

// TestNotRepresentable: what nbformat 3 has no place for is refused,
// naming the cell's member, and nothing is written.
func TestNotRepresentable(t *testing.T) {
	t.Parallel()
	ours := []byte(`{"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]}`)
	att := nbformat.NewMarkdownCell("![x](attachment:x.png)")
	att.Attachments = map[string]nbformat.MimeBundle{"x.png": textBundle("image/png", "AAAA")}
	alias := nbformat.NewCodeCell("x")
	alias.Outputs = []nbformat.Output{nbformat.NewDisplayData(textBundle("png", "AAAA"))}
	twice := nbformat.NewCodeCell("x")
	twice.Outputs = []nbformat.Output{nbformat.NewDisplayData(textBundle("text/plain", "a", "text", "b"))}
	member := nbformat.NewCodeCell("x")
	member.Outputs = []nbformat.Output{nbformat.NewExecuteResult(1, textBundle("prompt_number", "2"))}
	meta := nbformat.NewCodeCell("x")
	meta.Outputs = []nbformat.Output{nbformat.NewDisplayData(textBundle("text/plain", "a"))}
	meta.Outputs[0].(*nbformat.DisplayData).Metadata = map[string]any{"png": map[string]any{"width": 2}}
	for _, tc := range []struct {
		cell nbformat.Cell
		ptr  string
	}{
		{att, "/cells/0/attachments"},
		{alias, "/cells/0/outputs/0/data/png"},
		{twice, "/cells/0/outputs/0/data/text"},
		{member, "/cells/0/outputs/0/data/prompt_number"},
		{meta, "/cells/0/outputs/0/metadata/png"},
	} {
		_, err := Write(ours, &Notebook{Cells: []Cell{{Cell: tc.cell}}})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrNotRepresentable) || e.Pointer != tc.ptr {
			t.Errorf("%s: got %v, want an *Error at %s wrapping ErrNotRepresentable", tc.ptr, err, tc.ptr)
		} else if !strings.HasPrefix(err.Error(), "v3write: cells "+tc.ptr+": ") {
			t.Errorf("message %q", err)
		}
	}
}

// addTheirs inserts cells of theirs (the upgrade of theirs) into e: some
// as they are, some changed.
func addTheirs(t *testing.T, r *rand.Rand, e *edited, theirs []nbformat.Cell) {
	t.Helper()
	for range r.IntN(3) {
		if len(theirs) == 0 {
			return
		}
		j := r.IntN(len(theirs))
		c, what := theirs[j], fmt.Sprintf("theirs' %d", j)
		if r.IntN(2) == 0 {
			c = cloneCell(t, c)
			what += ", " + changeCell(r, c)
		}
		i := r.IntN(len(e.cells) + 1)
		e.cells = slices.Insert(e.cells, i, Cell{Cell: c, From: Theirs, Index: j})
		e.expect = slices.Insert(e.expect, i, c)
		e.what = append(e.what, fmt.Sprintf("insert %s at %d", what, i))
	}
}

// checkStyle checks the cells written from their version 4 form alone
// (New) against ours' style: no character beyond ASCII in an ASCII file,
// unrun cells' prompt numbers null or left out as ours', texts as lists or
// strings as ours'.
func checkStyle(t *testing.T, name string, ours, out []byte, e edited) {
	t.Helper()
	f, err := readFile("ours", ours)
	if err != nil {
		t.Fatal(err)
	}
	st := detectStyle(f)
	if st.ascii && bytes.ContainsFunc(out, func(r rune) bool { return r >= 0x80 }) {
		t.Errorf("%s %v: an ASCII file gets characters beyond ASCII", name, e.what)
	}
	nc := cellBytes(t, out)
	for k, c := range e.cells {
		if c.From != New {
			continue
		}
		m := decode(t, nc[k]).(map[string]any)
		text := "source"
		if m["cell_type"] == "code" {
			text = "input"
			if cc := c.Cell.(*nbformat.CodeCell); cc.ExecutionCount == nil {
				if _, has := m["prompt_number"]; has != st.nullCount {
					t.Errorf("%s %v: cell %d: prompt_number present %v, ours writes null ones %v", name, e.what, k, has, st.nullCount)
				}
			}
		}
		if _, isList := m[text].([]any); isList != st.lines {
			if s, _ := m[text].(string); st.lines && s != "" && st.split(s) != any(s) {
				t.Errorf("%s %v: cell %d: %s stored as a list %v, ours as lists %v", name, e.what, k, text, isList, st.lines)
			} else if !st.lines {
				t.Errorf("%s %v: cell %d: %s stored as a list, ours as strings", name, e.what, k, text)
			}
		}
	}
}

// TestGeneratedEdits: notebooks of generated styles and shapes, edited
// at random and given cells of another generated notebook (theirs), are
// written and checked by checkEdited and checkStyle; Python nbformat
// reads every result, its upgrade of it holds the cells written, and it
// is valid.
func TestGeneratedEdits(t *testing.T) {
	t.Parallel()
	n := 150
	switch {
	case testtier.Full():
		n = 3000
	case testing.Short():
		n = 40
	}
	type written struct {
		expect []nbformat.Cell
		meta   map[string]any
		what   []string
		null   bool
	}
	outs := map[string][]byte{}
	wants := map[string]written{}
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), 3))
		ours, theirs := newGen(r).notebook(), newGen(r).notebook()
		oc, meta, err := tryUpgrade(ours)
		if err != nil {
			t.Fatalf("%d: %v\n%s", i, err, ours)
		}
		tc, _, err := tryUpgrade(theirs)
		if err != nil {
			t.Fatalf("%d: theirs: %v\n%s", i, err, theirs)
		}
		e := editCells(t, r, oc)
		addTheirs(t, r, &e, tc)
		name := fmt.Sprintf("gen%03d", i)
		out, err := Write(ours, &Notebook{Cells: e.cells, Theirs: theirs})
		if err != nil {
			t.Errorf("%s %v: %v", name, e.what, err)
			continue
		}
		if got := checkEdited(t, name, ours, e, theirs); got != nil && !bytes.Equal(got, out) {
			t.Errorf("%s: two writes differ", name)
		}
		checkStyle(t, name, ours, out, e)
		outs[name], wants[name] = out, written{e.expect, meta, e.what, nullCountOutput(e.expect)}
	}
	for name, r := range reference(t, outs) {
		w := wants[name]
		if r.Upgrade == nil {
			t.Errorf("%s %v: Python cannot read the result: %s", name, w.what, deref(r.Error))
			continue
		}
		if d := jsonDiff(t, canonicalV4(t, w.expect, w.meta), []byte(*r.Upgrade)); d != "" {
			t.Errorf("%s %v: Python's upgrade of the result is not the cells written (-want +got):\n%s", name, w.what, d)
		}
		if !*r.Valid && !w.null {
			t.Errorf("%s %v: Python finds the result invalid:\n%s", name, w.what, outs[name])
		}
	}
}
