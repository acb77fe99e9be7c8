package nbhtml

// Tests in Chromium of a notebook page's DOM: every kind of cell and output as
// a reader sees it.

import (
	"encoding/base64"
	"image/color"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// A notebook of every kind of cell and output, as the browser builds its
// page: what a reader sees, asserted on the DOM.
func TestBrowserNotebookDOM(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	wide := pngOf(40, 20, color.RGBA{0, 90, 200, 255})
	md := "# Results\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n\n" +
		"Energy $E = m_c^2$ and $$\\sum_{i=1}^n x_i$$ cost $5 and $10.\n\n```python\ndef f(): pass\n```\n\n" +
		"<b>bold</b> <font color=red>plain</font> <img src=\"attachment:fig.png\" width=\"30\">\n"
	c := withAttachment(note(md), "fig.png", "image/png", tinyPNG)
	open(t, tab, Options{},
		c,
		code("import sys\nprint('x')", 1,
			stream("stdout", "\x1b[31mred\x1b[0m line\n"), stream("stdout", " 10%\r 50%\r100%\n"), stream("stderr", "warn\n"),
			result(1, map[string]any{"text/plain": "42"})),
		code("plot()", 2, display(map[string]any{"image/png": base64.StdEncoding.EncodeToString(wide), "text/plain": "<Figure>"}),
			display(map[string]any{"text/html": "<table><tr><th>x</th></tr><tr><td>1</td></tr></table>", "text/plain": "df"}),
			display(map[string]any{"application/json": map[string]any{"k": []any{1, 2}}}),
			display(map[string]any{"text/latex": "$\\alpha$", "text/plain": "alpha"}),
			display(map[string]any{"application/javascript": "alert(1)", "text/plain": "<JS>"})),
		code("1/0", 3, errorOut("ZeroDivisionError", "division by zero", "\x1b[0;31mTraceback\x1b[0m", "ZeroDivisionError: division by zero")),
		prompt("What is **2+2**?", "It is `4`."),
		raw("raw <b>text</b>"),
	)
	type cellInfo struct {
		Kind, Gutter, Text string
	}
	cells := browsertest.Eval[[]cellInfo](tab, `[...document.querySelectorAll("section.nb-cell")].map(s => ({Kind: s.dataset.kind, Gutter: s.querySelector(".nb-gutter").innerText.trim(), Text: s.querySelector(".nb-body").innerText}))`)
	kinds := []string{}
	for _, c := range cells {
		kinds = append(kinds, c.Kind+" "+c.Gutter)
	}
	if got, want := strings.Join(kinds, ", "), "note , code [1], code [2], code [3], prompt PROMPT, raw RAW"; got != want {
		t.Fatalf("cells: %s\nwant %s", got, want)
	}
	check := func(cond bool, format string, args ...any) {
		t.Helper()
		if !cond {
			t.Errorf(format, args...)
		}
	}
	// The note: GFM table, strikethrough, task list, math as TeX, code
	// highlighted, allowed HTML kept, the attachment shown.
	n := cells[0].Text
	check(strings.Contains(n, "$E = m_c^2$") && strings.Contains(n, "$$\\sum_{i=1}^n x_i$$"), "math not kept as TeX: %q", n)
	check(strings.Contains(n, "cost $5 and $10"), "prices taken for math: %q", n)
	counts := browsertest.Eval[map[string]int](tab, `(() => { const m = document.querySelector("#nb-c1 .nb-md"); const q = s => m.querySelectorAll(s).length;
		return {table: q("table"), td: q("td"), del: q("del"), checkbox: q("input[type=checkbox][checked][disabled]"), math: q(".nb-math"), display: q(".nb-math.nb-display"),
		  kw: q("pre.chroma .k, pre.chroma .kd"), b: q("b"), font: q("font"), fontColor: q("font[color]"), img: q("img")} })()`)
	for k, want := range map[string]int{"table": 1, "td": 2, "del": 1, "checkbox": 1, "math": 2, "display": 1, "kw": 2, "b": 1, "font": 1, "fontColor": 0, "img": 1} {
		check(counts[k] == want, "note: %d %s, want %d", counts[k], k, want)
	}
	// Streams: one block per stream run, colours and rewrites gone.
	streams := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("#nb-c2 pre.nb-stream")].map(p => p.className + ": " + p.textContent)`)
	check(strings.Join(streams, "|") == "nb-stream nb-stdout: red line\n100%|nb-stream nb-stderr: warn", "streams %q", streams)
	check(strings.Contains(cells[1].Text, "Out[1]:") && strings.Contains(cells[1].Text, "42"), "result: %q", cells[1].Text)
	// Images decoded, frames sandboxed, JSON indented, LaTeX as source,
	// JavaScript not run but named.
	imgs := browsertest.Eval[[]float64](tab, `[...document.querySelectorAll("main img")].map(i => i.naturalWidth)`)
	check(len(imgs) == 2 && imgs[0] == 3 && imgs[1] == 40, "image widths %v, want the attachment's 3 and the plot's 40", imgs)
	frames := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("iframe")].map(f => f.getAttribute("sandbox"))`)
	check(len(frames) == 1 && frames[0] == "", "frames %q, want one sandboxed", frames)
	c3 := cells[2].Text
	check(strings.Contains(c3, "\"k\": [\n    1,"), "JSON not indented: %q", c3)
	check(strings.Contains(c3, "$\\alpha$"), "LaTeX not shown as source: %q", c3)
	check(strings.Contains(c3, "<JS>") && strings.Contains(c3, "application/javascript") && strings.Contains(c3, "never run"), "JavaScript output: %q", c3)
	// The error: its traceback once, without colour codes.
	check(strings.TrimSpace(cells[3].Text) == "1/0\nTraceback\nZeroDivisionError: division by zero", "error: %q", cells[3].Text)
	// The prompt: the question and the reply, both rendered.
	pr := browsertest.Eval[map[string]string](tab, `({q: document.querySelector("#nb-c5 .nb-question").innerHTML, r: document.querySelector("#nb-c5 .nb-reply").innerText})`)
	check(strings.Contains(pr["q"], "<strong>2+2</strong>"), "question %q", pr["q"])
	check(strings.HasPrefix(pr["r"], "REPLY") && strings.Contains(pr["r"], "It is 4."), "reply %q", pr["r"])
	check(strings.Contains(cells[5].Text, "raw <b>text</b>"), "raw cell %q", cells[5].Text)
	inert(t, tab)
	tab.Do(chromedp.Sleep(500e6))
	tab.Screenshot("page-kinds", true)
}
