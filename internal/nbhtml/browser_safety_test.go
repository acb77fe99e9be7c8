package nbhtml

// Tests in Chromium that scripts planted in outputs, Markdown, SVG,
// attachments, links and names never run, and pages request nothing.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// The safety of pages, in a real browser: what a hostile notebook plants
// does not run, and the page asks for nothing outside itself. Each case
// first checks that the payload reached the page (as text, or inside a
// sandboxed frame), so that a renderer that dropped it would fail too.

// payload is what a planted script does when it runs: marks the page,
// retitles it, tells its parent (which a sandboxed frame still could),
// and calls home (the trap server).
func payload(trap string) string {
	return fmt.Sprintf(`window.__pwned=1;document.title='PWNED';try{parent.postMessage('pwned','*')}catch(e){};new Image().src='%s/ran'`, trap)
}

// inert fails t if a payload ran.
func inert(t *testing.T, tab *browsertest.Tab) {
	t.Helper()
	if got := browsertest.Eval[string](tab, `String(window.__pwned)`); got != "undefined" {
		t.Errorf("window.__pwned = %s: a planted script ran", got)
	}
	if got := browsertest.Eval[string](tab, `document.title`); got == "PWNED" {
		t.Error("the title was changed: a planted script ran")
	}
	if ms := tab.Messages(); len(ms) > 0 {
		t.Errorf("frames posted %q: a planted script ran in a frame", ms)
	}
	tab.NoRequests()
}

// open renders cells to a file and opens it (see openRendered).
func open(t *testing.T, tab *browsertest.Tab, o Options, cells ...cell) []byte {
	t.Helper()
	path, page := pageOf(t, o, cells...)
	openRendered(tab, path)
	return page
}

// openRendered opens a page and waits until the browser has rendered it
// once (two animation frames after its load event). The load event does
// not mean that: cells are content-visibility: auto, whose contents stay
// skipped — absent from innerText, unpainted — until a rendering update
// finds them near the view, and on a loaded machine that update came
// after the load (innerText of the page's main was "" while its
// textContent held 1,002 characters; two frames later, 994).
func openRendered(tab *browsertest.Tab, path string) {
	tab.OpenFile(path)
	browsertest.Eval[bool](tab, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
}

// The controls: the detectors see a script that runs and a request made.
func TestBrowserDetectorsWork(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := filepath.Join(t.TempDir(), "control.html")
	os.WriteFile(p, []byte(`<!DOCTYPE html><title>x</title><script>`+payload(tab.Trap())+`</script><img src="`+tab.Trap()+`/img">`), 0o666)
	tab.OpenFile(p)
	if got := browsertest.Eval[string](tab, `String(window.__pwned)`); got != "1" {
		t.Errorf("the control's script did not run (window.__pwned = %s)", got)
	}
	var seen bool
	for _, u := range tab.Requests() {
		seen = seen || strings.HasPrefix(u, tab.Trap())
	}
	if !seen || tab.Allowed(tab.Trap()+"/img") {
		t.Errorf("the control's requests to the trap were not seen as refused: %q", tab.Requests())
	}
	// A frame's message reaches the listener.
	os.WriteFile(p, []byte(`<!DOCTYPE html><iframe sandbox="allow-scripts" srcdoc="<script>parent.postMessage('hi','*')</script>"></iframe>`), 0o666)
	tab.OpenFile(p)
	tab.Wait(`window.__messages.length > 0`)
}

func TestBrowserScriptInHTMLOutput(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	open(t, tab, Options{}, code("show()", 1,
		display(map[string]any{"text/html": `<b id="x">bold</b><script>` + p + `</script><img src="` + tab.Trap() + `/img" onerror="` + p + `">` +
			`<iframe srcdoc="<script>` + p + `</script>"></iframe><form action="` + tab.Trap() + `/form"><input name=a></form>` +
			`<link rel=stylesheet href="` + tab.Trap() + `/css"><style>@import url(` + tab.Trap() + `/import); b{background:url(` + tab.Trap() + `/bg)}</style>` +
			`<meta http-equiv="refresh" content="0;url=` + tab.Trap() + `/refresh">`, "text/plain": "<HTML>"})))
	frames := browsertest.Eval[[]map[string]string](tab, `[...document.querySelectorAll("iframe")].map(f => ({sandbox: f.getAttribute("sandbox"), srcdoc: f.srcdoc}))`)
	if len(frames) != 1 {
		t.Fatalf("%d frames, want the output's one", len(frames))
	}
	if frames[0]["sandbox"] != "" {
		t.Errorf("frame sandbox=%q, want \"\" (no scripts, no same origin)", frames[0]["sandbox"])
	}
	if !strings.Contains(frames[0]["srcdoc"], "<script>window.__pwned") {
		t.Error("the output's script is not in the frame: the test proves nothing")
	}
	// Give the frame time to run anything it would run.
	tab.Do(chromedp.Sleep(300e6))
	inert(t, tab)
	tab.Screenshot("safety-html-output", false)
}

func TestBrowserScriptInMarkdown(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	src := "# Title\n\n<script>" + p + "</script>\n\n" +
		`<img src="` + tab.Trap() + `/img" onerror="` + p + `"> <svg onload="` + p + `"><circle r=5 /></svg>` + "\n\n" +
		`<div onmouseover="` + p + `" style="position:fixed;inset:0">cover</div>` + "\n\n" +
		`<iframe srcdoc="<script>` + p + `</script>"></iframe> <object data="` + tab.Trap() + `/obj"></object>` + "\n\n" +
		`<style>body{background:url(` + tab.Trap() + `/bg)}</style> <math><mi>x</mi></math> <base href="` + tab.Trap() + `/">` + "\n\n" +
		"![remote](" + tab.Trap() + "/md.png) <img srcset=\"" + tab.Trap() + "/srcset 2x\">\n\n" +
		"`<script>` in code, and **bold** stays\n"
	open(t, tab, Options{}, note(src), prompt("ask <script>"+p+"</script>", "reply <img src=x onerror=\""+p+"\">"))
	text := browsertest.Eval[string](tab, `document.querySelector("main").innerText`)
	if !strings.Contains(text, "<script>window.__pwned") {
		t.Errorf("the script is not shown as text:\n%s", text)
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("main script, main iframe, main object, main svg, main style, main base, main [onerror], main [onload], main [onmouseover], main [style]").length`); n != 0 {
		t.Errorf("%d active elements made it into the page", n)
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("main strong, main h1").length`); n < 2 {
		t.Errorf("formatting lost (%d strong/h1)", n)
	}
	tab.Do(chromedp.Sleep(200e6))
	inert(t, tab)
	tab.Screenshot("safety-markdown", false)
}

func TestBrowserScriptInSVG(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" onload="` + p + `"><script>` + p + `</script>` +
		`<image href="` + tab.Trap() + `/svgimg" width="10" height="10"/><rect width="40" height="30" fill="teal"/></svg>`
	open(t, tab, Options{}, code("plot()", 2, display(map[string]any{"image/svg+xml": svg, "text/plain": "<Figure>"})))
	imgs := browsertest.Eval[[]map[string]any](tab, `[...document.querySelectorAll("main img")].map(i => ({src: i.src.slice(0, 30), w: i.naturalWidth, done: i.complete}))`)
	if len(imgs) != 1 || imgs[0]["src"] != "data:image/svg+xml;base64,PHN2" || imgs[0]["w"].(float64) != 40 {
		t.Errorf("the SVG is not shown as an image 40 wide: %v", imgs)
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("svg").length`); n != 0 {
		t.Errorf("%d <svg> elements in the page", n)
	}
	inert(t, tab)
}

func TestBrowserScriptInAttachment(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" onload="` + p + `"><script>` + p + `</script><circle cx="10" cy="10" r="9" fill="orange"/></svg>`
	c := note("![evil](attachment:evil.svg) <img src=\"attachment:evil.svg\" onload=\"" + p + "\"> [as link](attachment:evil.svg) " +
		"![page](attachment:page.html) ![ok](attachment:ok.png)")
	c = withAttachment(c, "evil.svg", "image/svg+xml", []byte(svg))
	c = withAttachment(c, "page.html", "text/html", []byte("<script>"+p+"</script>"))
	c = withAttachment(c, "ok.png", "image/png", tinyPNG)
	open(t, tab, Options{}, c)
	imgs := browsertest.Eval[[]map[string]any](tab, `[...document.querySelectorAll("main img")].map(i => ({type: i.src.slice(0, 19), w: i.naturalWidth, onload: i.getAttribute("onload")}))`)
	if len(imgs) != 3 {
		t.Fatalf("images %v: want the SVG twice and the PNG", imgs)
	}
	for _, im := range imgs {
		if im["w"].(float64) == 0 || im["onload"] != nil {
			t.Errorf("image %v: not decoded, or with its handler", im)
		}
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll(".nb-md a[href]").length`); n != 0 {
		t.Errorf("%d links to attachments are followed", n)
	}
	inert(t, tab)
}

func TestBrowserJavascriptLinks(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := "window.__pwned=1;document.title='PWNED'" // a link's URL has no spaces
	links := []string{
		"[a](javascript:" + p + ")", "[b](JaVaScRiPt:" + p + ")", "[c](java&#x09;script:" + p + ")", "[d]( javascript:" + p + ")",
		"[e](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "[f](vbscript:msgbox)", "<javascript:" + p + ">",
		"[g](file:///etc/passwd)", "[h](//" + strings.TrimPrefix(tab.Trap(), "http://") + "/proto)", "[i](other.ipynb)",
		`<a href="javascript:` + p + `">j</a>`, `<a href=" &#106;avascript:` + p + `">k</a>`, `<a href="data:text/html,<script>` + p + `</script>">l</a>`,
		"[ok](https://example.org/x)", "[self](#Title)",
	}
	open(t, tab, Options{}, note("# Title\n\n"+strings.Join(links, "\n\n")))
	hrefs := browsertest.Eval[[]string](tab, `[...document.querySelectorAll(".nb-md a[href]")].filter(a => !a.classList.contains("nb-anchor")).map(a => a.getAttribute("href"))`)
	if len(hrefs) != 2 || hrefs[0] != "https://example.org/x" || hrefs[1] != "#Title" {
		t.Errorf("links followed: %q, want only the https and the #fragment", hrefs)
	}
	inertLinks := browsertest.Eval[int](tab, `document.querySelectorAll("main a.nb-inert").length`)
	if inertLinks != len(links)-2 {
		t.Errorf("%d inert links, want %d", inertLinks, len(links)-2)
	}
	// Click every inert link: nothing happens.
	n := browsertest.Eval[int](tab, `(() => { const as = document.querySelectorAll("main a.nb-inert"); as.forEach(a => a.click()); return as.length })()`)
	if n == 0 {
		t.Fatal("no links to click")
	}
	tab.Do(chromedp.Sleep(200e6))
	if u := browsertest.Eval[string](tab, `location.href`); !strings.HasPrefix(u, "file://") {
		t.Errorf("a click navigated to %s", u)
	}
	inert(t, tab)
}

func TestBrowserHTMLInNames(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	p := payload(tab.Trap())
	name := `<img src=x onerror="` + p + `"><script>` + p + `</script>`
	out := display(map[string]any{"text/plain": "x", "application/<script>" + p + "</script>+json": map[string]any{}})
	s := stream(`<b onclick="`+p+`">stdout</b>`, "hello\n")
	c := code("x", 1, out, s)
	open(t, tab, Options{Title: name}, c)
	if got := browsertest.Eval[string](tab, `document.title`); got != name {
		t.Errorf("title %q, want the name as text %q", got, name)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("h1").textContent`); got != name {
		t.Errorf("heading %q, want the name as text", got)
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("body img, body script:not(:last-of-type), main b").length`); n != 0 {
		t.Errorf("%d elements made from names", n)
	}
	inert(t, tab)
}

// A page asks for nothing: not in the page, not from its frames.
func TestBrowserNoNetwork(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	trap := tab.Trap()
	open(t, tab, Options{},
		note("![a]("+trap+"/a.png) <img src=\""+trap+"/b.png\"> <video poster=\""+trap+"/v\"></video> <audio src=\""+trap+"/au\"></audio>"),
		code("x", 1, display(map[string]any{"text/html": `<img src="` + trap + `/c.png"><video src="` + trap + `/v2" autoplay></video>` +
			`<link rel=prefetch href="` + trap + `/pf"><link rel=icon href="` + trap + `/ico"><svg><image href="` + trap + `/si"/></svg>` +
			`<table style="background:url(` + trap + `/tb)"><tr><td>1</td></tr></table><embed src="` + trap + `/em">` +
			`<style>@font-face{font-family:x;src:url(` + trap + `/font)} td{font-family:x}</style>`})),
		code("y", 2, display(map[string]any{"image/svg+xml": `<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="` + trap + `/svgimg" width="9" height="9"/></svg>`})),
	)
	tab.Do(chromedp.Sleep(500e6))
	tab.NoRequests()
	if rs := tab.Requests(); len(rs) == 0 {
		t.Error("no request seen at all: the page's own is missing, so the recorder does not work")
	}
}

// A note's HTML cannot close the page's elements or leave its own open:
// the cells after it are where they belong.
func TestBrowserMarkdownStaysInItsCell(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	open(t, tab, Options{},
		note("a</div></div></section></main><table><tr><td>open <div><b>and <i>never"),
		note("<li>x</li></ul></ol><p>after</p>"),
		code("next", 1))
	got := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("main > section.nb-cell")].map(s => s.id + ":" + s.querySelector(".nb-body").textContent.replace(/\s+/g, " ").trim())`)
	want := []string{"nb-c1:a</section></main>open and never", "nb-c2:xafter", "nb-c3:next"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("cells %q\nwant %q", got, want)
	}
	inert(t, tab)
}
