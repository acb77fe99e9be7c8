package nbhtml

// A diff page's changed cell: its parts, Markdown rendered before and after,
// attachments and metadata compared.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

// One change on a diff page: a section marked added, removed, moved or
// changed, with a header naming the cell and what changed, then:
// an added or removed cell as the notebook page shows it; a changed one
// part by part — its kind, its text as a line diff (notes and prompts
// also rendered before and after), its reply, its execution count, its
// outputs (diffout.go), its attachments and metadata (changed values,
// nested keys by their path). A cell whose text did not change shows its
// text as it is, so that the changed outputs have their code beside
// them.

// diffItem writes a change.
func (p *page) diffItem(a, b *dialog.Dialog, it diffItem) {
	switch it.kind {
	case itemMeta:
		p.s(`<section class="nb-dcell nb-k-meta" id="` + it.id + `"><div class="nb-dhead"><span class="nb-badge">metadata</span> notebook metadata changed</div>`)
		p.metaDiff(it.c.Keys, a.Meta, b.Meta)
		p.s("</section>\n")
		return
	case itemMovedTo:
		c := it.c
		p.s(`<div class="nb-movedto">cell ` + strconv.Itoa(c.AIndex+1) + ` of the old notebook was here: moved to <a href="#` + cellID(c.BIndex) + `">cell ` + strconv.Itoa(c.BIndex+1) + "</a></div>\n")
		return
	}
	c := it.c
	m := c.B
	if m == nil {
		m = c.A
	}
	class := strings.ToLower(c.Kind.String())
	p.s(`<section class="nb-dcell nb-k-` + class + `" id="` + it.id + `" data-kind="`)
	p.text(string(m.Kind))
	p.s(`">`)
	if c.BIndex >= 0 {
		p.s(`<a id="` + cellID(c.BIndex) + `"></a>`)
	}
	p.s(`<div class="nb-dhead"><span class="nb-badge">`)
	p.text(c.Kind.String())
	p.s(`</span> `)
	p.text(changeTitle(it))
	if m.ID != "" {
		p.s(` <span class="nb-cid">id `)
		p.text(m.ID)
		p.s(`</span>`)
	}
	p.s("</div>\n")
	switch c.Kind {
	case dialog.Added, dialog.Removed:
		p.s(`<div class="nb-dbody">`)
		p.inputLine(m)
		p.message(m)
		p.s("</div>\n")
	default:
		p.s(`<div class="nb-dbody">`)
		p.partsDiff(a, b, c)
		p.s("</div>\n")
	}
	p.s("</section>\n")
}

// inputLine writes the execution count of a code cell shown whole.
func (p *page) inputLine(m *dialog.Message) {
	if m.Kind == dialog.Code {
		p.s(`<div class="nb-count">` + gutterLabel(m) + "</div>")
	}
}

// partsDiff writes the parts of a changed (or moved) message.
func (p *page) partsDiff(a, b *dialog.Dialog, c *dialog.Change) {
	ma, mb := c.A, c.B
	if c.Parts&dialog.PartID != 0 {
		p.fact("id", idOrNone(ma.ID), idOrNone(mb.ID))
	}
	if c.Parts&dialog.PartKind != 0 {
		p.fact("kind", string(ma.Kind), string(mb.Kind))
	}
	if c.Parts&dialog.PartCount != 0 {
		p.fact("execution count", countOrNone(ma.ExecutionCount), countOrNone(mb.ExecutionCount))
	}
	if c.Parts&dialog.PartContent != 0 {
		p.s(`<div class="nb-part">text</div>`)
		p.textDiff(ma.Content, mb.Content)
		if isMarkdown(ma.Kind) && isMarkdown(mb.Kind) {
			p.renderedPair(ma.Content, mb.Content, ma.Attachments, mb.Attachments)
		}
	} else if c.Parts != 0 {
		// The text as it is, beside what else changed.
		switch mb.Kind {
		case dialog.Code:
			p.s(`<div class="nb-input">` + p.hl.code(p.lang, mb.Content) + "</div>")
		case dialog.Note, dialog.Prompt:
			p.md(mb.Content, mb.Attachments)
		default:
			p.s(`<pre class="nb-raw">`)
			p.text(mb.Content)
			p.s("</pre>")
		}
	}
	if c.Parts&dialog.PartReply != 0 {
		p.s(`<div class="nb-part">reply</div>`)
		p.textDiff(ma.Reply(), mb.Reply())
		p.renderedPair(ma.Reply(), mb.Reply(), ma.Attachments, mb.Attachments)
	}
	if c.Parts&dialog.PartOutputs != 0 {
		p.s(`<div class="nb-part">outputs</div>`)
		p.outputsDiff(ma, mb)
	} else if c.Parts != 0 && mb.Kind == dialog.Code && len(mb.Outputs) > 0 {
		p.s(`<details class="nb-sameouts"><summary>outputs (unchanged)</summary>`)
		p.outputs(mb, mb.Outputs)
		p.s("</details>")
	}
	if c.Parts&dialog.PartAttachments != 0 {
		p.attachmentsDiff(ma.Attachments, mb.Attachments)
	}
	if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
		var meta, attrs []string
		for _, k := range c.Keys {
			if n, ok := strings.CutPrefix(k, "attr:"); ok {
				attrs = append(attrs, n)
			} else {
				meta = append(meta, k)
			}
		}
		p.metaDiff(meta, ma.Meta, mb.Meta)
		p.metaDiff(attrs, ma.Attrs, mb.Attrs)
	}
	if c.Parts == 0 { // moved, nothing else changed
		p.s(`<details class="nb-movedcell"><summary>the cell</summary>`)
		p.message(mb)
		p.s("</details>")
	}
}

func isMarkdown(k dialog.Kind) bool { return k == dialog.Note || k == dialog.Prompt }

func idOrNone(id string) string {
	if id == "" {
		return "none"
	}
	return id
}

func countOrNone(n *int) string {
	if n == nil {
		return "none"
	}
	return strconv.Itoa(*n)
}

// fact writes "what: before → after".
func (p *page) fact(what, before, after string) {
	p.s(`<div class="nb-fact"><span class="nb-part">`)
	p.text(what)
	p.s(`</span> <del>`)
	p.text(before)
	p.s(`</del> → <ins>`)
	p.text(after)
	p.s("</ins></div>")
}

// renderedPair writes Markdown before and after, rendered side by side.
func (p *page) renderedPair(a, b string, atta, attb []dialog.Attachment) {
	p.s(`<details class="nb-rendered" open><summary>rendered</summary><div class="nb-pair"><div class="nb-before"><div class="nb-side">before</div>`)
	p.md(a, atta)
	p.s(`</div><div class="nb-after"><div class="nb-side">after</div>`)
	p.md(b, attb)
	p.s("</div></div></details>")
}

// attachmentsDiff lists attachments added, removed or changed.
func (p *page) attachmentsDiff(a, b []dialog.Attachment) {
	p.s(`<div class="nb-part">attachments</div><ul class="nb-meta">`)
	names := map[string]bool{}
	for _, x := range a {
		names[x.ID] = true
	}
	for _, x := range b {
		names[x.ID] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		xa, xb := findAttachment(a, k), findAttachment(b, k)
		desc := func(x *dialog.Attachment) string {
			if x == nil {
				return "none"
			}
			return x.MIME + ", " + sizeText(len(x.Data))
		}
		if xa != nil && xb != nil && xa.MIME == xb.MIME && string(xa.Data) == string(xb.Data) {
			continue
		}
		p.s("<li><code>")
		p.text(k)
		p.s("</code>: <del>")
		p.text(desc(xa))
		p.s("</del> → <ins>")
		p.text(desc(xb))
		p.s("</ins></li>")
	}
	p.s("</ul>")
}

// metaDiff writes the changed values of keys in metadata a and b, nested
// objects compared key by key (a changed nested key named by its path:
// colab.height).
func (p *page) metaDiff(keys []string, a, b map[string]any) {
	if len(keys) == 0 {
		return
	}
	p.s(`<div class="nb-part">metadata</div><ul class="nb-meta">`)
	for _, k := range keys {
		va, hasA := a[k]
		vb, hasB := b[k]
		var leaves []leafChange
		diffValues(k, generic(va), generic(vb), hasA, hasB, &leaves)
		for _, l := range leaves {
			p.s("<li><code>")
			p.text(l.path)
			p.s("</code>: <del>")
			p.text(l.a)
			p.s("</del> → <ins>")
			p.text(l.b)
			p.s("</ins></li>")
		}
	}
	p.s("</ul>")
}

type leafChange struct{ path, a, b string }

// generic is a metadata value as generic JSON (json.RawMessage decoded).
func generic(v any) any {
	if raw, ok := v.(json.RawMessage); ok {
		var g any
		if json.Unmarshal(raw, &g) == nil {
			return g
		}
	}
	return v
}

// diffValues collects the leaves that differ between a and b.
func diffValues(path string, a, b any, hasA, hasB bool, out *[]leafChange) {
	oa, okA := a.(map[string]any)
	ob, okB := b.(map[string]any)
	if okA && okB && hasA && hasB {
		keys := map[string]bool{}
		for k := range oa {
			keys[k] = true
		}
		for k := range ob {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			va, ha := oa[k]
			vb, hb := ob[k]
			diffValues(path+"."+k, va, vb, ha, hb, out)
		}
		return
	}
	ja, jb := jsonText(a, hasA), jsonText(b, hasB)
	if ja != jb {
		*out = append(*out, leafChange{path, ja, jb})
	}
}

// jsonText is a value as compact JSON ("absent" when there is none),
// shortened past 200 characters.
func jsonText(v any, has bool) string {
	if !has {
		return "absent"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if r := []rune(string(b)); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return string(b)
}
