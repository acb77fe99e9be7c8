package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// BenchmarkFmtCheck is `ipynb fmt --check` of ../shared/bench/big-real.ipynb
// (31 MB, already in Jupyter's layout): read, heal, and the comparison
// with Python nbformat's bytes as they are made, never all held (compare
// BenchmarkCheck's cost for the same file).
func BenchmarkFmtCheck(b *testing.B) {
	s := corpus.Shared()
	if s == "" {
		b.Skip("no ../shared/bench")
	}
	data, err := os.ReadFile(filepath.Join(s, "bench", "big-real.ipynb"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, _, err := format(data, fmtLayout, false, true)
		if err != nil || out == nil {
			b.Fatalf("fmt --check: %v (changed %v)", err, out == nil)
		}
	}
}
