package nbhtml

// Tests of diff pages in Chromium: a typical revision as a reader sees it, and
// hostile notebooks' content kept inert.

import (
	"bytes"
	"encoding/base64"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// diffPageOf writes the diff page of notebooks a and b (JSON) as `ipynb
// diff --html` makes it: changes from convert.Diff, dialogs from
// convert.Unmarshal.
func diffPageOf(t *testing.T, a, b []byte) (string, []byte) {
	t.Helper()
	changes, err := convert.Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	da, db := readNotebook(t, a), readNotebook(t, b)
	var page bytes.Buffer
	if err := Diff(&page, da, db, changes, DiffOptions{NameA: "old.ipynb", NameB: "new.ipynb"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "diff.html")
	os.WriteFile(p, page.Bytes(), 0o666)
	return p, page.Bytes()
}

func png64(w, h int, c color.RGBA) string { return base64.StdEncoding.EncodeToString(pngOf(w, h, c)) }

// reviewPair is a notebook before and after a typical revision: a
// changed plot (same size), a changed table, an edited line of code, a
// moved cell, an added and a removed cell, edited Markdown, changed
// metadata.
func reviewPair(t *testing.T) (a, b []byte) {
	table := func(rows ...string) string {
		s := `<table class="dataframe"><thead><tr><th></th><th>score</th></tr></thead><tbody>`
		for i, r := range rows {
			s += "<tr><th>" + string(rune('0'+i)) + "</th><td>" + r + "</td></tr>"
		}
		return s + "</tbody></table>"
	}
	intro := func(s string) cell { c := note(s); c["id"] = "intro"; return c }
	with := func(c cell, id string) cell { c["id"] = id; return c }
	a = notebookJSON(t,
		intro("# Analysis\n\nWe fit a **linear** model to the data."),
		with(code("import numpy as np\nx = np.arange(10)\ny = 2 * x + 1", 1), "setup"),
		with(code("plot(x, y, color='red')", 2, display(map[string]any{"image/png": png64(60, 40, color.RGBA{220, 40, 40, 255}), "text/plain": "<Figure>"})), "plot"),
		with(code("df.head()", 3, result(3, map[string]any{"text/html": table("0.91", "0.85"), "text/plain": "score\n0 0.91\n1 0.85"})), "table"),
		with(code("print('done')", 4, stream("stdout", "done\n")), "done"),
		with(note("An old remark."), "old"),
		with(code("helper = 1", 5), "helper"),
	)
	b = notebookJSON(t,
		intro("# Analysis\n\nWe fit a **quadratic** model to the data."),
		with(code("helper = 1", 5), "helper"),
		with(code("import numpy as np\nx = np.arange(20)\ny = x ** 2 + 1", 1), "setup"),
		with(code("plot(x, y, color='blue')", 2, display(map[string]any{"image/png": png64(60, 40, color.RGBA{40, 40, 220, 255}), "text/plain": "<Figure>"})), "plot"),
		with(code("df.head()", 3, result(3, map[string]any{"text/html": table("0.97", "0.85", "0.80"), "text/plain": "score\n0 0.97\n1 0.85\n2 0.80"})), "table"),
		with(code("print('done')", 4, stream("stdout", "done\n")), "done"),
		with(note("A new conclusion."), "new"),
	)
	return a, b
}

func TestBrowserDiffPage(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	a, b := reviewPair(t)
	p, _ := diffPageOf(t, a, b)
	openRendered(tab, p)
	type sec struct{ Kind, Head string }
	secs := browsertest.Eval[[]sec](tab, `[...document.querySelectorAll("section.nb-dcell")].map(s => ({Kind: s.className.replace("nb-dcell nb-k-", ""), Head: s.querySelector(".nb-dhead").innerText}))`)
	var kinds []string
	for _, s := range secs {
		kinds = append(kinds, s.Kind)
	}
	// In b's order, removed cells where they were: intro, helper (moved),
	// setup, plot, table, [done unchanged], old (removed), new (added).
	if got, want := strings.Join(kinds, " "), "changed moved changed changed changed removed added"; got != want {
		t.Fatalf("sections: %s\nwant %s\n%v", got, want, secs)
	}
	list := browsertest.Eval[[]string](tab, `[...document.querySelectorAll(".nb-changes a")].map(a => a.getAttribute("href"))`)
	if len(list) != len(secs) {
		t.Errorf("change list %q for %d changes", list, len(secs))
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("details.nb-same > summary").innerText`); got != "1 cell unchanged (cell 6)" {
		t.Errorf("unchanged run: %q", got)
	}
	if got := browsertest.Eval[bool](tab, `document.querySelector("details.nb-same").open`); got {
		t.Error("unchanged cells not collapsed")
	}
	if got := browsertest.Eval[string](tab, `document.querySelector(".nb-movedto").innerText`); !strings.Contains(got, "cell 7 of the old notebook was here: moved to cell 2") {
		t.Errorf("moved marker: %q", got)
	}
	// Intra-line highlights: the changed words only.
	marks := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("#nb-d1 table.nb-sbs mark")].map(m => m.textContent)`)
	if strings.Join(marks, "|") != "linear|quadratic" {
		t.Errorf("marks in the note's diff %q, want linear|quadratic", marks)
	}
	marks = browsertest.Eval[[]string](tab, `[...document.querySelectorAll("#nb-d3 table.nb-sbs mark")].map(m => m.textContent)`)
	joined := strings.Join(marks, "|")
	if !strings.HasPrefix(joined, "10|20|") || strings.Contains(joined, "np") || strings.Contains(joined, "arange") || strings.Contains(joined, "y") {
		t.Errorf("marks in the code's diff %q: want 10 and 20 and the changed expression only", marks)
	}
	// The note rendered before and after.
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("#nb-d1 .nb-rendered strong")].map(s => s.textContent).join("|")`); got != "linear|quadratic" {
		t.Errorf("rendered note: %q", got)
	}
	// The plot: both images decoded side by side, and a swipe (same size).
	imgs := browsertest.Eval[[]float64](tab, `[...document.querySelectorAll("#nb-d4 img")].map(i => i.naturalWidth)`)
	if len(imgs) != 4 || imgs[0] != 60 || imgs[1] != 60 {
		t.Errorf("plot images %v: want before and after, and the swipe's two", imgs)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("#nb-d4 figcaption").innerText`); got != "BEFORE · IMAGE/PNG, 60×40 PX, "+strings.ToUpper(sizeText(len(pngOf(60, 40, color.RGBA{220, 40, 40, 255})))) {
		t.Errorf("caption %q", got)
	}
	// The swipe follows the slider; the difference view stacks the two.
	tab.Do(chromedp.SetValue(chromedp.CSS("#nb-d4 .nb-swipe-range"), "20"))
	browsertest.Eval[bool](tab, `(() => { const r = document.querySelector("#nb-d4 .nb-swipe-range"); r.dispatchEvent(new Event("input")); return true })()`)
	if got := browsertest.Eval[string](tab, `document.querySelector("#nb-d4 .nb-swipe-top").style.width`); got != "20%" {
		t.Errorf("swipe width %q after the slider moved to 20", got)
	}
	// The table: both versions in sandboxed frames, the source diffed.
	frames := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("#nb-d5 iframe")].map(f => f.getAttribute("sandbox"))`)
	if len(frames) != 2 || frames[0] != "" || frames[1] != "" {
		t.Errorf("table frames %q", frames)
	}
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("#nb-d5 .nb-srcdiff table.nb-sbs mark")].map(m => m.textContent).join("|")`); !strings.Contains(got, "91|97") {
		t.Errorf("table source marks %q", got)
	}
	// The toggle: unified view instead of side by side.
	vis := `[...document.querySelectorAll("#nb-d3 table")].map(t => getComputedStyle(t).display)`
	if got := browsertest.Eval[[]string](tab, vis); strings.Join(got, " ") != "table none" {
		t.Errorf("tables shown %q, want side by side only", got)
	}
	tab.Screenshot("diff-side-by-side", true)
	tab.Do(chromedp.Click(chromedp.CSS(`label[for=nb-view-uni]`)))
	if got := browsertest.Eval[[]string](tab, vis); strings.Join(got, " ") != "none table" {
		t.Errorf("tables shown %q after the toggle, want unified only", got)
	}
	tab.Screenshot("diff-unified", true)
	// n jumps to the next change.
	tab.Do(chromedp.KeyEvent("n"), chromedp.KeyEvent("n"))
	if got := browsertest.Eval[string](tab, `document.querySelector(".nb-current").id`); got != "nb-d2" {
		t.Errorf("after n n the current change is %q", got)
	}
	inert(t, tab)
}

// What a diff page shows of hostile notebooks stays inert: both sides'
// Markdown, HTML and SVG outputs, metadata values, ids and names.
func TestBrowserDiffInert(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	evil := func(v string) []byte {
		n := note("<script>" + p + "</script> <img src=x onerror=\"" + p + "\"> " + v)
		n["metadata"] = map[string]any{"tags": []any{"<script>" + p + "</script>" + v}}
		n["id"] = "n"
		c := code("x = '"+v+"'", 1,
			display(map[string]any{"text/html": "<script>" + p + "</script><b>" + v + "</b>"}),
			display(map[string]any{"image/svg+xml": `<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9" onload="` + p + `"><script>` + p + `</script><text>` + v + `</text></svg>`}),
			stream("<script>"+p+"</script>", v))
		c["id"] = "c"
		return notebookJSON(t, n, c, prompt("q "+v+"<script>"+p+"</script>", "r "+v+"<script>"+p+"</script>"))
	}
	path, page := diffPageOf(t, evil("one"), evil("two"))
	if !bytes.Contains(page, []byte("srcdoc=")) || !bytes.Contains(page, []byte("&lt;script&gt;window.__pwned")) {
		t.Fatal("the payloads are not on the page: the test proves nothing")
	}
	openRendered(tab, path)
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("main script, main svg, main [onerror], main [onload]").length`); n != 0 {
		t.Errorf("%d active elements on the diff page: %s", n, browsertest.Eval[string](tab, `[...document.querySelectorAll("main script, main svg, main [onerror], main [onload]")].map(e => e.outerHTML.slice(0, 300)).join("\n")`))
	}
	if n := browsertest.Eval[int](tab, `[...document.querySelectorAll("iframe")].filter(f => f.getAttribute("sandbox") !== "").length`); n != 0 {
		t.Errorf("%d frames not sandboxed", n)
	}
	tab.Do(chromedp.Sleep(300e6))
	inert(t, tab)
}
