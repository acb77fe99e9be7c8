package convert_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// v3Notebook is a version 3 notebook of one worksheet holding cells.
func v3Notebook(cells ...string) []byte {
	return []byte(`{"metadata": {"name": "old"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [` +
		strings.Join(cells, ", ") + `], "metadata": {}}]}`)
}

// A version 3 heading of two lines is one markdown line in its upgrade,
// but its file holds two: ours replacing its second line (and adding a
// cell after it) edited that heading, one line of its two kept, as it
// would have edited a markdown cell of those two lines, and theirs made
// it raw. The merge has the heading once, raw (theirs' kind), ours' line
// in it (its text conflicts: theirs' raw text is not the heading's upgraded
// line), then ours' new cell; no deletion of it by either side, no copy of
// ours' heading beside it (mergecheck's seed 1004625, without the shared
// corpus).
func TestMergeV3HeadingLinesPaired(t *testing.T) {
	t.Parallel()
	base := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "Old notebook"]}`)
	ours := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "a new line"]}`,
		`{"cell_type": "markdown", "metadata": {}, "source": ["added"]}`)
	theirs := v3Notebook(`{"cell_type": "raw", "metadata": {}, "source": ["Intro\n", "Old notebook"]}`)
	res := mergeHeadingEdited(t, base, ours, theirs)
	var nb struct {
		Nbformat   int
		Worksheets []struct {
			Cells []struct {
				CellType string   `json:"cell_type"`
				Source   []string `json:"source"`
			}
		}
	}
	if err := json.Unmarshal(res.Data, &nb); err != nil || nb.Nbformat != 3 || len(nb.Worksheets) != 1 {
		t.Fatalf("merge not one version 3 worksheet (%v):\n%s", err, res.Data)
	}
	cells := nb.Worksheets[0].Cells
	if len(cells) != 2 {
		t.Fatalf("merged %d cells, want 2 (the heading, ours' new cell):\n%s", len(cells), res.Data)
	}
	if h := strings.Join(cells[0].Source, ""); cells[0].CellType != "raw" || !strings.Contains(h, "a new line") || !strings.Contains(h, "Old notebook") {
		t.Errorf("first cell %s %q, want theirs' raw kind holding ours' line and theirs' text", cells[0].CellType, h)
	}
	if c := cells[1]; c.CellType != "markdown" || strings.Join(c.Source, "") != "added" {
		t.Errorf("second cell %s %q, want ours' new markdown cell", c.CellType, strings.Join(c.Source, ""))
	}
}

// A version 3 heading of one line given a second line by both sides
// (ours also moving it after the next cell and adding a cell there) is
// that heading edited on both: one cell, both new lines in it between
// markers, in ours' order; not ours' version beside theirs' in a conflict
// of a deletion. (Its file's lines, "Intro\n", "ours' line", share no
// line with base's upgrade, "## Intro": compared by those lines alone, it
// was new: mergecheck's seed 1001471.)
func TestMergeV3HeadingLineAddedPaired(t *testing.T) {
	t.Parallel()
	long := `{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Body\n", "b1 x = 1\n", "b2 text\n", "b3 - item"]}`
	base := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro"]}`, long)
	ours := v3Notebook(long, `{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "ours' line"]}`,
		`{"cell_type": "code", "collapsed": false, "input": ["x = 1"], "language": "python", "metadata": {}, "outputs": []}`)
	theirs := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "theirs' line"]}`, long)
	res := mergeHeadingEdited(t, base, ours, theirs)
	var nb struct {
		Worksheets []struct {
			Cells []struct {
				Source []string `json:"source"`
				Input  []string `json:"input"`
			}
		}
	}
	if err := json.Unmarshal(res.Data, &nb); err != nil || len(nb.Worksheets) != 1 {
		t.Fatalf("merge not one worksheet (%v):\n%s", err, res.Data)
	}
	cells := nb.Worksheets[0].Cells
	if len(cells) != 3 {
		t.Fatalf("merged %d cells, want 3 (ours' order: the long heading, Intro, ours' code):\n%s", len(cells), res.Data)
	}
	if h := strings.Join(cells[1].Source, ""); !strings.Contains(h, "ours' line") || !strings.Contains(h, "theirs' line") || !strings.Contains(strings.Join(cells[0].Source, ""), "Body") {
		t.Errorf("cells %q, %q: want the long heading, then Intro holding both sides' lines", cells[0].Source, h)
	}
}

// Diff pairs a version 3 heading as the merge does: ours replacing the
// second line of a two-line heading (and adding a cell after it) changed
// that heading, one of its two lines kept; the diff is the heading
// changed and a cell added, not the heading removed and another added.
func TestDiffV3HeadingLinesPaired(t *testing.T) {
	t.Parallel()
	a := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "Old notebook"]}`)
	b := v3Notebook(`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Intro\n", "a new line"]}`,
		`{"cell_type": "markdown", "metadata": {}, "source": ["added"]}`)
	changes, err := convert.Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range changes {
		kinds = append(kinds, c.Kind.String())
	}
	if got := strings.Join(kinds, " "); got != "changed added" {
		t.Errorf("diff %q, want the heading changed and the new cell added", got)
	}
}

// mergeHeadingEdited merges base, ours and theirs, failing t where a
// conflict reads a side's edit of a heading as a deletion (a side
// missing from it).
func mergeHeadingEdited(t *testing.T, base, ours, theirs []byte) *mergeResult {
	t.Helper()
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Conflicts {
		if c.Ours == nil || c.Theirs == nil {
			t.Errorf("conflict %v: a side's edit of the heading read as a deletion", c)
		}
	}
	return res
}
