package jsontree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse is a full parse (a node for every value) of the module's
// testdata notebooks.
func BenchmarkParse(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no testdata notebooks: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
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
