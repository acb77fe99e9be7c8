package convert_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
)

// BenchmarkRoundTrip is convert.Unmarshal + Marshal of an unedited dialog,
// over testdata/*.ipynb and the files in IPYNB_BENCH_FILES.
func BenchmarkRoundTrip(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Unmarshal(data); err != nil {
			continue // not a dialog (invalid files are healed, so they differ)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := convert.Unmarshal(data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := convert.Marshal(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
