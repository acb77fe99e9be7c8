package convert_test

import (
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
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

// What reading a dialog allocates on a cold heap beyond what nbformat's
// reading of the same notebook allocates (corpus-shaped cells, see
// cellPairs) is bounded per pair of messages, in allocations and bytes,
// and for a small notebook as a whole. Measured: a version 4.5 notebook
// 4.0 allocations and 1,117 bytes per pair of messages, 55 allocations
// for 10 pairs; version 3 17.1 allocations per pair (it was 9.0, 1,571,
// 116 and 22.1 when each text, id, output handle and metadata conversion
// was allocated alone, snapshots were found through a map, and nbformat
// took the snapshot of its unedited check for convert too).
func TestDialogReadAllocationsCold(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's instrumentation allocates")
	}
	read := func(data []byte) func() {
		return func() {
			if _, err := convert.Unmarshal(data); err != nil {
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
		a, b := cold(read(data))
		na, nb := cold(func() { _, _ = nbformat.Unmarshal(data) })
		return a - na, b - nb
	}
	for _, c := range []struct {
		version               int
		perPair, perPairBytes float64
	}{{4, 5, 1300}, {3, 19, 0}} {
		a50, b50 := beyond(c.version, 50)
		a100, b100 := beyond(c.version, 100)
		perPair, perPairBytes := float64(a100-a50)/50, float64(b100-b50)/50
		t.Logf("version %d: %.1f allocations, %.0f bytes per pair of messages beyond nbformat's read", c.version, perPair, perPairBytes)
		if perPair > c.perPair {
			t.Errorf("version %d: %.1f allocations per pair of messages beyond nbformat's read, want at most %.0f", c.version, perPair, c.perPair)
		}
		if c.perPairBytes > 0 && perPairBytes > c.perPairBytes {
			t.Errorf("version %d: %.0f bytes per pair of messages beyond nbformat's read, want at most %.0f", c.version, perPairBytes, c.perPairBytes)
		}
	}
	if a, _ := beyond(4, 10); a > 70 {
		t.Errorf("a dialog of 10 pairs of messages allocates %d times beyond nbformat's read, want at most 70", a)
	}
}
