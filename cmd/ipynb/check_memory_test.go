package main

// Tests that check and show of output-heavy notebooks allocate a bounded number
// of bytes per byte of file, at every size.

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// heavyFile writes a notebook of n code cells with outputs as Jupyter
// stores them (nbtest.Heavy: a 40-line stream, an execute_result with an
// HTML table, a 6 kB PNG as base64 lines), a markdown cell before each,
// and returns its path and size.
func heavyFile(t *testing.T, dir string, n int) (string, int64) {
	return nbtest.Heavy{Cells: n, Seed: uint64(n), ImageLines: true}.WriteFile(t, dir)
}

// allocScales runs cmd (which fails t when it does not do its work) on
// output-heavy notebooks of doubling sizes (heavyFile: 100 to 800 cells),
// and fails t when it allocates more than bound bytes per byte of file at
// any size, or 15% more per byte than at half the size (not linear).
func allocScales(t *testing.T, cmd string, bound float64, run func(path string, n int)) {
	t.Helper()
	allocScalesOf(t, cmd, bound, func(dir string, n int) (string, int64) { return heavyFile(t, dir, n) }, []int{100, 200, 400, 800}, run)
}

// allocScalesOf is allocScales on the files file writes in dir for each
// of sizes (the last left out with -short), each doubling the one
// before. Allocations are counted by runtime.MemStats.TotalAlloc, after a
// first run on a small file (file(dir, 2)).
func allocScalesOf(t *testing.T, cmd string, bound float64, file func(dir string, n int) (string, int64), sizes []int, run func(path string, n int)) {
	t.Helper()
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	if !testtier.Full() {
		sizes = sizes[:len(sizes)-1]
	}
	dir := t.TempDir()
	warm, _ := file(dir, 2)
	run(warm, 2)
	var prev float64
	for _, n := range sizes {
		p, size := file(dir, n)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run(p, n)
		runtime.ReadMemStats(&after)
		perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(size)
		t.Logf("n = %d, %d bytes: %s allocated %.2f bytes per byte of file", n, size, cmd, perByte)
		if perByte > bound {
			t.Errorf("n = %d: %s allocated %.2f bytes per byte of file (at most %.2f)", n, cmd, perByte, bound)
		}
		if prev > 0 && perByte > 1.15*prev {
			t.Errorf("n = %d: %.2f bytes per byte, %.2f at half the size: not linear", n, perByte, prev)
		}
		prev = perByte
	}
}

// ipynb check of an output-heavy notebook allocates, in all (reading the
// file, parsing, validating, the dialog round trip compared as written),
// 1.43–1.65 bytes per byte of file at every size from 1.4 to 11.5 MB (the
// file itself is one of them; 1.65–1.76 when a parse regrew its node
// scratch by copying): a bound on its peak memory beyond the
// program's own (peak RSS of check on the 98 MB benchgen notebook: 1.33×
// the file). The bound, 2.0, is the largest measured + 30%. When the
// dialog round trip decodes every output (as before dialog outputs were
// kept as read), check allocates 6.6–6.7 bytes per byte: the test fails.
func TestCheckMemoryScales(t *testing.T) {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	allocScales(t, "check", 2.0, func(p string, n int) {
		if r := check(e, input{path: p}); r.Status != "same" {
			t.Fatalf("%d cells: %s %s", n, r.Status, r.Detail)
		}
	})
}

// ipynb show of an output-heavy notebook allocates, in all (reading the
// file, parsing, the dialog, the summary), 1.60–1.80 bytes per byte of
// file at every size from 1.4 to 11.5 MB (1.78–2.04 under load before
// summary rows stopped copying whole messages; when a parse missed the
// pooled node scratch, 0.2–0.3 more: see jsontree's
// TestParseWithoutPooledScratch): each message's outputs are sized from
// their bytes (outsize.go), never decoded. The bound, 2.75, is the
// largest measured under load + 30%. When each output is decoded and
// encoded to size it (dialog.Message.Preview, as show did before), show
// allocates 6.9 bytes per byte: the test fails. Notebooks of one dense
// value: TestShowMemoryScalesDense.
func TestShowMemoryScales(t *testing.T) {
	var out strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard}
	allocScales(t, "show", 2.75, func(p string, n int) {
		out.Reset()
		if st := runShow(e, []string{"--width", "0", p}); st != exitOK || strings.Count(out.String(), " ⇒ out(") != n {
			t.Fatalf("%d cells: status %d, %d output summaries", n, st, strings.Count(out.String(), " ⇒ out("))
		}
	})
}
