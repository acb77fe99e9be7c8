// A web merge keeps lone surrogates exactly, in cells it resolves and in
// cells it leaves alone.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

func TestBrowserWebMergeSurrogates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(src string) string {
		return `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "note \ud83d alone"},
 {"cell_type": "code", "id": "calc", "metadata": {}, "execution_count": null, "source": "` + src + `", "outputs": []}
]}
`
	}
	os.WriteFile(filepath.Join(dir, "base.ipynb"), []byte(nb(`x = 1`)), 0o666)
	os.WriteFile(filepath.Join(dir, "ours.ipynb"), []byte(nb(`x = '\udc00'`)), 0o666)
	os.WriteFile(filepath.Join(dir, "theirs.ipynb"), []byte(nb(`x = 3`)), 0o666)
	var url string
	tab := browsertest.Open(t, func(u string) bool { return strings.HasPrefix(u, url) || strings.HasPrefix(u, "data:") })
	url, wait := webProcess(t, dir, "--merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	tab.Navigate(url)
	tab.Wait(`document.querySelector(".nb-status").textContent.includes("0 of 1")`)
	// The page holds the code unit itself (a JavaScript string can), so
	// what the editor sends back is the file's string.
	if n := browsertest.Eval[int](tab, `document.querySelector("#nb-x1 textarea").value.indexOf("\udc00")`); n < 0 {
		t.Errorf("the editor lost ours' lone surrogate: %q", browsertest.Eval[string](tab, `document.querySelector("#nb-x1 textarea").value`))
	}
	// What the page shows of it is its escape, as every text form shows
	// it, and the page is valid UTF-8 (no U+FFFD anywhere).
	shown := browsertest.Eval[string](tab, `document.querySelector("#nb-x1 .nb-three").innerText`)
	if !strings.Contains(shown, `\udc00`) || strings.Contains(shown, "\ufffd") {
		t.Errorf("the page shows ours' version as %q, want its escape \\udc00", shown)
	}
	tab.Screenshot("merge-surrogate", true)
	tab.Do(chromedp.Click(chromedp.CSS(`#nb-x1 button[data-choice=ours]`)))
	tab.Wait(`document.querySelector(".nb-status").textContent.startsWith("1 of 1 conflicts resolved")`)
	tab.Do(chromedp.Click(chromedp.CSS(`button.nb-save`)))
	tab.Wait(`document.querySelector(".nb-saved").textContent.startsWith("saved into ours.ipynb")`)
	if code := wait(); code != 0 {
		t.Errorf("exit status %d, want 0 (resolved)", code)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"note \ud83d alone"`, `"x = '\udc00'"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("saved notebook lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "\ufffd") || strings.Contains(string(data), `\\u`) {
		t.Errorf("saved notebook replaced a surrogate:\n%s", data)
	}
	tab.NoRequests()
}
