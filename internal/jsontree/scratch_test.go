package jsontree

// Tests that what a parse allocates barely depends on whether sync.Pool kept
// its scratch.

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// cellsDoc returns a notebook-like document of n cells (8 nodes each, 2
// more for the root and its array) and its number of nodes.
func cellsDoc(n int) ([]byte, int) {
	var b strings.Builder
	b.WriteString(`{"cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n  ")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "execution_count": %d, "metadata": {}, "outputs": [], "source": ["x = %d\n", "print(x)"]}`, i, i)
	}
	b.WriteString("]}\n")
	return []byte(b.String()), 2 + 8*n
}

// parseAlloc returns the bytes one full parse of data allocates.
func parseAlloc(t *testing.T, data []byte, nodes int) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tp, err := Parse(data, Limits{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Nodes) != nodes {
		t.Fatalf("%d nodes, want %d", len(tp.Nodes), nodes)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// What a parse allocates barely depends on sync.Pool's luck: with its
// scratch lost (a collection or two, or the goroutine moved to another
// processor, whose pool holds none), a parse allocates its tape, its
// nodes and chunks as large as those nodes, never a node slice regrown
// by copying (from 1024 nodes to N, appends allocate 4-6 times N nodes:
// ipynb show, parsing a notebook twice, allocated 2.00 or 2.29 bytes per
// byte of an 11.5 MB file as the second parse found the first's scratch
// or not, and TestShowMemoryScales failed 1 run in 3). Inputs from 50
// to 12,000 cells (402 to 96,002 nodes, past the nodes the pool keeps).
func TestParseWithoutPooledScratch(t *testing.T) {
	if testtier.Race {
		t.Skip("-race: sync.Pool drops items at random")
	}
	chunkSize := chunkLen * nodeSize
	for _, cells := range []int{50, 333, 1500, 2900, 5000, 12000} {
		data, nodes := cellsDoc(cells)
		// The least of three measures (anything else running adds).
		cold, warm := uint64(math.MaxUint64), uint64(math.MaxUint64)
		for range 3 {
			// A collection moves the pool's items to its victim
			// cache, a second drops them.
			runtime.GC()
			runtime.GC()
			lastScratch.Store(nil) // as when another parse holds it
			cold = min(cold, parseAlloc(t, data, nodes))
			warm = min(warm, parseAlloc(t, data, nodes))
		}
		tape := roundUp(int(reflect.TypeFor[Tape]().Size())) + roundUp(nodes*nodeSize)
		chunks := (nodes + chunkLen - 1) / chunkLen
		// The scratch, its list of chunks (appended, at most twice its
		// length) and its stack.
		want := tape + chunks*chunkSize + 4*chunks*int(reflect.TypeFor[[]Node]().Size()) + 2<<10
		t.Logf("%d nodes: %d bytes without the pooled scratch, %d with it; the tape's %d", nodes, cold, warm, tape)
		if cold > uint64(want) {
			t.Errorf("%d nodes: a parse without the pooled scratch allocated %d bytes, want at most %d (the tape's %d and %d chunks of %d)", nodes, cold, want, tape, chunks, chunkSize)
		}
		if warm > cold {
			t.Errorf("%d nodes: a parse with the pooled scratch allocated %d bytes, %d without", nodes, warm, cold)
		}
	}
}
