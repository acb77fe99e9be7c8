package nbhtml

// The page writer: the Content-Security-Policy of each kind of page, the
// document's head and foot, escaped text.

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

//go:embed assets/page.css
var pageCSS string

// Policy is what a page may do beyond showing itself: the sources its
// Content-Security-Policy allows.
type Policy struct {
	// Scripts are the page's own scripts (each allowed by its hash).
	Scripts []string
	// Connect allows requests back to the page's own origin (fetch):
	// for pages served by `ipynb web`, never for files.
	Connect bool
}

// CSP is the Content-Security-Policy of a page with policy p: nothing
// from anywhere (default-src 'none'), images and fonts only from data
// URLs, styles only inline (the page's and those of HTML outputs, which
// sit in sandboxed frames), scripts only the page's own, by hash (none
// when it has none), no base URL, no form submission, frames only from
// srcdoc (which loads nothing), and requests only to the page's origin
// when p.Connect.
func (p Policy) CSP() string {
	script := "'none'"
	if len(p.Scripts) > 0 {
		var hs []string
		for _, s := range p.Scripts {
			sum := sha256.Sum256([]byte(s))
			hs = append(hs, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		}
		script = strings.Join(hs, " ")
	}
	connect := ""
	if p.Connect {
		connect = " connect-src 'self';"
	}
	return "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; script-src " + script + ";" +
		connect + " frame-src 'none'; child-src 'none'; base-uri 'none'; form-action 'none'"
}

// ServedCSP is the Content-Security-Policy header of the pages a local
// server (ipynb web) serves: the policy of every live page this package
// makes — their own scripts by hash, requests to their origin — and no
// framing of them by any page (frame-ancestors, which a meta tag cannot
// say). A browser holds a page to both this header and the page's own
// policy (its meta tag), so each page keeps the stricter of the two.
func ServedCSP() string {
	return Policy{Scripts: []string{lazyJS, diffJS, mergeJS, liveJS}, Connect: true}.CSP() + "; frame-ancestors 'none'"
}

//go:embed assets/live.js
var liveJS string

// live is p for the page of a local server when on: its script that
// says the page is open, and requests to its origin.
func (p Policy) live(on bool) Policy {
	if on {
		p.Scripts = append(p.Scripts, liveJS)
		p.Connect = true
	}
	return p
}

// overrideCSS follows the code style sheet: chroma marks what its lexers
// do not know (IPython magics, #! directives) as errors, in red; a
// notebook's code is shown as plain there.
const overrideCSS = ".chroma .err { color: inherit; background: none; }\n"

// page writes one HTML page.
type page struct {
	w      *bufio.Writer
	ids    map[string]int // heading ids used so far
	lang   string         // the notebook's code language
	policy Policy
	hl     *highlighter // the page's code highlighting
}

func newPage(w io.Writer, p Policy) *page {
	return &page{w: bufio.NewWriterSize(w, 64<<10), ids: map[string]int{}, policy: p, hl: newHighlighter()}
}

// head writes the document up to the start of its body's content.
func (p *page) head(title, extraCSS string) {
	p.s("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	p.s(`<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(p.policy.CSP()) + "\">\n")
	p.s("<meta name=\"referrer\" content=\"no-referrer\">\n")
	p.s("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p.s("<meta name=\"generator\" content=\"ipynb (github.com/nbdialog/ipynb)\">\n")
	p.s("<title>")
	p.text(title)
	p.s("</title>\n<style>\n")
	p.s(pageCSS)
	p.s(codeCSS())
	p.s(overrideCSS)
	p.s(extraCSS)
	p.s("</style>\n</head>\n<body>\n")
}

// foot writes the page's scripts and ends the document.
func (p *page) foot() error {
	for _, s := range p.policy.Scripts {
		p.s("<script>" + s + "</script>\n")
	}
	p.s("</body>\n</html>\n")
	return p.w.Flush()
}

func (p *page) s(s string) { p.w.WriteString(s) }

// text writes s escaped.
func (p *page) text(s string) { writeEscaped(p.w, s) }

// writeEscaped writes s escaped for HTML text and attribute values,
// without building the escaped copy (outputs may be large). Bytes that
// are not UTF-8 (a lone surrogate's WTF-8 bytes) are shown as every text
// form shows them (jsonvalue.Shown): a page is always valid UTF-8.
func writeEscaped(w *bufio.Writer, s string) {
	if !utf8.ValidString(s) {
		s = jsonvalue.Shown(s)
	}
	for len(s) > 0 {
		i := strings.IndexAny(s, "<>&\"'\x00")
		if i < 0 {
			w.WriteString(s)
			return
		}
		w.WriteString(s[:i])
		switch s[i] {
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '&':
			w.WriteString("&amp;")
		case '"':
			w.WriteString("&#34;")
		case '\'':
			w.WriteString("&#39;")
		case 0:
			w.WriteString("\uFFFD")
		}
		s = s[i+1:]
	}
}
