package nbformat_test

// Tests of allocation counts: a round trip, and Unmarshal alone, allocate a
// bounded number of times per cell.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// The round trip (Unmarshal, Validate, Marshal) of an unedited notebook
// allocates a bounded number of times per cell, and a fixed number more:
// measured on notebooks of n and 2n copies of testdata/jupyter's cells
// (each copy with its own ids), by allocation counts, not time.
func TestRoundTripAllocsPerCell(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations over several sizes")
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	per := len(nb.Cells)
	allocs := func(copies int) float64 {
		big := replicateCells(t, data, copies)
		return testing.AllocsPerRun(20, func() {
			nb, err := nbformat.Unmarshal(big)
			if err != nil {
				t.Fatal(err)
			}
			if err := nbformat.Validate(nb); err != nil {
				t.Fatal(err)
			}
			out, err := nbformat.Marshal(nb)
			if err != nil || len(out) != len(big) {
				t.Fatalf("round trip: %d bytes of %d, %v", len(out), len(big), err)
			}
		})
	}
	const (
		// testdata/jupyter's cells (8 cells, 5 outputs) cost 27.8 per cell
		// and about 60 more (61.8 and 160 before the allocations of the
		// unedited check and of decoding were cut).
		maxPerCell = 32.0
		maxFixed   = 100.0
	)
	prev := allocs(4)
	for copies := 8; copies <= 32; copies *= 2 {
		cur := allocs(copies)
		perCell := (cur - prev) / float64(per*copies/2)
		fixed := cur - perCell*float64(per*copies)
		t.Logf("%d cells: %.0f allocations, %.1f per cell, %.0f fixed", per*copies, cur, perCell, fixed)
		if perCell > maxPerCell {
			t.Errorf("%d → %d cells: %.1f allocations per cell, want at most %.0f", per*copies/2, per*copies, perCell, maxPerCell)
		}
		if fixed > maxFixed {
			t.Errorf("%d cells: %.0f allocations besides the cells', want at most %.0f", per*copies, fixed, maxFixed)
		}
		prev = cur
	}
}

// replicateCells returns the notebook data with its cells repeated copies
// times, each copy's ids suffixed with its number (so ids stay unique).
func replicateCells(t *testing.T, data []byte, copies int) []byte {
	t.Helper()
	s := string(data)
	open := strings.Index(s, `"cells": [`) + len(`"cells": [`)
	end := strings.Index(s, "\n ],\n \"metadata\"")
	if open < len(`"cells": [`) || end < 0 {
		t.Fatal("testdata/jupyter.ipynb: cells not found where expected")
	}
	cells := s[open:end]
	var b strings.Builder
	b.WriteString(s[:open])
	for i := 0; i < copies; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strings.ReplaceAll(cells, `"id": "`, fmt.Sprintf(`"id": "c%d-`, i)))
	}
	b.WriteString(s[end:])
	return []byte(b.String())
}

// Unmarshal alone allocates a bounded number of times per cell: the cells
// and outputs of a notebook, and the targets of their optional fields,
// are allocated in blocks (see decode_variant.go), so what grows with the
// cells is what they hold of their own (maps of metadata, mime bundles).
// Measured as TestRoundTripAllocsPerCell is.
func TestUnmarshalAllocsPerCell(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	if testing.Short() {
		t.Skip("measures allocations over several sizes")
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	per := len(nb.Cells)
	allocs := func(copies int) float64 {
		big := replicateCells(t, data, copies)
		return testing.AllocsPerRun(20, func() {
			if _, err := nbformat.Unmarshal(big); err != nil {
				t.Fatal(err)
			}
		})
	}
	const (
		// testdata/jupyter's cells (8 cells, 5 outputs) cost 0.9 per
		// cell, what they hold of their own (mime bundles' maps, output
		// metadata, members of no field), and 45 more (6.5 and 40 with
		// the reflective decoder, which allocated every cell, output and
		// optional scalar apart; 53 fixed with the maps from each cell
		// and output to its node that origin.go replaced). The bound
		// leaves a margin of 5.
		maxPerCell = 1.5
		maxFixed   = 50.0
	)
	prev := allocs(4)
	for copies := 8; copies <= 32; copies *= 2 {
		cur := allocs(copies)
		perCell := (cur - prev) / float64(per*copies/2)
		fixed := cur - perCell*float64(per*copies)
		t.Logf("%d cells: %.0f allocations, %.2f per cell, %.0f fixed", per*copies, cur, perCell, fixed)
		if perCell > maxPerCell {
			t.Errorf("%d → %d cells: %.2f allocations per cell, want at most %.1f", per*copies/2, per*copies, perCell, maxPerCell)
		}
		if fixed > maxFixed {
			t.Errorf("%d cells: %.0f allocations besides the cells', want at most %.0f", per*copies, fixed, maxFixed)
		}
		prev = cur
	}
}
