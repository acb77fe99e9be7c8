package nbhtml

// Merge, the merge page of `ipynb web`: each conflict with its choices.

import (
	_ "embed"
	"io"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

//go:embed assets/merge.js
var mergeJS string

// A merge page: the conflicts a three-way merge left, each with its base,
// ours and theirs, to resolve by choosing ours, theirs or both, or by
// editing. It is served by `ipynb web --merge`, whose server applies the
// choices, checks the notebook they make (shown live: how many conflicts
// are left, whether the notebook is valid) and saves it. The page's
// script (assets/merge.js) posts the choices to the page's origin as
// JSON: {"resolutions": [{"choice": "ours"|"theirs"|"both"|"edit"|"",
// "text": "…"}, …]} to "check" and to "save", which answer
// {"resolved": N, "total": N, "valid": bool, "problems": ["…"],
// "saved": "…", "error": "…"}. The texts an editor starts with or a
// choice puts in it are carried as JSON strings (data-value attributes),
// exactly: HTML cannot hold a lone surrogate, a JavaScript string can,
// and the text the page posts back escapes it again.

// MergeConflict is one conflict as a merge page shows it.
type MergeConflict struct {
	// Title names the conflict: where, and what part.
	Title string
	// Text says the part is text (a cell's content or reply), resolved
	// in an editor that starts with Merged (both versions between
	// conflict markers) and that the choices fill; otherwise the choices
	// decide (Merged is then what the notebook holds until then).
	Text bool
	// Base, Ours and Theirs are the part's three versions, as text (for
	// parts that are not text: a description of each value).
	Base, Ours, Theirs string
	// Merged: see Text.
	Merged string
	// Choices are the choices offered, of "ours", "theirs", "both", each
	// with its label (e.g. "delete the cell").
	Choices []MergeChoice
}

// MergeChoice is one choice of a conflict.
type MergeChoice struct {
	Value, Label string
	// Text is what the choice puts in the editor of a text conflict.
	Text string
}

// MergeOptions configures a merge page.
type MergeOptions struct {
	// Names of base, ours and theirs (text).
	Base, Ours, Theirs string
	// Target is the file saving writes (text).
	Target string
}

// Merge writes the merge page of conflicts to w. The page is live (see
// Options.Live): it runs only as the page of `ipynb web`.
func Merge(w io.Writer, conflicts []MergeConflict, o MergeOptions) error {
	p := newPage(w, Policy{Scripts: []string{mergeJS}}.live(true))
	p.head("merge: "+o.Target, diffCSS)
	p.s(`<div class="nb-page">` + "\n" + `<header class="nb-head"><h1>merge into `)
	p.text(o.Target)
	p.s(`</h1><div class="nb-sub">base `)
	p.text(o.Base)
	p.s(` · ours `)
	p.text(o.Ours)
	p.s(` · theirs `)
	p.text(o.Theirs)
	p.s(`</div><div class="nb-tools nb-mergebar"><span class="nb-status" aria-live="polite">` + plural(len(conflicts), "conflict") +
		`</span> <button type="button" class="nb-save">Save</button> <span class="nb-saved"></span></div></header>` + "\n<main>\n")
	if len(conflicts) == 0 {
		p.s(`<p class="nb-note">No conflicts: the merge is clean. Save writes it.</p>`)
	}
	for i, c := range conflicts {
		n := strconv.Itoa(i + 1)
		p.s(`<section class="nb-dcell nb-k-changed nb-conflict" id="nb-x` + n + `" data-text="` + strconv.FormatBool(c.Text) + `">`)
		p.s(`<div class="nb-dhead"><span class="nb-badge">conflict ` + n + `</span> `)
		p.text(c.Title)
		p.s(` <span class="nb-cstate">unresolved</span></div><div class="nb-dbody">`)
		p.s(`<div class="nb-three"><div><div class="nb-side">base</div><pre class="nb-version">`)
		p.text(c.Base)
		p.s(`</pre></div><div><div class="nb-side">ours</div>`)
		p.versionDiff(c.Text, c.Base, c.Ours)
		p.s(`</div><div><div class="nb-side">theirs</div>`)
		p.versionDiff(c.Text, c.Base, c.Theirs)
		p.s(`</div></div><div class="nb-choices">`)
		for _, ch := range c.Choices {
			p.s(`<button type="button" class="nb-choice" data-choice="`)
			p.text(ch.Value)
			p.s(`" data-value="`)
			p.jsonText(ch.Text)
			p.s(`">`)
			p.text(ch.Label)
			p.s(`</button> `)
		}
		p.s(`</div>`)
		if c.Text {
			p.s(`<textarea class="nb-editor" spellcheck="false" rows="` + strconv.Itoa(min(max(lines(c.Merged)+1, 4), 30)) + `" aria-label="the resolved text" data-value="`)
			p.jsonText(c.Merged)
			p.s(`">`)
			p.text(c.Merged)
			p.s(`</textarea>`)
		}
		p.s("</div></section>\n")
	}
	p.s("</main>\n</div>\n")
	return p.foot()
}

// jsonText writes s as a JSON string, escaped for an attribute value.
func (p *page) jsonText(s string) { p.text(string(jsonvalue.AppendQuoted(nil, s))) }

// versionDiff writes a side's version: as its diff from base for text,
// as it is otherwise.
func (p *page) versionDiff(text bool, base, v string) {
	if text && base != "" && base != v {
		p.textDiff(base, v)
		return
	}
	p.s(`<pre class="nb-version">`)
	p.text(v)
	p.s(`</pre>`)
}

func lines(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
