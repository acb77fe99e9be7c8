package jsontree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
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

// A parse of a small notebook allocates the tape, its nodes and the stack
// of open containers once each: the node slice is sized for the values a
// notebook of that size records (about one per 50 bytes when its text
// is recorded) and the stack for a handful of levels, so neither grows.
func TestParseAllocatesOnce(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata notebooks: %v", err)
	}
	// The cells recorded, their outputs lazy: what a reader of text keeps.
	cells := &Shape{Members: map[string]*Shape{"cells": {Elem: &Shape{Other: func(k string) *Shape {
		if k == "outputs" {
			return nil
		}
		return All
	}}}}}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, shape := range map[string]*Shape{"Parse": All, "ParseShaped": cells} {
			n := testing.AllocsPerRun(10, func() {
				if _, err := ParseShaped(data, Limits{}, shape); err != nil {
					t.Fatal(err)
				}
			})
			if n > 3 {
				t.Errorf("%s of %s: %v allocations, want 3", name, filepath.Base(p), n)
			}
		}
	}
}
