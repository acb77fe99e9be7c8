// Pages show a lone surrogate as its escape, wherever in a notebook it is.
package nbhtml

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/browsertest"
)

// surrogateNotebook has a different lone surrogate in each place a page
// shows text from: Markdown, code, a stream, a plain-text result, HTML, an
// error's traceback and a raw cell; the page's title holds another.
const surrogateNotebook = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "m", "metadata": {}, "source": "note \ud83d alone"},
 {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": 1, "source": "x = '\udc00'", "outputs": [
  {"output_type": "stream", "name": "stdout", "text": "out \ud800\n"},
  {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": "plain \ud801"}},
  {"output_type": "display_data", "metadata": {}, "data": {"text/html": "<b>html \ud805</b>"}},
  {"output_type": "error", "ename": "E", "evalue": "bad", "traceback": ["tb \ud804"]}
 ]},
 {"cell_type": "raw", "id": "r", "metadata": {}, "source": "raw \udfff"}%s
]}`

// hostileSurrogates are cells whose lone surrogates sit inside and beside
// markup that would run the payload if an escape's path skipped the
// page's escaping or sanitising: in Markdown's raw HTML, in code, in an
// HTML output and in a plain-text result.
func hostileSurrogates(trap string) string {
	p := payload(trap)
	return `,
 {"cell_type": "markdown", "id": "hm", "metadata": {}, "source": "<script>\ud83e` + p + `</script>\udc01<img src=x onerror=\"\udc02` + p + `\">"},
 {"cell_type": "code", "id": "hc", "metadata": {}, "execution_count": 2, "source": "s = '</script>\ud806<script>` + p + `</script>'", "outputs": [
  {"output_type": "display_data", "metadata": {}, "data": {"text/html": "<img src=x onerror=\"` + p + `\">\ud807<script>` + p + `</script>"}},
  {"output_type": "execute_result", "execution_count": 2, "metadata": {}, "data": {"text/plain": "<script>\ud808` + p + `</script>"}}
 ]}`
}

func TestBrowserSurrogatesShownAsEscapes(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	d := readNotebook(t, []byte(fmt.Sprintf(surrogateNotebook, hostileSurrogates(tab.Trap()))))
	var b bytes.Buffer
	if err := Notebook(&b, d, Options{Title: "s \xed\xa0\x90"}); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b.Bytes()) {
		t.Errorf("the page is not valid UTF-8")
	}
	p := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(p, b.Bytes(), 0o666)
	openRendered(tab, p)
	text := browsertest.Eval[string](tab, `document.title + "\n" + document.body.innerText + "\n" + [...document.querySelectorAll("iframe")].map(f => f.getAttribute("srcdoc")).join("\n")`)
	// Each escape as the notebook's JSON writes it (Python's json too).
	for _, want := range []string{`\ud83d`, `\udc00`, `\ud800`, `\ud801`, `\ud804`, `\ud810`, `\ud805`, `\udfff`, `\ud83e`, `\udc01`, `\ud806`, `\ud808`} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
	if strings.ContainsRune(text, utf8.RuneError) {
		t.Errorf("the page shows U+FFFD:\n%s", text)
	}
	// The planted markup arrived (as text, or inside the sandboxed frame)
	// and did nothing.
	if !strings.Contains(text, "<script>") || !strings.Contains(text, "window.__pwned") {
		t.Errorf("the hostile cells are not on the page:\n%s", text)
	}
	inert(t, tab)
	tab.Screenshot("surrogates", true)
}
