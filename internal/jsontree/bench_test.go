package jsontree

// Benchmarks of parsing the testdata and corpus notebooks, and a test that a
// parse allocates its tape at its exact size.

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"

	"github.com/nbdialog/ipynb/internal/zerocopy"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// BenchmarkParse is a full parse (a node for every value) of the module's
// testdata notebooks and, when the shared corpus is present, of all its
// notebooks under 20 KB and from 20 to 200 KB (one op parsing each of
// them once: the per-file cost of small files, issue 13).
func BenchmarkParse(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no testdata notebooks: %v", err)
	}
	bench := func(name string, files [][]byte) {
		total := 0
		for _, data := range files {
			total += len(data)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					if _, err := Parse(data, Limits{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		bench(strings.TrimSuffix(filepath.Base(p), ".ipynb"), [][]byte{data})
	}
	small, medium := corpusFiles(b)
	if len(small) > 0 {
		bench("corpus<20KB", small)
		bench("corpus20-200KB", medium)
	}
}

// corpusFiles returns the shared corpus's valid JSON files under 20 KB and
// from 20 to 200 KB (none when the corpus is absent).
func corpusFiles(tb testing.TB) (small, medium [][]byte) {
	if corpus.Shared() == "" {
		return nil, nil
	}
	for _, data := range corpus.Files(tb) {
		if _, err := Parse(data, Limits{}); err != nil {
			continue
		}
		switch {
		case len(data) < 20<<10:
			small = append(small, data)
		case len(data) < 200<<10:
			medium = append(medium, data)
		}
	}
	return small, medium
}

// A parse allocates its tape and the tape's nodes, at their exact size:
// the nodes are recorded in a reused scratch slice and copied (before, a
// guess at their number allocated twice what the corpus's small
// notebooks need). Full and shaped parses, of the module's testdata
// notebooks and of the corpus's small ones when present.
func TestParseAllocatesExactly(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	if testtier.Race {
		t.Skip("-race: sync.Pool drops items at random")
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata notebooks: %v", err)
	}
	var inputs [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	small, _ := corpusFiles(t)
	inputs = append(inputs, small...)
	// The cells recorded, their outputs lazy: what a reader of text keeps.
	cells := &Shape{Members: map[string]*Shape{"cells": {Elem: &Shape{Other: func(k string) *Shape {
		if k == "outputs" {
			return nil
		}
		return All
	}}}}}
	tapeSize := int(reflect.TypeFor[Tape]().Size())
	for _, data := range inputs {
		for name, shape := range map[string]*Shape{"Parse": All, "ParseShaped": cells} {
			tp, err := ParseShaped(data, Limits{}, shape)
			if err != nil {
				t.Fatal(err)
			}
			want := roundUp(tapeSize) + roundUp(len(tp.Nodes)*nodeSize)
			// The least over single parses: a collection in between empties
			// the pool, whose next use allocates its per-processor slots
			// (CI saw 2.1 allocations over ten parses, in each of three
			// measures, on a loaded machine).
			allocs, bytes := math.Inf(1), math.Inf(1)
			for range 20 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				if _, err := ParseShaped(data, Limits{}, shape); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				allocs = min(allocs, float64(after.Mallocs-before.Mallocs))
				bytes = min(bytes, float64(after.TotalAlloc-before.TotalAlloc))
			}
			if allocs > 2 || bytes > float64(want) {
				t.Errorf("%s of %d bytes (%d nodes): %v allocations of %v bytes, want 2 of at most %d", name, len(data), len(tp.Nodes), allocs, bytes, want)
			}
		}
	}
}

// roundUp bounds what the allocator hands out for n bytes: a size class
// (at most a quarter more) up to 32 KiB, whole 8 KiB pages above.
func roundUp(n int) int {
	if n > 32<<10 {
		return (n + 8<<10 - 1) &^ (8<<10 - 1)
	}
	return n + n/4 + 16
}
