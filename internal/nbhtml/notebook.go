package nbhtml

// Notebook, the page of a notebook: its title and summary, then each message as
// a cell, past Lazy cells rendered lazily.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/nbdialog/ipynb/dialog"
)

// Options configures a notebook page. The zero value is ready to use.
type Options struct {
	// Title is the page's title and heading (default: the dialog's
	// Name, else "notebook"). It is text: any HTML in it is shown, not
	// obeyed.
	Title string
	// Lazy is the number of cells written into the page as HTML; those
	// after it are rendered by the page's script as they scroll into
	// view, so that a page of thousands of cells opens at once. 0 means
	// DefaultLazy; a negative number, never (all cells as HTML).
	Lazy int
	// Live makes the page of a local server (ipynb web): it calls back
	// to its origin to say it is open (assets/live.js).
	Live bool
}

// DefaultLazy is Options.Lazy's default: pages of up to this many cells
// are plain HTML, readable without scripts.
const DefaultLazy = 400

// Notebook writes the page of dialog d (a notebook read with package
// convert) to w: its name, then each message as a cell — notes as
// Markdown, prompts as the question and the reply, code highlighted with
// its execution count and outputs, raw cells as text. An error is w's.
func Notebook(w io.Writer, d *dialog.Dialog, o Options) error {
	lazy := lazyFrom(o.Lazy, len(d.Messages))
	pol := Policy{}
	if lazy < len(d.Messages) {
		pol.Scripts = []string{lazyJS}
	}
	pol = pol.live(o.Live)
	p := newPage(w, pol)
	p.lang = Language(d.Meta)
	title := pageTitle(o.Title, d.Name)
	p.head(title, "")
	p.s(`<div class="nb-page">` + "\n")
	p.s(`<header class="nb-head"><h1>`)
	p.text(title)
	p.s(`</h1><div class="nb-sub">`)
	p.text(summaryLine(d, p.lang))
	p.s("</div></header>\n<main class=\"nb-cells\">\n")
	for i, m := range d.Messages {
		if i == lazy {
			p.beginLazy()
		}
		p.lazyCell(i >= lazy, cellID(i), estimateHeight(m), func() { p.cell(i, m) })
	}
	if lazy < len(d.Messages) {
		p.endLazy()
	}
	p.s("</main>\n</div>\n")
	return p.foot()
}

// lazyFrom is the index of the first cell rendered lazily.
func lazyFrom(opt, n int) int {
	switch {
	case opt < 0:
		return n
	case opt == 0:
		opt = DefaultLazy
	}
	return min(opt, n)
}

func pageTitle(title, name string) string {
	switch {
	case title != "":
		return title
	case name != "":
		return name
	}
	return "notebook"
}

// summaryLine counts a dialog's messages by kind.
func summaryLine(d *dialog.Dialog, lang string) string {
	counts := map[dialog.Kind]int{}
	for _, m := range d.Messages {
		counts[m.Kind]++
	}
	parts := []string{plural(len(d.Messages), "cell")}
	for _, k := range []struct {
		kind dialog.Kind
		name string
	}{{dialog.Code, "code"}, {dialog.Note, "note"}, {dialog.Prompt, "prompt"}, {dialog.Raw, "raw"}} {
		if n := counts[k.kind]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k.name))
		}
	}
	if lang != "" {
		parts = append(parts, lang)
	}
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// cellID is the page's anchor of cell i.
func cellID(i int) string { return "nb-c" + strconv.Itoa(i+1) }

// cell writes message i as a cell.
func (p *page) cell(i int, m *dialog.Message) {
	kind := string(m.Kind)
	p.s(`<section class="nb-cell nb-` + kindClass(m.Kind) + `-cell" id="` + cellID(i) + `" data-kind="`)
	p.text(kind)
	if m.ID != "" {
		p.s(`" data-id="`)
		p.text(m.ID)
	}
	p.s(`">` + "\n" + `<div class="nb-gutter"><a href="#` + cellID(i) + `" title="cell ` + strconv.Itoa(i+1))
	if m.ID != "" {
		p.s(", id ")
		p.text(m.ID)
	}
	p.s(`">`)
	p.s(gutterLabel(m))
	p.s("</a></div>\n<div class=\"nb-body\">\n")
	p.message(m)
	p.s("</div>\n</section>\n")
}

// message writes a message's content, reply and outputs.
func (p *page) message(m *dialog.Message) {
	switch m.Kind {
	case dialog.Code:
		p.s(`<div class="nb-input">`)
		p.s(p.hl.code(p.lang, m.Content))
		p.s("</div>\n")
		p.outputs(m, m.Outputs)
	case dialog.Note:
		p.md(m.Content, m.Attachments)
	case dialog.Prompt:
		p.s(`<div class="nb-question">`)
		p.md(m.Content, m.Attachments)
		p.s("</div>\n")
		if r := m.Reply(); r != "" {
			p.s(`<div class="nb-reply"><div class="nb-reply-label">reply</div>`)
			p.md(r, m.Attachments)
			p.s("</div>\n")
		}
		p.outputs(m, nonReply(m.Outputs))
	default: // raw cells, and kinds this package does not know
		p.s(`<pre class="nb-raw">`)
		p.text(m.Content)
		p.s("</pre>\n")
	}
}

// nonReply are outputs but the first reply (shown as the reply).
func nonReply(outs []dialog.Output) []dialog.Output {
	for i, o := range outs {
		if o.IsReply() {
			return append(outs[:i:i], outs[i+1:]...)
		}
	}
	return outs
}

// md writes Markdown text.
func (p *page) md(src string, atts []dialog.Attachment) {
	p.s(`<div class="nb-md">`)
	renderMarkdown(p.w, src, atts, p.ids, p.hl)
	p.s("</div>\n")
}

func kindClass(k dialog.Kind) string {
	switch k {
	case dialog.Code, dialog.Note, dialog.Prompt, dialog.Raw:
		return string(k)
	}
	return "other"
}

// gutterLabel is what the cell's gutter shows: the execution count of
// code ([ ] when not run), the kind of the others.
func gutterLabel(m *dialog.Message) string {
	switch m.Kind {
	case dialog.Code:
		if m.ExecutionCount != nil {
			return "[" + strconv.Itoa(*m.ExecutionCount) + "]"
		}
		return "[ ]"
	case dialog.Prompt, dialog.Raw:
		return `<span class="nb-label">` + string(m.Kind) + "</span>"
	case dialog.Note:
		return ""
	}
	// A kind this package does not know is the notebook's text: cut to
	// what a gutter holds, whole in the label's title.
	k := string(m.Kind)
	if r := []rune(k); len(r) > 12 {
		k = string(r[:11]) + "…"
	}
	return `<span class="nb-label" title="` + escapeString(string(m.Kind)) + `">` + escapeString(k) + "</span>"
}

// Language is a notebook's code language, from its metadata: the
// kernel's, else language_info's; Solveit dialogs run Python. "" when
// it says none.
func Language(meta map[string]any) string {
	word := func(v any) string {
		s, _ := v.(string)
		if s == "" || len(s) > 64 || strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
			return ""
		}
		return s
	}
	if ks, ok := decodeObject(meta["kernelspec"]); ok {
		if l := word(ks["language"]); l != "" {
			return l
		}
	}
	if li, ok := decodeObject(meta["language_info"]); ok {
		if l := word(li["name"]); l != "" {
			return l
		}
	}
	for _, k := range []string{"solveit_ver", "solveit_dialog_mode", "ipyai_version"} {
		if _, ok := meta[k]; ok {
			return "python"
		}
	}
	return ""
}
