package nbformat_test

// Tests of Heal on the testdata and invalid corpus notebooks (cells and outputs
// kept) and of its derived default ids.

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

func TestHealValidIsNoOp(t *testing.T) {
	t.Parallel()
	for _, path := range testdataFiles(t) {
		data, nb := readNotebook(t, path)
		if nb.Nbformat != 4 || nbformat.Validate(nb) != nil {
			continue
		}
		repairs, err := nbformat.Heal(nb)
		if err != nil || len(repairs) > 0 {
			t.Errorf("%s: Heal of a valid notebook: %v %v", path, repairs, err)
		}
		out, _ := nbformat.Marshal(nb)
		if !bytes.Equal(out, data) {
			t.Errorf("%s: Heal changed a valid notebook %s", path, firstDiff(data, out))
		}
	}
}

func TestHealInvalid(t *testing.T) {
	t.Parallel()
	data, nb := readNotebook(t, filepath.Join("..", "testdata", "invalid.ipynb"))
	n := 0
	ids := []nbformat.CellID{"fresh001", "fresh002"}
	repairs, err := healWith(nb, func() nbformat.CellID { n++; return ids[n-1] })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range repairs {
		got = append(got, string(r.Pointer))
	}
	want := "/cells/0/outputs /cells/2/id /cells/4/execution_count /cells/6/id"
	if strings.Join(got, " ") != want {
		t.Errorf("repairs at %v, want %s: %v", got, want, repairs)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Errorf("still invalid: %v", err)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	// Cells Heal did not touch are byte for byte as they were.
	for _, i := range []int{1, 3, 5, 7} {
		s, e := cellSpan(t, data, i)
		s2, e2 := cellSpan(t, out, i)
		if !bytes.Equal(data[s:e], out[s2:e2]) {
			t.Errorf("cell %d changed", i)
		}
	}
	for _, w := range []string{`"id": "fresh001"`, `"id": "fresh002"`, `"execution_count": null`} {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("healed notebook lacks %s", w)
		}
	}
}

// Heal makes every invalid v4 corpus notebook valid, keeping every code
// cell's outputs and every cell's source.
func TestCorpusHeal(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		before := snapshotCells(nb)
		repairs, err := nbformat.Heal(nb)
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if e.Schema == "valid" && len(repairs) > 0 {
			t.Errorf("%s: valid, yet healed: %v", e.Path, repairs)
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		back, err := nbformat.Unmarshal(out)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if err := nbformat.Validate(back); err != nil {
			t.Errorf("%s: healed notebook invalid: %v", e.Path, err)
		}
		if after := snapshotCells(back); !sameWords(after, before) {
			t.Errorf("%s: content changed:\nbefore %.300s\nafter  %.300s", e.Path, before, after)
		}
		n++
	}
	t.Logf("%d notebooks healed", n)
}

// snapshotCells summarizes what healing must keep: each cell's source and
// each code cell's number of outputs.
func snapshotCells(nb *nbformat.Notebook) string {
	var b strings.Builder
	for _, c := range nb.Cells {
		b.WriteString(nbformat.SourceOf(c).String())
		if u, ok := c.(*nbformat.UnknownCell); ok {
			// Healing makes a cell of it: its words must survive.
			g, _ := nbformat.Decode(u.Raw)
			if m, ok := g.(map[string]any); ok {
				switch s := m["source"].(type) {
				case string:
					b.WriteString(s)
				case []any:
					for _, l := range s {
						str, _ := l.(string)
						b.WriteString(str)
					}
				}
			}
		}
		if code, ok := c.(*nbformat.CodeCell); ok {
			b.WriteString("|outputs:")
			b.WriteString(itoa(len(code.Outputs)))
		}
		b.WriteString("\x00")
	}
	return b.String()
}

// sameWords compares two snapshots ignoring whitespace and heading marks
// (a heading cell becomes "# text").
func sameWords(a, b string) bool {
	norm := func(s string) string {
		cells := strings.Split(s, "\x00")
		for i, c := range cells {
			cells[i] = strings.Join(strings.Fields(strings.ReplaceAll(c, "#", "")), " ")
		}
		return strings.Join(cells, "\x00")
	}
	return norm(a) == norm(b)
}

// With default options, the ids Heal and Upgrade give are derived from the
// cell's position, type and source: the same notebook always comes out as
// the same bytes, and the id is the documented hash.
func TestDefaultIDsDerived(t *testing.T) {
	t.Parallel()
	src := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "code", "id": "dup", "metadata": {}, "source": "a = 1", "outputs": [], "execution_count": null},
 {"cell_type": "code", "id": "dup", "metadata": {}, "source": "b = 2", "outputs": [], "execution_count": null},
 {"cell_type": "markdown", "metadata": {}, "source": ["# T", "itle"]}]}`
	var first []byte
	for run := range 5 {
		nb, err := nbformat.Unmarshal([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nbformat.Heal(nb); err != nil {
			t.Fatal(err)
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = out
			none := func(string) bool { return false }
			for i, want := range []string{"dup", cellid.Derive(1, "code", "b = 2", none), cellid.Derive(2, "markdown", "# Title", none)} {
				if got := string(nbformat.CellIDOf(nb.Cells[i])); got != want {
					t.Errorf("cell %d: id %q, want %q", i, got, want)
				}
			}
		} else if !bytes.Equal(out, first) {
			t.Fatalf("run %d healed to other bytes", run)
		}
	}
	up := func() []byte {
		nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 2, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": "x"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := nbformat.Upgrade(nb); err != nil {
			t.Fatal(err)
		}
		out, _ := nbformat.Marshal(nb)
		return out
	}
	if a, b := up(), up(); !bytes.Equal(a, b) || !bytes.Contains(a, []byte(cellid.Derive(0, "raw", "x", func(string) bool { return false }))) {
		t.Errorf("Upgrade ids not derived:\n%s\n%s", a, b)
	}
}
