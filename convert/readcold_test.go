package convert_test

// Tests of what reading a dialog allocates on a cold heap beyond nbformat's
// reading: bounded per message.

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/zerocopy"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// cold returns the allocations and bytes allocated by f on a heap just
// collected twice (sync.Pool's caches emptied), as a process reading one
// file after another with collections between them reads each
// (benchrun -buckets, scripts/bench-compare).
func cold(f func()) (allocs, bytes int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return int64(after.Mallocs - before.Mallocs), int64(after.TotalAlloc - before.TotalAlloc)
}

// leastCold is the least allocations and bytes of three cold runs of f.
func leastCold(f func()) (allocs, bytes int64) {
	for i := range 3 {
		a, b := cold(f)
		if i == 0 || a < allocs {
			allocs = a
		}
		if i == 0 || b < bytes {
			bytes = b
		}
	}
	return allocs, bytes
}

// What reading a dialog allocates on a cold heap beyond what nbformat's
// reading of the same notebook allocates (corpus-shaped cells, see
// cellPairs) is bounded per pair of messages, in allocations and bytes,
// and for a small notebook as a whole: a version 4.5 notebook at most 5
// allocations and 1,650 bytes per pair of messages, 70 allocations for 10
// pairs; a version 3 one, read through its upgrade (made in memory: the
// version 4 JSON of its cells, parsed), at most 4 allocations and 5,600
// bytes per pair, 90 allocations and 48,000 bytes for 10 pairs. Each
// figure is the least of three cold runs: a single run's nbformat read
// may or may not find the parse scratch kept across collections.
func TestDialogReadAllocationsCold(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	read := func(data []byte) func() {
		return func() {
			if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	beyond := func(version, pairs int) (allocs, bytes int64) {
		data := cellPairs(version, pairs)
		// Once warm (the schema compiled, the types' plans made, the
		// runtime's first use of each size of block).
		read(data)()
		_, _ = nbformat.Unmarshal(data)
		// The least of a few cold runs of each: nbformat's parse keeps
		// one scratch across collections (an atomic slot), which a run
		// finds or not depending on the runs before it.
		a, b := leastCold(read(data))
		na, nb := leastCold(func() { _, _ = nbformat.Unmarshal(data) })
		return a - na, b - nb
	}
	for _, c := range []struct {
		version               int
		perPair, perPairBytes float64
	}{{4, 5, 1650}, {3, 4, 5600}} {
		a50, b50 := beyond(c.version, 50)
		a100, b100 := beyond(c.version, 100)
		perPair, perPairBytes := float64(a100-a50)/50, float64(b100-b50)/50
		t.Logf("version %d: %.1f allocations, %.0f bytes per pair of messages beyond nbformat's read", c.version, perPair, perPairBytes)
		if perPair > c.perPair {
			t.Errorf("version %d: %.1f allocations per pair of messages beyond nbformat's read, want at most %.1f", c.version, perPair, c.perPair)
		}
		if c.perPairBytes > 0 && perPairBytes > c.perPairBytes {
			t.Errorf("version %d: %.0f bytes per pair of messages beyond nbformat's read, want at most %.0f", c.version, perPairBytes, c.perPairBytes)
		}
	}
	a, _ := beyond(4, 10)
	t.Logf("10 pairs: %d allocations beyond nbformat's read", a)
	if a > 70 {
		t.Errorf("a dialog of 10 pairs of messages allocates %d times beyond nbformat's read, want at most 70", a)
	}
	if a, b := beyond(3, 10); a > 90 || b > 48000 {
		t.Errorf("a version 3 dialog of 10 pairs of messages allocates %d times, %d bytes beyond nbformat's read, want at most 90 and 48,000", a, b)
	}
}

// typedMetaCells is a version 4.5 notebook of n code cells whose metadata
// has typed members nbmap.MetaMap reads (a flag, a name, the execution timing
// and jupyter objects JupyterLab records) beside a key the schema does
// not type, and a kernelspec in its metadata.
func typedMetaCells(n int) []byte {
	var cells []string
	for i := range n {
		cells = append(cells, fmt.Sprintf(`{"cell_type": "code", "id": "c%d", "execution_count": %d, "metadata": {"collapsed": false, "execution": {"iopub.execute_input": "2024-01-01T00:00:0%dZ", "shell.execute_reply": "2024-01-01T00:00:01Z"}, "jupyter": {"source_hidden": true}, "name": "cell%d", "x": 1}, "outputs": [], "source": ["print(%d)\n", "x = 1"]}`, i, i, i%10, i, i))
	}
	return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, "language_info": {"name": "python"}}, "cells": [` + strings.Join(cells, ", ") + `]}`)
}

// What reading a dialog allocates beyond nbformat's read of the same
// notebook, on a cold heap, for messages whose metadata has typed members
// (see typedMetaCells): at most 10 per message (measured 9.0: the
// message's Meta, its execution and jupyter objects, two allocations
// each, and the name and two timestamps boxed; it was 15.0 when each
// snapshot deep-copied them), and for a whole notebook of 10 such cells
// at most 115 (measured 104; 170 with those copies and a copy of the
// notebook's metadata). Each figure is the least of single cold runs
// (leastCold): a run's nbformat read may or may not find the parse
// scratch kept across collections, and a collection during a run only
// adds allocations (sync.Pool's slots made again), so the least is the
// honest count.
func TestTypedMetadataAllocationsCold(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	beyond := func(n int) int64 {
		data := typedMetaCells(n)
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil { // once warm
			t.Fatal(err)
		}
		a, _ := leastCold(func() {
			if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
				t.Fatal(err)
			}
		})
		na, _ := leastCold(func() { _, _ = nbformat.Unmarshal(data) })
		return a - na
	}
	perMessage := float64(beyond(100)-beyond(50)) / 50
	ten := beyond(10)
	t.Logf("%.1f allocations per message beyond nbformat's read; %d for 10 messages", perMessage, ten)
	if perMessage > 10 {
		t.Errorf("%.1f allocations per message with typed metadata beyond nbformat's read, want at most 10", perMessage)
	}
	if ten > 115 {
		t.Errorf("a dialog of 10 such messages allocates %d times beyond nbformat's read, want at most 115", ten)
	}
}
