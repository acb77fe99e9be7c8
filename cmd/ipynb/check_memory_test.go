package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// outputHeavyFile writes a deterministic notebook of n code cells with
// outputs as Jupyter stores them (as internal/cmd/benchgen writes, smaller):
// a stream of text lines, an execute_result with an HTML table, and a
// base64 PNG stored as lines; it returns the path and the size.
func outputHeavyFile(t *testing.T, dir string, n int) (string, int64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 11))
	nb := nbformat.New()
	for i := range n {
		code := nbformat.NewCodeCell(fmt.Sprintf("plot(%d)\n", i))
		var stream, html strings.Builder
		for j := range 40 {
			fmt.Fprintf(&stream, "epoch %d step %d loss %.6f\n", i, j, rng.Float64())
		}
		for j := range 30 {
			fmt.Fprintf(&html, "<tr><td>%d</td><td>%.4f</td></tr>\n", j, rng.Float64())
		}
		png := make([]byte, 6000)
		for j := range png {
			png[j] = byte(rng.Uint32())
		}
		b64 := base64.StdEncoding.EncodeToString(png)
		var lines []string
		for len(b64) > 76 {
			lines = append(lines, b64[:76]+"\n")
			b64 = b64[76:]
		}
		lines = append(lines, b64)
		image := nbformat.NewDisplayData(nbformat.MimeBundle{})
		if err := image.Data.SetJSON("image/png", lines); err != nil {
			t.Fatal(err)
		}
		count := i + 1
		code.ExecutionCount = &count
		code.Outputs = []nbformat.Output{
			nbformat.NewStream("stdout", stream.String()),
			nbformat.NewExecuteResult(count, nbformat.NewMimeBundle("text/plain", "table", "text/html", html.String())),
			image,
		}
		nb.Cells = append(nb.Cells, code, nbformat.NewMarkdownCell(fmt.Sprintf("## Step %d", i)))
	}
	data, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, fmt.Sprintf("heavy-%d.ipynb", n))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, int64(len(data))
}

// ipynb check of an output-heavy notebook allocates, in all (reading the
// file, parsing, validating, the dialog round trip compared as written),
// about 2.1 bytes per byte of file at every size (the file itself is one
// of them): a bound on its peak memory beyond the program's own (peak RSS
// of check on the 98 MB benchgen notebook: 1.33× the file). Before dialog
// outputs were kept as read, the dialog round trip decoded every output:
// 7.4 bytes per byte.
func TestCheckMemoryScales(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's instrumentation allocates")
	}
	sizes := []int{100, 200, 400, 800}
	if testing.Short() {
		sizes = sizes[:3]
	}
	dir := t.TempDir()
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	warm, _ := outputHeavyFile(t, dir, 2)
	check(e, input{path: warm})
	var prev float64
	for _, n := range sizes {
		p, size := outputHeavyFile(t, dir, n)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := check(e, input{path: p})
		runtime.ReadMemStats(&after)
		if r.Status != "same" {
			t.Fatalf("%d cells: %s %s", n, r.Status, r.Detail)
		}
		perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(size)
		t.Logf("%d cells, %d bytes: check allocated %.2f bytes per byte of file", n, size, perByte)
		if perByte > 2.5 {
			t.Errorf("%d cells: check allocated %.2f bytes per byte of file (at most 2.5)", n, perByte)
		}
		if prev > 0 && perByte > 1.15*prev {
			t.Errorf("%d cells: %.2f bytes per byte, %.2f at half the size: not linear", n, perByte, prev)
		}
		prev = perByte
	}
}

// ipynb show of an output-heavy notebook allocates, in all (reading the
// file, parsing, the dialog, sizing each output for its summary line),
// about 6.8 bytes per byte of file at every size, most of it passing: the
// file is read once (not copied again), and each output is decoded and
// sized in turn (an Encoder into a counter, its buffer reused), never all
// at once. Before: 9.0 bytes per byte (peak RSS on the 98 MB benchgen
// notebook 3.44× the file; now 2.08×).
func TestShowMemoryScales(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's instrumentation allocates")
	}
	sizes := []int{100, 200, 400, 800}
	if testing.Short() {
		sizes = sizes[:3]
	}
	dir := t.TempDir()
	var out strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard}
	warm, _ := outputHeavyFile(t, dir, 2)
	runShow(e, []string{warm})
	var prev float64
	for _, n := range sizes {
		p, size := outputHeavyFile(t, dir, n)
		out.Reset()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st := runShow(e, []string{p})
		runtime.ReadMemStats(&after)
		if st != exitOK || strings.Count(out.String(), " ⇒ out(") != n {
			t.Fatalf("%d cells: status %d, %d output summaries", n, st, strings.Count(out.String(), " ⇒ out("))
		}
		perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(size)
		t.Logf("%d cells, %d bytes: show allocated %.2f bytes per byte of file", n, size, perByte)
		if perByte > 7.5 {
			t.Errorf("%d cells: show allocated %.2f bytes per byte of file (at most 7.5)", n, perByte)
		}
		if prev > 0 && perByte > 1.15*prev {
			t.Errorf("%d cells: %.2f bytes per byte, %.2f at half the size: not linear", n, perByte, prev)
		}
		prev = perByte
	}
}
