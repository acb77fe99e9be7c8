package convert_test

// Merges of nbformat 3 notebooks: the result is nbformat 3, in ours'
// style, valid; where git's line merge is clean, it is git's result.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// v3Texts returns, for each cell of a version 3 file, the node of the
// first line of its text (input or source), or -1.
func v3Texts(t *testing.T, data []byte) (*jsontree.Tape, []int) {
	t.Helper()
	tp, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	ws := tp.Lookup(jsontree.Root, "worksheets")
	if ws < 0 {
		return tp, nil
	}
	for _, w := range tp.ChildList(ws) {
		cs := tp.Lookup(w, "cells")
		if cs < 0 {
			continue
		}
		for _, c := range tp.ChildList(cs) {
			line := -1
			for _, k := range []string{"input", "source"} {
				if s := tp.Lookup(c, k); s >= 0 && tp.Nodes[s].Kind == jsontree.Array && tp.Nodes[s].Len > 0 {
					line = tp.FirstChild(s)
				}
			}
			out = append(out, line)
		}
	}
	return tp, out
}

// editLine returns data with the string node j's text changed (" # tag"
// added before its line end).
func editLine(tp *jsontree.Tape, j int, tag string) []byte {
	n := tp.Nodes[j]
	tok := string(tp.Data[n.Start:n.End])
	inner := tok[1 : len(tok)-1]
	if strings.HasSuffix(inner, `\n`) {
		inner = strings.TrimSuffix(inner, `\n`) + " # " + tag + `\n`
	} else {
		inner += " # " + tag
	}
	return append(append(append([]byte{}, tp.Data[:n.Start]...), `"`+inner+`"`...), tp.Data[n.End:]...)
}

// TestMergeV3Corpus: for each corpus nbformat 3 notebook, ours and theirs
// each change one line of a different cell, several pairs per notebook:
// git's line merge is clean, and the merge is too, its result git's byte
// for byte (nbformat 3, valid). Both changing the same line conflicts: a
// valid nbformat 3 notebook, both lines between markers in the cell,
// every other cell ours' bytes.
func TestMergeV3Corpus(t *testing.T) {
	t.Parallel()
	dir, entries := corpus.Entries(t)
	merged, conflicted := 0, 0
	for _, e := range entries {
		base, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(base)
		if err != nil || nb.Nbformat != 3 || e.Schema != "valid" {
			continue
		}
		tp, lines := v3Texts(t, base)
		var cells []int
		for i, l := range lines {
			if l >= 0 {
				cells = append(cells, i)
			}
		}
		pairs := 12 // 4 merges a notebook; 2 outside the long tier
		if !testtier.Full() {
			pairs = 6
		}
		for k := 0; k+3 < len(cells) && k < pairs; k += 3 {
			i, j := cells[k], cells[k+3]
			ours, theirs := editLine(tp, lines[i], "ours"), editLine(tp, lines[j], "theirs")
			want, clean := gitMergeFile(t, t.TempDir(), base, ours, theirs)
			res, err := merge(base, ours, theirs, dialog.MergeOptions{})
			name := fmt.Sprintf("%s cells %d, %d", e.Path, i, j)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			checkV3(t, name, res.Data)
			if clean && (len(res.Conflicts) > 0 || !bytes.Equal(res.Data, want)) {
				t.Errorf("%s: git's line merge is clean, the merge is not it (clean %v):\n%s", name, len(res.Conflicts) == 0, res.Data)
			}
			merged++
		}
		if len(cells) > 0 {
			i := cells[len(cells)/2]
			ours, theirs := editLine(tp, lines[i], "ours"), editLine(tp, lines[i], "theirs")
			res, err := merge(base, ours, theirs, dialog.MergeOptions{})
			name := fmt.Sprintf("%s cell %d both", e.Path, i)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			checkV3(t, name, res.Data)
			if len(res.Conflicts) == 0 || !bytes.Contains(res.Data, []byte("<<<<<<< ours")) || !bytes.Contains(res.Data, []byte("# theirs")) {
				t.Errorf("%s: no conflict marked:\n%s", name, res.Data)
			}
			oc, rc := v3CellBytes(t, ours), v3CellBytes(t, res.Data)
			for c := range oc {
				if c != i && !bytes.Equal(oc[c], rc[c]) {
					t.Errorf("%s: cell %d changed", name, c)
				}
			}
			conflicted++
		}
	}
	t.Logf("%d clean and %d conflicting merges of corpus nbformat 3 notebooks", merged, conflicted)
}

// checkV3 fails t unless data is a valid nbformat 3 notebook.
func checkV3(t *testing.T, name string, data []byte) {
	t.Helper()
	nb, err := nbformat.Unmarshal(data)
	if err != nil || nb.Nbformat != 3 {
		t.Errorf("%s: not an nbformat 3 notebook (%v)", name, err)
		return
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Errorf("%s: invalid: %v", name, err)
	}
}

// v3CellBytes returns the bytes of a version 3 file's cells.
func v3CellBytes(t *testing.T, data []byte) [][]byte {
	t.Helper()
	tp, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, w := range tp.ChildList(tp.Lookup(jsontree.Root, "worksheets")) {
		for _, c := range tp.ChildList(tp.Lookup(w, "cells")) {
			out = append(out, tp.Raw(c))
		}
	}
	return out
}
