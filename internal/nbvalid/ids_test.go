package nbvalid

// Tests that the table of duplicate ids finds what a map of ids finds, and
// allocates nothing.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/jsontree"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The table duplicateIDs uses for up to maxTableIDs cells with plain
// string ids finds what the map of ids' texts finds: the same duplicates,
// at the same cells, naming the same first cells, whatever the number of
// ids, their repeats and lengths; it declines ids it cannot compare by
// their text (escapes, other values), which the map then serves.
func TestDuplicateIDsTableExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pool := []string{`"a"`, `"b"`, `"ab-1"`, `"x_y"`, `"` + strings.Repeat("z", 64) + `"`, `""`, `"é"`, `"a "`, `"A"`}
	declined, dups := 0, 0
	for round := range 400 {
		n := rng.IntN(maxTableIDs + 20)
		var cells []string
		for range n {
			var id string
			switch r := rng.IntN(100); {
			case r < 2 && round%3 == 0:
				id = `"\u0061"`
			case r < 3 && round%3 == 0:
				id = `7`
			case r < 50:
				id = pool[rng.IntN(len(pool))]
			default:
				id = fmt.Sprintf(`"c%d"`, rng.IntN(3*n+1))
			}
			switch rng.IntN(20) {
			case 0:
				cells = append(cells, `{"cell_type": "raw"}`) // no id
			case 1:
				cells = append(cells, `"not a cell"`)
			case 2:
				cells = append(cells, fmt.Sprintf(`{"id": "shadowed", "id": %s}`, id))
			default:
				cells = append(cells, fmt.Sprintf(`{"id": %s, "cell_type": "code"}`, id))
			}
		}
		doc := `{"cells": [` + strings.Join(cells, ", ") + `]}`
		tp, err := jsontree.Parse([]byte(doc), jsontree.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		c := tp.Lookup(jsontree.Root, "cells")
		want := duplicateIDsMap(tp, c)
		got, ok := duplicateIDsTable(tp, c)
		if !ok {
			declined++
			if n > maxTableIDs || strings.Contains(doc, `"\u0061"`) || strings.Contains(doc, `"id": 7`) {
				continue
			}
			t.Fatalf("declined ids it can compare: %s", doc)
		}
		dups += len(want)
		if len(got) != len(want) {
			t.Fatalf("%d cells: table found %d duplicates, map %d", n, len(got), len(want))
		}
		for k := range got {
			if !cmp.Equal(got[k], want[k]) {
				t.Errorf("duplicate %d: table %+v, map %+v", k, got[k], want[k])
			}
		}
	}
	if declined == 0 || dups < 1000 {
		t.Errorf("declined %d documents, %d duplicates compared", declined, dups)
	}
}

// Checking the ids of a valid notebook of up to maxTableIDs cells
// allocates nothing.
func TestDuplicateIDsAllocatesNothing(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	var cells []string
	for i := range maxTableIDs {
		cells = append(cells, fmt.Sprintf(`{"cell_type": "markdown", "id": "cell-%d", "metadata": {}, "source": ""}`, i))
	}
	tp, err := jsontree.Parse([]byte(`{"cells": [`+strings.Join(cells, ", ")+`]}`), jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if duplicateIDs(tp) != nil {
			t.Fatal("duplicates found")
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
