package nbformat_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/nbformat"
)

// coldUnmarshalAlloc returns the bytes Unmarshal of data allocates on a
// heap just collected twice (sync.Pool's items, and its victims, gone):
// the least of three measures (anything else running adds).
func coldUnmarshalAlloc(t *testing.T, data []byte) uint64 {
	t.Helper()
	least := uint64(math.MaxUint64)
	for range 3 {
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		nb, err := nbformat.Unmarshal(data)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(nb)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// What Unmarshal allocates on a heap just collected (as a program reading
// a notebook now and then, or the per-file measure of issue 13, finds it:
// sync.Pool then mostly misses) is in proportion to the notebook: at most
// 6 bytes per byte of it and 4 KiB more. (Before, a pool miss cost a
// 64 KiB snapshot scratch and a 28 KiB chunk of nodes whatever the size:
// 102 KB for a notebook of 2 KB, 49 bytes per byte; 8.3 at 17 KB.)
// Notebooks of 2 to 17 KB, every eighth of the corpus's under 20 KB, and
// one of 2 MB (3.0 bytes per byte before and after).
func TestUnmarshalColdAllocation(t *testing.T) {
	if raceBuild {
		t.Skip("-race: instrumentation allocates")
	}
	check := func(name string, data []byte) {
		t.Helper()
		got := coldUnmarshalAlloc(t, data)
		if bound := 6 * uint64(len(data)+4<<10); got > bound {
			t.Errorf("%s of %d bytes: Unmarshal on a heap just collected allocated %d bytes (%.1f per byte), want at most %d", name, len(data), got, float64(got)/float64(len(data)), bound)
		}
	}
	for _, size := range []int{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 2 << 20} {
		check("generated notebook", nbtest.Heavy{Bytes: size, Kinds: []nbtest.OutputKind{nbtest.Stream}, StreamLines: 4}.Notebook())
	}
	if testing.Short() {
		return
	}
	i := 0
	for _, data := range corpus.Files(t) {
		if len(data) >= 20<<10 {
			continue
		}
		if _, err := nbformat.Unmarshal(data); err != nil {
			continue
		}
		if i++; i%8 == 0 {
			check("corpus notebook", data)
		}
	}
}
