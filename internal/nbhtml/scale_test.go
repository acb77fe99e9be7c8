package nbhtml

// Tests that rendering a page allocates in proportion to the notebook, whatever
// grows.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// allocated is the bytes and allocations f makes: the least of three
// runs (the process's other goroutines — a browser's event loops — may
// allocate meanwhile).
func allocated(f func()) (bytes, mallocs uint64) {
	for i := range 3 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		if db, dm := b.TotalAlloc-a.TotalAlloc, b.Mallocs-a.Mallocs; i == 0 || db < bytes {
			bytes, mallocs = db, dm
		}
	}
	return bytes, mallocs
}

// Rendering a page allocates in proportion to the notebook, whatever
// grows: the cells, a line, an image, an HTML output, nested Markdown,
// the outputs of one cell, a diff of all cells changed (bytes and
// allocations at four doubling sizes: at most 20 times from the first
// to the last, 6 times a doubling).
func TestPagesScaleLinearly(t *testing.T) {
	if testtier.Race {
		t.Skip("allocation counts mean nothing under -race (see testtier.Race)")
	}
	img := func(n int) string {
		return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, n/4))
	}
	shapes := map[string]func(n int) []cell{
		"cells": func(n int) []cell {
			var cs []cell
			for i := range n / 100 {
				cs = append(cs, note(fmt.Sprintf("## Part %d\n\nSome *text* with `code` and [a link](https://example.org/%d).", i, i)),
					code(fmt.Sprintf("x = %d\nprint(x)", i), i+1, stream("stdout", fmt.Sprintf("%d\n", i))))
			}
			return cs
		},
		"one long line": func(n int) []cell { return []cell{code("x", 1, stream("stdout", strings.Repeat("word ", n/5)))} },
		"an image":      func(n int) []cell { return []cell{code("x", 1, display(map[string]any{"image/png": img(n)}))} },
		"an HTML output": func(n int) []cell {
			return []cell{code("x", 1, display(map[string]any{"text/html": strings.Repeat("<tr><td>1</td></tr>", n/20)}))}
		},
		"nested Markdown": func(n int) []cell {
			return []cell{note(strings.Repeat(strings.Repeat("> ", 20)+strings.Repeat("- ", 20)+strings.Repeat("*a ", 30)+"\n", n/170))}
		},
		"many outputs": func(n int) []cell {
			var outs []map[string]any
			for i := range n / 50 {
				outs = append(outs, display(map[string]any{"text/plain": fmt.Sprint(i)}), stream("stderr", "w\n"))
			}
			return []cell{code("x", 1, outs...)}
		},
	}
	sizes := []int{10_000, 20_000, 40_000, 80_000}
	if testtier.Full() {
		sizes = []int{20_000, 40_000, 80_000, 160_000}
	}
	// Growth by doubling buffers, and regexp's pooled machines (emptied
	// by a collection), make one doubling cost up to 4 times the last and
	// vary from run to run; over three doublings, linear work grows 8
	// times, quadratic 64 times.
	check := func(t *testing.T, name string, render func(n int)) {
		render(sizes[0]) // first use: lexers, parsers
		var bs, ms []uint64
		var got []string
		for _, n := range sizes {
			b, m := allocated(func() { render(n) })
			bs, ms = append(bs, b), append(ms, m)
			got = append(got, fmt.Sprintf("%d: %d B, %d allocs", n, b, m))
		}
		bad := float64(bs[3]) > 20*float64(bs[0])+256<<10 || float64(ms[3]) > 20*float64(ms[0])+1000
		for i := 1; i < len(bs); i++ {
			bad = bad || float64(bs[i]) > 6*float64(bs[i-1])+256<<10 || float64(ms[i]) > 6*float64(ms[i-1])+1000
		}
		if bad {
			t.Errorf("%s grows faster than its input:\n%s", name, strings.Join(got, "\n"))
		}
		t.Logf("%s: %s", name, strings.Join(got, "; "))
	}
	for name, gen := range shapes {
		check(t, name, func(n int) {
			d := readNotebook(t, notebookJSON(t, gen(n)...))
			Notebook(io.Discard, d, Options{})
		})
	}
	check(t, "a diff of every cell changed", func(n int) {
		a, b := notebookJSON(t, shapes["cells"](n)...), notebookJSON(t, shapes["cells"](n+1)...)
		b = bytes.ReplaceAll(b, []byte("print(x)"), []byte("print(x + 1)"))
		changes, err := convert.Diff(a, b)
		if err != nil {
			t.Fatal(err)
		}
		Diff(io.Discard, readNotebook(t, a), readNotebook(t, b), changes, DiffOptions{})
	})
}
