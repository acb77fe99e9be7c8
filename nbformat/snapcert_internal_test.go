package nbformat

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// Writing edited and healed notebooks gives the bytes the old code gives
// (writeAsBefore: every cell compared with the tape by the walk, and
// Heal's rounds through Marshal), on every input of the snapshot tests
// (the module's testdata, fuzz seeds, odd files, the corpus): healed in
// place and as a copy sharing the notebook read (as convert heals), read
// with the snapshot and without it until taken (as convert reads), and
// edited in ways that leave the cells read as they are (a cell replaced,
// a cell dropped, the version raised, new metadata) or not (a cell
// changed in place, a cell's metadata changed in place). Repairs and
// errors too. It also checks that the cells were found as read without the
// walk on the inputs that allow it (certified), so that the comparison
// covers the shortcut.
func TestCellsAsReadWriteAsBefore(t *testing.T) {
	type result struct {
		out     []byte
		repairs []Repair
		err     error
	}
	scenarios := []struct {
		name string
		run  func(nb *Notebook) (*Notebook, []Repair, error)
	}{
		{"heal", func(nb *Notebook) (*Notebook, []Repair, error) {
			r, err := Heal(nb)
			return nb, r, err
		}},
		{"heal a copy", func(nb *Notebook) (*Notebook, []Repair, error) {
			cp := *nb
			cp.Cells = slices.Clone(nb.Cells)
			r, err := Heal(&cp)
			return &cp, r, err
		}},
		{"replace the first cell, raise the version, heal", func(nb *Notebook) (*Notebook, []Repair, error) {
			if len(nb.Cells) > 0 {
				nb.Cells[0] = &MarkdownCell{CellType: CellTypeMarkdown, Source: Text("new\ncell")}
			}
			nb.NbformatMinor = max(nb.NbformatMinor, 5)
			r, err := Heal(nb)
			return nb, r, err
		}},
		{"drop the last cell, new metadata", func(nb *Notebook) (*Notebook, []Repair, error) {
			if len(nb.Cells) > 0 {
				nb.Cells = nb.Cells[:len(nb.Cells)-1]
			}
			nb.Metadata.AdditionalProperties = maps.Clone(nb.Metadata.AdditionalProperties)
			if nb.Metadata.AdditionalProperties == nil {
				nb.Metadata.AdditionalProperties = map[string]any{}
			}
			nb.Metadata.AdditionalProperties["added"] = "x"
			return nb, nil, nil
		}},
		{"a cell changed in place", func(nb *Notebook) (*Notebook, []Repair, error) {
			for _, c := range nb.Cells {
				if m, ok := c.(*MarkdownCell); ok {
					m.Source = Text(m.Source.String() + "!")
					break
				}
				if code, ok := c.(*CodeCell); ok {
					n := 7
					code.ExecutionCount = &n
					break
				}
			}
			return nb, nil, nil
		}},
		{"a cell's metadata changed in place", func(nb *Notebook) (*Notebook, []Repair, error) {
			for _, c := range nb.Cells {
				if m, ok := c.(*CodeCell); ok && len(m.Metadata.AdditionalProperties) > 0 {
					k := slices.Sorted(maps.Keys(m.Metadata.AdditionalProperties))[0]
					m.Metadata.AdditionalProperties[k] = "changed"
					break
				}
			}
			if len(nb.Cells) > 1 {
				nb.Cells = nb.Cells[1:] // (and the notebook edited elsewhere)
			}
			return nb, nil, nil
		}},
	}
	run := func(data []byte, lazy bool, sc func(*Notebook) (*Notebook, []Repair, error)) (res result, certified int, ok bool) {
		var nb *Notebook
		var err error
		if lazy {
			nb, err = UnmarshalOptions{}.unmarshalLater(data, true)
			if err == nil {
				nb.src.takeSnapshot()
			}
		} else {
			nb, err = Unmarshal(data)
		}
		if err != nil || nb.Nbformat != 4 {
			return res, 0, false
		}
		w, r, err := sc(nb)
		res.repairs, res.err = r, err
		if err == nil {
			res.out, res.err = Marshal(w)
		}
		if !writeAsBefore && w.src != nil {
			e := w.newEncoder()
			for _, c := range w.Cells {
				if node, ok := w.src.originOf(c); ok && e.cellAsRead(c, int(node)) {
					certified++
				}
			}
		}
		return res, certified, true
	}
	defer func() { writeAsBefore = false }()
	inputs := snapshotInputs(t)
	// Cells and outputs lacking required members, which Heal fills (and
	// keeps as they are otherwise), among cells it leaves alone.
	for i, s := range []string{
		`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"}, {"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1}, {"cell_type": "markdown", "metadata": {}, "source": "b"}]}`,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "a"}, {"cell_type": "code", "id": "b", "metadata": {}, "source": "x", "outputs": [{"output_type": "display_data", "data": {"text/plain": "t"}}], "execution_count": 1}, {"cell_type": "raw", "id": "c", "source": "r"}]}`,
		`{"nbformat": 4, "nbformat_minor": 2, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}}, {"cell_type": "code", "metadata": {}, "source": "y", "outputs": []}, {"cell_type": "markdown", "metadata": {}, "source": "c"}]}`,
	} {
		inputs["missing"+strconv.Itoa(i)] = []byte(s)
	}
	n, certified := 0, 0
	for name, data := range inputs {
		for _, sc := range scenarios {
			for _, lazy := range []bool{false, true} {
				writeAsBefore = true
				want, _, ok := run(data, lazy, sc.run)
				writeAsBefore = false
				if !ok {
					continue
				}
				got, c, _ := run(data, lazy, sc.run)
				where := fmt.Sprintf("%s, %s (read lazily %v)", name, sc.name, lazy)
				if fmt.Sprint(got.err) != fmt.Sprint(want.err) {
					t.Fatalf("%s: error %v, before %v", where, got.err, want.err)
				}
				if !bytes.Equal(got.out, want.out) {
					t.Errorf("%s: writes other bytes than before %s", where, nbtest.FirstDiff(want.out, got.out))
				}
				if fmt.Sprint(got.repairs) != fmt.Sprint(want.repairs) {
					t.Fatalf("%s: repairs %v, before %v", where, got.repairs, want.repairs)
				}
				n++
				certified += c
			}
		}
	}
	t.Logf("%d writes, %d cells found as read by the snapshot", n, certified)
	if certified == 0 {
		t.Error("no cell found as read by the snapshot: the comparison does not cover the shortcut")
	}
}

// A cell read that holds a struct whose missing members are written (see
// fillMissing) is not taken as read: it is written with them. (Heal fills
// the cells it has replaced; this fills a cell read, directly.)
func TestFilledCellNotAsRead(t *testing.T) {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"}, ` +
		`{"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1}, {"cell_type": "markdown", "metadata": {}, "source": "b"}]}`)
	want := []byte(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"}, ` +
		`{"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1, "outputs": []}]}`)
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	t1, err := nb.tape()
	if err != nil {
		t.Fatal(err)
	}
	cp := *nb
	cp.Cells = slices.Clone(nb.Cells[:2])
	cp.fillMissing(nb.problems(t1))
	if !cp.filledIn[valueAddr(cp.Cells[1])] {
		t.Fatal("the cell filled is not noted")
	}
	e := cp.newEncoder()
	if node, ok := cp.src.originOf(cp.Cells[0]); !ok || !e.cellAsRead(cp.Cells[0], int(node)) {
		t.Error("the cell left alone is not found as read")
	}
	if node, ok := cp.src.originOf(cp.Cells[1]); !ok || e.cellAsRead(cp.Cells[1], int(node)) {
		t.Error("the cell filled is found as read")
	}
	out, err := Marshal(&cp)
	if err != nil || !bytes.Equal(out, want) {
		t.Errorf("Marshal: %s, %v; want %s", out, err, want)
	}
}
