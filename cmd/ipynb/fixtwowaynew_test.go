package main

// Tests that a two-way fix keeps the cells each side added as cells of
// their own, never one cell of two sides' texts and metadata.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 21 (seed 69002362 of the fix path): base has no cells, ours and
// theirs each added cells that share no line, with metadata (and an
// attachment) of their own, and both re-saved the file in another
// indent, so that git's conflict spans it and its base section, if any,
// is not JSON. Fix merges two-way; the cells the sides do not agree on
// are each kept whole, as ipynb merge keeps them from an empty base:
// none is paired with the other side's cell into one cell whose text is
// a conflict and whose metadata mixes both sides' unmarked. Expected:
// every cell of ours' and theirs' files (type, source, metadata,
// attachments, as encoding/json reads them), once each, in a clean
// result (exit 0).
func TestFixTwoWayKeepsEachSidesNewCells(t *testing.T) {
	needGit(t)
	type cellV = map[string]any
	newCells := func(side string, n int, ids bool) []cellV {
		var out []cellV
		for i := range n {
			name := fmt.Sprintf("%s%d", side, i+1)
			c := cellV{"cell_type": "markdown", "source": []any{"«" + name + "»\n", name + " text"}}
			if side == "o" {
				c["metadata"] = cellV{"tags": []any{name}}
				c["attachments"] = cellV{name + ".png": cellV{"image/png": "aGk="}}
			} else {
				c["metadata"] = cellV{"colab": cellV{"base_uri": "https://localhost:8080/", "height": 100 + i}}
			}
			if ids {
				c["id"] = name
			}
			out = append(out, c)
		}
		return out
	}
	file := func(minor int, indent string, cells []cellV) string {
		if cells == nil {
			cells = []cellV{}
		}
		b, err := json.MarshalIndent(cellV{"cells": cells, "metadata": cellV{}, "nbformat": 4, "nbformat_minor": minor}, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	// kept is a cell as the test compares it: without its id (a two-way
	// merge may give fresh ones).
	kept := func(c cellV) string {
		d := map[string]any{}
		for k, v := range c {
			if k != "id" {
				d[k] = v
			}
		}
		if d["attachments"] == nil {
			delete(d, "attachments")
		}
		if s, ok := d["source"].([]any); ok {
			var b strings.Builder
			for _, l := range s {
				b.WriteString(l.(string))
			}
			d["source"] = b.String()
		}
		j, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return string(j)
	}
	for _, minor := range []int{0, 4, 5} {
		for _, n := range [][2]int{{1, 1}, {2, 1}, {1, 3}, {3, 2}} {
			for _, style := range [][]string{nil, {"--diff3"}} {
				name := fmt.Sprintf("4.%d ours %d theirs %d %v", minor, n[0], n[1], style)
				ids := minor == 5
				ours, theirs := newCells("o", n[0], ids), newCells("t", n[1], ids)
				dir := t.TempDir()
				p := gitConflict(t, dir, file(minor, "    ", nil), file(minor, " ", ours), file(minor, "  ", theirs), style...)
				r := ipynb(t, dir, "", "fix", p)
				if r.code != 0 {
					t.Errorf("%s: exit %d, want 0: %s", name, r.code, r.stderr)
					continue
				}
				var want, got []string
				for _, c := range append(ours, theirs...) {
					want = append(want, kept(c))
				}
				cells, _ := decoded(t, filepath.Join(dir, "nb.ipynb"))["cells"].([]any)
				for _, c := range cells {
					got = append(got, kept(c.(map[string]any)))
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s: cells (-want +got):\n%s", name, d)
				}
			}
		}
	}
}
