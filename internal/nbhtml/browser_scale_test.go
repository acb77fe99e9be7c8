package nbhtml

// Tests in Chromium that a page of a big notebook scrolls without long
// unpainted frames.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/browsertest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// Large notebooks in the browser: time to first render, page size, and
// scrolling, at doubling sizes. It reports and does not assert times (the
// machine is shared); it asserts that the page opens, that its first cells
// are there before the rest is rendered, and that scrolling to the end
// renders the last cell. NBHTML_SCALE=10000 runs the sizes up to 10,000
// cells and 100 MB of outputs; otherwise only the smallest.

// noisePNG is a PNG of w×w pixels of noise (it does not compress).
func noisePNG(w int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, w))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range w {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// bigNotebook is a notebook of n cells: a note every fifth, code with a
// printed line, and every fourth code cell a plot of 40 kB.
func bigNotebook(n int, plot string) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		id := strconv.Itoa(i)
		if i%5 == 0 {
			fmt.Fprintf(&b, `{"cell_type": "markdown", "id": "c%s", "metadata": {}, "source": "## Step %s\n\nSome *notes* about step %s, with a [link](https://example.org/%s)."}`, id, id, id, id)
			continue
		}
		outs := fmt.Sprintf(`{"output_type": "stream", "name": "stdout", "text": "step %s done\n"}`, id)
		if i%4 == 1 {
			outs += `, {"output_type": "display_data", "metadata": {}, "data": {"image/png": "` + plot + `", "text/plain": "<Figure>"}}`
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "id": "c%s", "metadata": {}, "execution_count": %s, "source": "x = compute(%s)\nprint(f'step {x} done')", "outputs": [%s]}`, id, id, id, outs)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// scrollJS jumps through the page (dragging the scroll bar) to twenty
// places, paging down three screens at each, timing every frame. A frame
// the browser has not painted after half a second counts as unpainted and
// the scroll goes on (a browser starved of the CPU, or one that stopped
// painting the tab, would otherwise hold the test for minutes).
const scrollJS = `(async () => {
			let unpainted = 0;
			const frame = () => new Promise(r => { let done = false;
				requestAnimationFrame(() => { if (!done) { done = true; r(); } });
				setTimeout(() => { if (!done) { done = true; unpainted++; r(); } }, 500); });
			const t0 = performance.now(); let last = t0, longest = 0, slow = [];
			const tick = async (what) => { await frame(); await frame(); const now = performance.now(); longest = Math.max(longest, now - last);
				if (now - last > 200) slow.push(what + ": " + Math.round(now - last) + "ms"); last = now; };
			for (let j = 1; j <= 20; j++) {
				window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * j / 20); await tick("jump " + j);
				for (let i = 0; i < 3; i++) { window.scrollBy(0, innerHeight); await tick("page " + j + "." + i); }
			}
			window.scrollTo(0, document.documentElement.scrollHeight); await tick("end");
			return {Total: performance.now() - t0, Longest: longest, Slow: slow, Unpainted: unpainted, Visibility: document.visibilityState};
		})()`

func TestBrowserScale(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	tab := browsertest.Open(t, nil)
	plot := base64.StdEncoding.EncodeToString(noisePNG(115))
	sizes := []int{625}
	if top, _ := strconv.Atoi(os.Getenv("NBHTML_SCALE")); top > 625 {
		for n := 1250; n <= top; n *= 2 {
			sizes = append(sizes, n)
		}
	}
	t.Logf("%7s %10s %9s %9s %9s %9s %9s %9s", "cells", "notebook", "page", "render", "paint", "loaded", "80 jumps", "longest")
	for _, n := range sizes {
		data := bigNotebook(n, plot)
		d := readNotebook(t, data)
		start := time.Now()
		var page bytes.Buffer
		if err := Notebook(&page, d, Options{}); err != nil {
			t.Fatal(err)
		}
		render := time.Since(start)
		p := filepath.Join(t.TempDir(), "big.html")
		if err := os.WriteFile(p, page.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		tab.OpenFile(p)
		type timing struct{ Paint, Loaded float64 }
		tm := browsertest.Eval[timing](tab, `({Paint: (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime,
			Loaded: performance.getEntriesByType("navigation")[0].loadEventStart})`)
		if got := browsertest.Eval[int](tab, `document.querySelectorAll("section.nb-cell").length`); got < min(n, DefaultLazy) {
			t.Fatalf("%d cells: %d sections rendered at first", n, got)
		}
		// Scroll as a reader does: jump through the page (dragging the
		// scroll bar) to twenty places, paging down three screens at each,
		// timing every frame.
		type scroll struct {
			Total, Longest float64
			Slow           []string
			Unpainted      int
			Visibility     string
		}
		sc := browsertest.Eval[scroll](tab, scrollJS)
		tab.Wait(fmt.Sprintf(`document.getElementById("nb-c%d") && document.getElementById("nb-c%d").tagName == "SECTION"`, n, n))
		t.Logf("%7d %10s %9s %9s %7.0fms %7.0fms %7.0fms %7.0fms", n, sizeText(len(data)), sizeText(page.Len()),
			render.Round(time.Millisecond), tm.Paint, tm.Loaded, sc.Total, sc.Longest)
		if len(sc.Slow) > 0 {
			t.Logf("        frames over 200 ms: %s", strings.Join(sc.Slow, ", "))
		}
		if sc.Unpainted > 0 {
			t.Logf("        %d of 162 frames not painted within half a second (the tab is %s)", sc.Unpainted, sc.Visibility)
		}
		// The diff page of a revision that changed every tenth cell.
		changed := bytes.ReplaceAll(data, []byte(`1)\nprint(f'step {x} done')`), []byte(`1) + 1\nprint(f'step {x} done')`))
		dstart := time.Now()
		var dpage bytes.Buffer
		changes, err := convert.Diff(data, changed)
		if err != nil {
			t.Fatal(err)
		}
		if err := Diff(&dpage, d, readNotebook(t, changed), changes, DiffOptions{}); err != nil {
			t.Fatal(err)
		}
		drender := time.Since(dstart)
		os.WriteFile(p, dpage.Bytes(), 0o666)
		tab.OpenFile(p)
		dt := browsertest.Eval[timing](tab, `({Paint: (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime,
			Loaded: performance.getEntriesByType("navigation")[0].loadEventStart})`)
		if len(changes) < n/20 {
			t.Fatalf("%d cells: %d changes; the revision changed every tenth cell", n, len(changes))
		}
		if got := browsertest.Eval[int](tab, `document.querySelectorAll("section.nb-dcell").length`); got != len(changes) {
			t.Errorf("%d cells: diff page of %d changes has %d sections", n, len(changes), got)
		}
		ds := browsertest.Eval[scroll](tab, scrollJS)
		t.Logf("%7s %10s %9s %9s %7.0fms %7.0fms %7.0fms %7.0fms  (diff, %d changes)", "", "", sizeText(dpage.Len()),
			drender.Round(time.Millisecond), dt.Paint, dt.Loaded, ds.Total, ds.Longest, len(changes))
		if ds.Unpainted > 0 {
			t.Logf("        %d of 162 frames not painted within half a second (the tab is %s)", ds.Unpainted, ds.Visibility)
		}
	}
	tab.NoRequests()
}
