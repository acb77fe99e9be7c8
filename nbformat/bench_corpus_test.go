package nbformat_test

// A benchmark over every small corpus notebook: the fixed cost per file of
// reading and writing.

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// BenchmarkSmallCorpus runs over every corpus notebook under 20 KB, one op
// being all of them: the per-file fixed cost (issue 13). RoundTrip is
// Unmarshal + Validate + Marshal, Unmarshal its first step, JSONValid the floor (encoding/json
// scanning the same bytes). The Cold variants collect garbage before each
// file (timer stopped), as scripts/bench-compare's size buckets do: the
// per-file costs of a heap just collected (caches of spans emptied, pools
// halved, goroutine stacks shrunk) are then part of every file's time.
// It is skipped without the shared corpus.
func BenchmarkSmallCorpus(b *testing.B) {
	var files [][]byte
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		if _, err := nbformat.Unmarshal(data); err != nil {
			continue
		}
		files = append(files, data)
		total += len(data)
	}
	if len(files) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	run := func(name string, f func(data []byte)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					f(data)
				}
			}
			b.ReportMetric(float64(len(files)), "files")
		})
	}
	cold := func(name string, f func(data []byte)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			// And, as scripts/bench-compare's buckets do, the sum of
			// each file's least time over the ops (best-ns/op), which
			// a loaded machine disturbs less than the total.
			best := make([]time.Duration, len(files))
			for b.Loop() {
				for i, data := range files {
					b.StopTimer()
					runtime.GC()
					b.StartTimer()
					t0 := time.Now()
					f(data)
					if d := time.Since(t0); best[i] == 0 || d < best[i] {
						best[i] = d
					}
				}
			}
			b.ReportMetric(float64(len(files)), "files")
			var sum time.Duration
			for _, d := range best {
				sum += d
			}
			b.ReportMetric(float64(sum.Nanoseconds()), "best-ns/op")
		})
	}
	roundTrip := func(data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		_ = nbformat.Validate(nb)
		if _, err := nbformat.Marshal(nb); err != nil {
			b.Fatal(err)
		}
	}
	run("RoundTrip", roundTrip)
	cold("ColdRoundTrip", roundTrip)
	cold("ColdJSONValid", func(data []byte) { json.Valid(data) })
	run("Unmarshal", func(data []byte) {
		if _, err := nbformat.Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	})
	run("JSONValid", func(data []byte) { json.Valid(data) })
}
