package nbformat_test

// Tests of what Unmarshal allocates on a cold heap (in proportion to the
// notebook) and that it keeps nothing of the input.

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
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
	if testtier.Race {
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
	if !testtier.Full() {
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

// Unmarshal parses the caller's bytes where they are and copies them
// after: the notebook never refers to them, so changing them once
// Unmarshal returns changes nothing read (values, validation, Marshal's
// bytes), for notebooks whose copy goes in the tape's block (up to
// 32 KiB) and larger ones.
func TestUnmarshalKeepsNothingOfTheInput(t *testing.T) {
	for _, size := range []int{1 << 10, 8 << 10, 40 << 10, 300 << 10} {
		want := nbtest.Heavy{Bytes: size, Kinds: []nbtest.OutputKind{nbtest.Stream, nbtest.Error}, StreamLines: 3}.Notebook()
		data := append([]byte(nil), want...)
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			data[i] = ' '
		}
		runtime.GC()
		if err := nbformat.Validate(nb); err != nil {
			t.Errorf("%d bytes: invalid after the input changed: %v", len(want), err)
		}
		if nb.Edited() {
			t.Errorf("%d bytes: edited after the input changed", len(want))
		}
		out, err := nbformat.Marshal(nb)
		if err != nil || string(out) != string(want) {
			t.Errorf("%d bytes: Marshal after the input changed: %v, %d bytes differ from the input read", len(want), err, len(out))
		}
		for i, c := range nb.Cells {
			var src string
			switch c := c.(type) {
			case *nbformat.CodeCell:
				src = c.Source.String()
			case *nbformat.MarkdownCell:
				src = c.Source.String()
			}
			if line, _, _ := strings.Cut(src, "\n"); strings.TrimSpace(line) == "" || !strings.Contains(string(want), line) {
				t.Fatalf("%d bytes: cell %d's source %q is not the one read", len(want), i, src)
			}
		}
	}
}
