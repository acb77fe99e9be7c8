package nbhtml

// Tests in Chromium of a notebook with a payload in every field that reaches a
// page, as notebook, diff and merge pages: nothing planted runs.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// hostileNotebook is a notebook with a payload (p, which runs a script
// if anything makes it one) in every field that reaches a page — the
// title, kernel and language names, cell kinds, ids, tags and metadata,
// execution counts as strings, attachments' names and types, output
// types, MIME keys, stream names, tracebacks with terminal hyperlinks,
// image metadata — and Markdown written to slip past the sanitiser
// (mutation XSS through comments, CDATA, noscript, SVG and MathML
// parsing, entity-encoded schemes, attribute breaking titles, fenced
// code info strings), with HTML, SVG, LaTeX, Markdown, JavaScript and
// widget outputs. v changes the cells' text, so that two versions diff.
func hostileNotebook(t *testing.T, trap, v string) []byte {
	p := payload(trap)
	js := "javascript:" + strings.ReplaceAll(p, " ", "")
	tag := "<img src=x onerror=\"" + p + "\"><script>" + p + "</script>"
	md := strings.Join([]string{
		"# Heading " + tag + " " + v,
		"## nb-all", "## __proto__",
		"<!--><img src=x onerror=\"" + p + "\">-->",
		"<![CDATA[><img src=x onerror=\"" + p + "\">]]>",
		"<noscript><p title=\"</noscript><img src=x onerror='" + p + "'>\">",
		"<svg><style><img src=x onerror=\"" + p + "\"></style></svg>",
		"<math><mtext><table><mglyph><style><img src=x onerror=\"" + p + "\">",
		"<p><b title=\"</b><img src=x onerror='" + p + "'>\">b</b></p>",
		"<template><script>" + p + "</script></template>",
		"<details open ontoggle=\"" + p + "\"><summary>s</summary>d</details>",
		"<a href=\"javascript&colon;" + p + "\">colon</a> <a href=\"jav&#x0A;ascript:" + p + "\">nl</a> <a href=\"&#x6A;avascript:" + p + "\">ent</a>",
		"[t](https://example.org \"title\\\"><script>" + p + "</script>\")",
		"<a href=\"https://example.org\" target=\"_top\" onclick=\"" + p + "\" style=\"position:fixed;inset:0\">cover</a>",
		"<meta http-equiv=\"refresh\" content=\"0;url=" + js + "\"><base href=\"" + trap + "/\"><form action=\"" + trap + "/f\"><button>go</button></form>",
		"<input autofocus onfocus=\"" + p + "\"> <select autofocus onfocus=\"" + p + "\"></select> <textarea autofocus onfocus=\"" + p + "\"></textarea>",
		"<style>@import '" + trap + "/css';</style><div style=\"background:url(" + trap + "/bg)\">styled</div><link rel=stylesheet href=\"" + trap + "/l\">",
		"<img src=\"data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='" + p + "'/>\"> <img src=\"" + js + "\"> <img srcset=\"" + trap + "/s 2x\">",
		"<object data=\"" + trap + "/o\"></object><embed src=\"" + trap + "/e\"><iframe src=\"" + trap + "/i\"></iframe><iframe srcdoc=\"<script>" + p + "</script>\"></iframe>",
		"![a](attachment:x\"><script>" + p + "</script>.png) ![b](attachment:evil.svg)",
		"```python\"><script>" + p + "</script>\nx = 1\n```",
		"`" + tag + "` $" + tag + "$ $$" + tag + "$$",
		"&lt;script&gt;" + p + "&lt;/script&gt;",
	}, "\n\n")
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" onload="` + p + `"><script>` + p + `</script>` +
		`<foreignObject width="20" height="20"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="` + p + `"/></body></foreignObject>` +
		`<a href="` + js + `"><rect width="20" height="20" fill="purple"/></a></svg>`
	nb1 := note(md)
	nb1["id"] = "n1"
	nb1["metadata"] = map[string]any{"tags": []any{tag + v}, tag: tag}
	nb1["attachments"] = map[string]any{
		"x\"><script>" + p + "</script>.png": map[string]any{"image/png\"><script>" + p + "</script>": "iVBORw0KGgo="},
		"evil.svg":                           map[string]any{"image/svg+xml": svg},
	}
	outputs := []map[string]any{
		display(map[string]any{"text/html": tag + `<meta http-equiv="refresh" content="0;url=` + trap + `/refresh"><a href="` + trap + `/a" target="_top">top</a>` +
			`<form action="` + trap + `/f"><input type="submit"></form><iframe src="` + trap + `/if"></iframe><b>` + v + `</b>`, "text/plain": "html"}),
		display(map[string]any{"image/svg+xml": svg, "text/plain": "svg"}),
		display(map[string]any{"text/latex": `\href{` + js + `}{x} ` + tag, "text/plain": "latex"}),
		display(map[string]any{"text/markdown": "md " + tag + " [l](" + js + ")"}),
		display(map[string]any{"application/javascript": p, "application/vnd.jupyter.widget-view+json": map[string]any{"model_id": tag}, "text/plain": "widget " + tag}),
		display(map[string]any{"text/html\"><script>" + p + "</script>": tag, "image/png<script>": "x", "text/plain": "keys"}),
		display(map[string]any{"image/png": "\"><script>" + p + "</script>"}),
		{"output_type": "display_data", "data": map[string]any{"image/png": "iVBORw0KGgo="}, "metadata": map[string]any{"image/png": map[string]any{"width": "1\" onload=\"" + p, "height": 1e9}}},
		stream("stdout\"><script>"+p+"</script>", "\x1b]8;;"+js+"\x1b\\link\x1b]8;;\x1b\\ "+tag+"\n"),
		errorOut("E"+tag, tag, "\x1b[31m"+tag+"\x1b[0m"),
		{"output_type": "<script>" + p + "</script>"},
	}
	c := code("print('"+v+"') # "+tag, 1, outputs...)
	c["id"] = "c1"
	c["execution_count"] = "<script>" + p + "</script>"
	c["metadata"] = map[string]any{"tags": []any{tag}, "collapsed": tag}
	odd := note("odd kind " + v)
	odd["cell_type"] = "<script>" + p + "</script>"
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"name": tag, "display_name": tag, "language": "python\"><script>" + p + "</script>"},
			"language_info": map[string]any{"name": tag},
			"title":         tag + v,
		},
		"cells": []any{nb1, c, odd, prompt("q "+tag+v, "r "+tag), raw("</pre>" + tag + v)},
	}
	b, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// audit lists what, in the page's document, could run, load or send
// anything, or is not the page's own: event handler attributes; style
// attributes but the lazy placeholders' heights; URLs in links, images
// and other attributes outside http(s), mailto, #fragments and data URLs
// of images; scripts but the page's own (children of body, each allowed
// by the policy); frames that are not sandboxed; and base, refresh,
// forms, plugins, inline SVG and MathML, style sheets or links outside
// the head.
const audit = `(() => {
  const bad = [];
  const urlAttrs = ["href", "src", "action", "formaction", "data", "poster", "srcset", "background", "xlink:href", "ping", "cite"];
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) {
      const n = a.name.toLowerCase();
      if (n.startsWith("on")) bad.push("handler " + e.tagName + " " + n);
      if (n === "style" && !e.matches("div.nb-lazy")) bad.push("style on " + e.tagName + ": " + a.value.slice(0, 80));
      if (urlAttrs.includes(n)) {
        const v = a.value.trim();
        const ok = n === "href" && (/^(https?:\/\/|mailto:|#)/i.test(v)) ||
          n === "src" && e.tagName === "IMG" && /^data:image\/(png|jpeg|gif|webp|bmp|svg\+xml)[;,]/i.test(v);
        if (!ok) bad.push(n + " on " + e.tagName + ": " + v.slice(0, 80));
      }
    }
  }
  for (const s of document.querySelectorAll("script")) if (s.parentElement !== document.body) bad.push("script in " + s.parentElement.tagName);
  for (const f of document.querySelectorAll("iframe")) if (f.getAttribute("sandbox") !== "" || f.hasAttribute("src")) bad.push("frame " + f.outerHTML.slice(0, 80));
  for (const e of document.querySelectorAll("base, meta[http-equiv]:not([http-equiv=Content-Security-Policy]), form, object, embed, svg, math, body link, body style, main template, textarea:not(.nb-editor), select")) bad.push("element " + e.outerHTML.slice(0, 80));
  return bad;
})()`

// hostileCheck opens a page, renders every lazy cell, waits for frames
// and images, and checks that nothing the notebook planted ran, loaded
// or stayed active.
func hostileCheck(t *testing.T, tab *browsertest.Tab, path string, page []byte, shot string) {
	t.Helper()
	if !bytes.Contains(page, []byte("&lt;script&gt;window.__pwned")) {
		t.Fatal("the payloads are not on the page as text: the test proves nothing")
	}
	openRendered(tab, path)
	browsertest.Eval[bool](tab, `(() => { const b = document.querySelector("button.nb-all"); if (b) b.click(); return true })()`)
	tab.Do(chromedp.Sleep(500e6))
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("div.nb-lazy").length`); n != 0 {
		t.Errorf("%d cells left unrendered", n)
	}
	for _, b := range browsertest.Eval[[]string](tab, audit) {
		t.Errorf("active or foreign: %s", b)
	}
	// Focus and click through the page as a reader would (but links out
	// of it, which the audit checked).
	browsertest.Eval[bool](tab, `(() => { document.querySelectorAll("main a:not([href^=http]), main summary, main button").forEach(e => { try { e.focus(); e.click() } catch (x) {} }); return true })()`)
	tab.Do(chromedp.Sleep(300e6))
	if u := browsertest.Eval[string](tab, `location.protocol`); u != "file:" {
		t.Errorf("the page navigated to %s", browsertest.Eval[string](tab, `location.href`))
	}
	inert(t, tab)
	tab.Screenshot(shot, true)
}

// A hostile notebook, as a notebook page (cells past the first two
// rendered lazily), a diff page (every kind of change: edited, added,
// removed) and a merge page, in a real browser: nothing it planted runs,
// loads, or stays active in the page's document.
func TestBrowserHostileNotebook(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	trap := tab.Trap()
	p := payload(trap)
	a, b := hostileNotebook(t, trap, "one"), hostileNotebook(t, trap, "two")
	title := "<img src=x onerror=\"" + p + "\">.ipynb"

	t.Run("the audit sees", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "control.html")
		os.WriteFile(path, []byte(`<!DOCTYPE html><html><head><title>c</title></head><body><main><img src="x" onerror="1"><a href="javascript:1">j</a>`+
			`<div style="color:red">s</div><iframe srcdoc="x"></iframe><svg></svg><form></form><p><script>1</script></p></main></body></html>`), 0o666)
		tab.OpenFile(path)
		got := strings.Join(browsertest.Eval[[]string](tab, audit), "\n")
		for _, want := range []string{"handler IMG onerror", "href on A: javascript:1", "src on IMG: x", "style on DIV", "frame <iframe", "element <svg", "element <form", "script in P"} {
			if !strings.Contains(got, want) {
				t.Errorf("the audit misses %q; it found:\n%s", want, got)
			}
		}
	})
	t.Run("notebook", func(t *testing.T) {
		d := readNotebook(t, b)
		var page bytes.Buffer
		if err := Notebook(&page, d, Options{Title: title, Lazy: 2}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "hostile.html")
		os.WriteFile(path, page.Bytes(), 0o666)
		hostileCheck(t, tab, path, page.Bytes(), "hostile-notebook")
		if got := browsertest.Eval[string](tab, `document.title`); got != title {
			t.Errorf("title %q, want the file name as text", got)
		}
		// A cell of an unknown kind: its name cut in the gutter, whole in
		// the label's title; its text shown.
		odd := browsertest.Eval[map[string]string](tab, `(() => { const s = document.querySelector("section.nb-other-cell"); const l = s.querySelector(".nb-label");
			return {label: l.textContent, title: l.title, text: s.querySelector(".nb-body").innerText} })()`)
		if odd["label"] != "<script>win…" || !strings.HasPrefix(odd["title"], "<script>window.__pwned") || !strings.Contains(odd["text"], "odd kind two") {
			t.Errorf("the cell of an unknown kind: %q", odd)
		}
	})
	t.Run("diff", func(t *testing.T) {
		var nb map[string]any
		json.Unmarshal(b, &nb)
		cells := nb["cells"].([]any)
		nb["cells"] = append([]any{cells[4]}, append(cells[:2:2], note("added "+p))...) // moved, changed, removed, added
		b2, _ := json.Marshal(nb)
		changes, err := convert.Diff(a, b2)
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := Diff(&page, readNotebook(t, a), readNotebook(t, b2), changes, DiffOptions{NameA: title, NameB: "<script>" + p + "</script>"}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "hostile-diff.html")
		os.WriteFile(path, page.Bytes(), 0o666)
		hostileCheck(t, tab, path, page.Bytes(), "hostile-diff")
		browsertest.Eval[bool](tab, `(() => { document.querySelector("button.nb-expand").click(); document.getElementById("nb-view-uni").click(); return true })()`)
		tab.Do(chromedp.Sleep(200e6))
		inert(t, tab)
	})
	t.Run("merge", func(t *testing.T) {
		tag := "<img src=x onerror=\"" + p + "\"><script>" + p + "</script>"
		var page bytes.Buffer
		err := Merge(&page, []MergeConflict{
			{Title: tag, Text: true, Base: tag, Ours: tag + "ours", Theirs: "</textarea>" + tag, Merged: "<<<<<<< ours\n</textarea>" + tag + "\n=======\n" + tag + "\n>>>>>>> theirs\n",
				Choices: []MergeChoice{{Value: "ours\"" + tag, Label: tag, Text: "</textarea>" + tag}, {Value: "theirs", Label: "theirs", Text: tag}}},
			{Title: "outputs " + tag, Base: tag, Ours: tag, Theirs: tag, Choices: []MergeChoice{{Value: "ours", Label: tag}}},
		}, MergeOptions{Base: tag, Ours: tag, Theirs: tag, Target: "<script>" + p + "</script>.ipynb"})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "hostile-merge.html")
		os.WriteFile(path, page.Bytes(), 0o666)
		hostileCheck(t, tab, path, page.Bytes(), "hostile-merge")
		if ed := browsertest.Eval[string](tab, `document.querySelector("textarea.nb-editor").value`); !strings.Contains(ed, "<img src=x onerror") {
			t.Errorf("the editor does not hold the conflict as text: %q", ed)
		}
	})
}

// A lazy page's script survives a malformed address fragment (a link a
// notebook or anyone may make): no error, and a good fragment still
// renders its cell.
func TestBrowserLazyBadFragment(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	var cells []cell
	for i := range 6 {
		cells = append(cells, note("cell "+strings.Repeat("x", i)))
	}
	path, _ := pageOf(t, Options{Lazy: 1}, cells...)
	openRendered(tab, path)
	browsertest.Eval[bool](tab, `(() => { window.__errs = []; window.addEventListener("error", e => window.__errs.push(String(e.message))); location.hash = "%E0%A4%A"; return true })()`)
	tab.Do(chromedp.Sleep(200e6))
	if errs := browsertest.Eval[[]string](tab, `window.__errs`); len(errs) > 0 {
		t.Errorf("the page's script failed on a malformed fragment: %q", errs)
	}
	browsertest.Eval[bool](tab, `(() => { location.hash = "nb-c5"; return true })()`)
	tab.Wait(`!!document.querySelector("section#nb-c5")`)
	inert(t, tab)
}
