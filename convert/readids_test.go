package convert_test

// Tests that the ids of a dialog read are those of the rule, computed with
// maps, for notebooks of 0 to 80 cells.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/cellid"
)

// referenceIDs gives the ids of a dialog read from cells of the given
// kinds, contents and file ids (version 4) as the rule says, with maps:
// a cell keeps a valid id of its own that no cell before it gave; any
// other gets cellid.Derive's id, clear of every id in the file and of
// the ids given before it.
func referenceIDs(kinds, contents, ids []string) []string {
	taken := map[string]bool{}
	for _, id := range ids {
		taken[id] = true
	}
	given := map[string]bool{}
	out := make([]string, len(ids))
	for i, id := range ids {
		if !cellid.Valid(id) || given[id] {
			id = cellid.Derive(i, kinds[i], contents[i], func(s string) bool { return taken[s] })
			taken[id] = true
		}
		given[id] = true
		out[i] = id
	}
	return out
}

// The ids of a dialog read are those of the rule (referenceIDs) for
// notebooks of 0 to 80 cells (below and above the 32 up to which ids in
// use are found by scanning, not through maps), mixing cells without ids,
// with valid, invalid and repeated ids, and with the ids that cells
// before or after them would derive (so that deriving must skip them).
func TestReadIDsAsTheRule(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 1))
	for n := range 81 {
		for round := range 6 {
			kinds := make([]string, n)
			contents := make([]string, n)
			ids := make([]string, n)
			for i := range n {
				kinds[i] = []string{"code", "note"}[r.IntN(2)]
				contents[i] = fmt.Sprintf("cell %d of %d, round %d", r.IntN(3), n, round)
			}
			for i := range n {
				switch x := r.IntN(10); {
				case round == 0: // no ids at all
				case x < 3:
				case x < 5:
					ids[i] = fmt.Sprintf("id-%d", r.IntN(n+1)) // repeats
				case x < 6:
					ids[i] = "not valid!"
				case x < 8 && n > 0:
					// The id another cell would derive first.
					j := r.IntN(n)
					ids[i] = cellid.Derive(j, kinds[j], contents[j], func(string) bool { return false })
				default:
					ids[i] = fmt.Sprintf("c%04d", i)
				}
			}
			var cells []string
			for i := range n {
				typ := map[string]string{"code": "code", "note": "markdown"}[kinds[i]]
				extra := ""
				if typ == "code" {
					extra = `, "execution_count": null, "outputs": []`
				}
				src, _ := json.Marshal(contents[i])
				cells = append(cells, fmt.Sprintf(`{"cell_type": %q, "id": %q, "metadata": {}, "source": %s%s}`, typ, ids[i], src, extra))
			}
			data := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + strings.Join(cells, ", ") + `]}`
			d, err := convert.Unmarshal([]byte(data), convert.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := referenceIDs(kinds, contents, ids)
			for i, m := range d.Messages {
				if m.ID != want[i] {
					t.Fatalf("%d cells, round %d: message %d has id %q, want %q (file id %q)", n, round, i, m.ID, want[i], ids[i])
				}
			}
		}
	}
}
