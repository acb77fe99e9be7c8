package convert_test

// Tests that a version 3 cell's worksheet is part of its place in a merge.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// v3Sheets is a version 3 notebook (as IPython writes one) whose
// worksheets hold markdown cells of these texts.
func v3Sheets(sheets ...[]string) []byte {
	type cell struct {
		CellType string   `json:"cell_type"`
		Metadata struct{} `json:"metadata"`
		Source   []string `json:"source"`
	}
	type sheet struct {
		Cells    []cell   `json:"cells"`
		Metadata struct{} `json:"metadata"`
	}
	nb := struct {
		Metadata   map[string]string `json:"metadata"`
		Nbformat   int               `json:"nbformat"`
		Minor      int               `json:"nbformat_minor"`
		Worksheets []sheet           `json:"worksheets"`
	}{Metadata: map[string]string{"name": "x"}, Nbformat: 3}
	for _, s := range sheets {
		w := sheet{Cells: []cell{}}
		for _, t := range s {
			w.Cells = append(w.Cells, cell{CellType: "markdown", Source: []string{t}})
		}
		nb.Worksheets = append(nb.Worksheets, w)
	}
	b, _ := json.MarshalIndent(nb, "", " ")
	return append(b, '\n')
}

// sheetTexts reads the texts of a version 3 notebook's cells, by
// worksheet (encoding/json: not the code under test), and its records.
func sheetTexts(t *testing.T, data []byte) ([][]string, []map[string]any) {
	t.Helper()
	var nb struct {
		Nbformat   int `json:"nbformat"`
		Worksheets []struct {
			Cells []struct {
				Source   []string       `json:"source"`
				Metadata map[string]any `json:"metadata"`
			} `json:"cells"`
		} `json:"worksheets"`
	}
	if err := json.Unmarshal(data, &nb); err != nil || nb.Nbformat != 3 {
		t.Fatalf("not a version 3 notebook (%v):\n%s", err, data)
	}
	var out [][]string
	var recs []map[string]any
	for _, w := range nb.Worksheets {
		s := []string{}
		for _, c := range w.Cells {
			s = append(s, strings.Join(c.Source, ""))
			if rs, ok := c.Metadata[convert.ConflictsKey].([]any); ok {
				for _, r := range rs {
					recs = append(recs, r.(map[string]any))
				}
			}
		}
		out = append(out, s)
	}
	return out, recs
}

// Finding 07 of the 2026-12-03 attack, as a class: a cell's worksheet is
// part of its place. A cell one side moved to another worksheet is there
// (it stayed put: the move was in no file), cells a side added at a
// worksheet's start or end are in that worksheet (they went to the one
// before), and a cell both sides moved to different worksheets is a
// conflict recorded in the cell with each side's worksheet. The expected
// worksheets are hand-derived from the sides.
func TestMergeV3Worksheets(t *testing.T) {
	t.Parallel()
	s := func(texts ...string) []string { return texts }
	base := v3Sheets(s("w1a", "w1b"), s("w2a", "w2b"))
	oursEdit := v3Sheets(s("w1a", "w1b"), s("w2a", "w2b edited"))
	for _, tc := range []struct {
		name               string
		base, ours, theirs []byte
		want               [][]string
		conflicts          int
	}{
		{"theirs moves a cell to the next worksheet's start", base, oursEdit,
			v3Sheets(s("w1a"), s("w1b", "w2a", "w2b")),
			[][]string{s("w1a"), s("w1b", "w2a", "w2b edited")}, 0},
		{"theirs moves a cell to the previous worksheet's end", base, oursEdit,
			v3Sheets(s("w1a", "w1b", "w2a"), s("w2b")),
			[][]string{s("w1a", "w1b", "w2a"), s("w2b edited")}, 0},
		{"ours moves one, theirs another", base,
			v3Sheets(s("w1a", "w1b", "w2a"), s("w2b")),
			v3Sheets(s("w1a"), s("w1b", "w2a", "w2b")),
			[][]string{s("w1a", "w2a"), s("w1b", "w2b")}, 0}, // (w2a back to worksheet 1, w1b on to 2)
		{"theirs adds at a worksheet's end and the next one's start", base, oursEdit,
			v3Sheets(s("w1a", "w1b", "T1"), s("T2", "w2a", "w2b")),
			[][]string{s("w1a", "w1b", "T1"), s("T2", "w2a", "w2b edited")}, 0},
		{"ours adds at the next one's start, theirs at the end of the first", base,
			v3Sheets(s("w1a", "w1b"), s("O2", "w2a", "w2b")),
			v3Sheets(s("w1a", "w1b", "T1"), s("w2a", "w2b")),
			[][]string{s("w1a", "w1b", "T1"), s("O2", "w2a", "w2b")}, 0},
		{"theirs moves a cell ours edits", base,
			v3Sheets(s("w1a", "w1b edited"), s("w2a", "w2b")),
			v3Sheets(s("w1a"), s("w2a", "w1b", "w2b")),
			[][]string{s("w1a"), s("w2a", "w1b edited", "w2b")}, 0},
		{"both move a cell to different worksheets",
			v3Sheets(s("a", "b"), s("c"), s("d")),
			v3Sheets(s("a"), s("b", "c"), s("d")),
			v3Sheets(s("a"), s("c"), s("b", "d")),
			// (In all cells' order ours left b before c, theirs put it
			// after: the order is theirs', the worksheet ours'.)
			[][]string{s("a"), s("c", "b"), s("d")}, 1},
	} {
		out, conflicts, err := convert.Merge(tc.base, tc.ours, tc.theirs, dialog.MergeOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got, recs := sheetTexts(t, out)
		if diff := cmp.Diff(tc.want, got); diff != "" || len(conflicts) != tc.conflicts || len(recs) != tc.conflicts {
			t.Errorf("%s: worksheets (-want +got):\n%s%d conflicts %v, records %v", tc.name, diff, len(conflicts), conflicts, recs)
		}
		if nb, err := nbformat.Unmarshal(out); err != nil || nbformat.Validate(nb) != nil {
			t.Errorf("%s: the merge is not a valid notebook:\n%s", tc.name, out)
		}
		if tc.conflicts == 1 && len(recs) == 1 {
			// Each side's place has its worksheet: b is in worksheet 0
			// of base, 1 of ours, 2 of theirs.
			for side, w := range map[string]float64{"base": 0, "ours": 1, "theirs": 2} {
				if p, _ := recs[0][side].(map[string]any); p == nil || p["worksheet"] != w {
					t.Errorf("%s: the record's %s place %v, want worksheet %v", tc.name, side, recs[0][side], w)
				}
			}
		}
	}
	// Notebooks whose numbers of worksheets differ are refused, not
	// merged with a worksheet lost.
	if _, _, err := convert.Merge(base, oursEdit, v3Sheets(s("w1a", "w1b"), s("w2a", "w2b"), s("new")), dialog.MergeOptions{}); err == nil {
		t.Errorf("theirs adds a worksheet: merged")
	}
	// One worksheet: as before (no worksheet to merge).
	one := v3Sheets(s("a", "b"))
	if out, _, err := convert.Merge(one, one, v3Sheets(s("a", "b", "c")), dialog.MergeOptions{}); err != nil {
		t.Errorf("one worksheet: %v", err)
	} else if got, _ := sheetTexts(t, out); cmp.Diff([][]string{s("a", "b", "c")}, got) != "" {
		t.Errorf("one worksheet (-want +got):\n%s", cmp.Diff([][]string{s("a", "b", "c")}, got))
	}
}
