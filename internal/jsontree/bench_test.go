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
