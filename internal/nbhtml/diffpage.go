package nbhtml

// Diff, the page of the changes between two notebooks: its items in page order,
// summary and list of changes.

import (
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

//go:embed assets/diff.css
var diffCSS string

//go:embed assets/diff.js
var diffJS string

// DiffOptions configures a diff page. The zero value is ready to use.
type DiffOptions struct {
	// NameA and NameB name the two notebooks (text, shown as is).
	NameA, NameB string
	// Live makes the page of a local server (see Options.Live).
	Live bool
}

// Diff writes the page of the changes from notebook a to notebook b:
// changes are those dialog.Diff (or convert.Diff, which matches cells as
// `ipynb diff` does) found between a and b, whose AIndex and BIndex are
// positions in a's and b's messages. The page shows b's cells in order,
// with the removed ones where they were; each added, removed, moved or
// changed cell is marked and listed at the top (n and p jump between
// them), its changes shown side by side or unified (a toggle); runs of
// unchanged cells are collapsed. It is as inert and self-contained as a
// notebook page (see the package doc); its one script (toggles, jumps,
// the image swipe) is the page's own.
func Diff(w io.Writer, a, b *dialog.Dialog, changes []dialog.Change, o DiffOptions) error {
	p := newPage(w, Policy{Scripts: []string{diffJS}}.live(o.Live))
	p.lang = Language(b.Meta)
	if p.lang == "" {
		p.lang = Language(a.Meta)
	}
	nameA, nameB := pageTitle(o.NameA, a.Name), pageTitle(o.NameB, b.Name)
	p.head(nameA+" → "+nameB, diffCSS)
	items := diffItems(a, b, changes)
	p.s(`<input type="radio" name="nb-view" id="nb-view-sbs" class="nb-toggle" checked>` +
		`<input type="radio" name="nb-view" id="nb-view-uni" class="nb-toggle">` + "\n")
	p.s(`<div class="nb-page">` + "\n" + `<header class="nb-head"><h1>`)
	p.text(nameA)
	p.s(` <span class="nb-arrow">→</span> `)
	p.text(nameB)
	p.s(`</h1><div class="nb-sub">`)
	p.text(diffSummary(items, len(b.Messages)))
	p.s(`</div><div class="nb-tools">view: <label for="nb-view-sbs">side by side</label> <label for="nb-view-uni">unified</label>` +
		` · <button type="button" class="nb-prev" title="previous change (p)">↑ previous</button> <button type="button" class="nb-next" title="next change (n)">↓ next</button>` +
		` · <button type="button" class="nb-expand">show unchanged cells</button></div>`)
	p.changeList(items)
	p.s("</header>\n<main class=\"nb-cells\">\n")
	if len(changes) == 0 {
		p.s(`<p class="nb-note nb-nochange">The notebooks have the same cells, outputs and metadata.</p>`)
	}
	for i := 0; i < len(items); i++ {
		it := items[i]
		if it.kind != itemSame {
			p.diffItem(a, b, it)
			continue
		}
		j := i
		for j+1 < len(items) && items[j+1].kind == itemSame {
			j++
		}
		p.sameRun(b, items[i:j+1])
		i = j
	}
	p.s("</main>\n</div>\n")
	return p.foot()
}

// The kinds of items of a diff page.
const (
	itemSame    = iota // a cell in both, unchanged
	itemChange         // a change (dialog.Change)
	itemMovedTo        // where a moved cell was
	itemMeta           // the notebook metadata changed
)

// diffItem is one entry of a diff page, in page order.
type diffItem struct {
	kind int
	c    *dialog.Change
	b    int    // the cell's position in b (itemSame)
	id   string // the anchor of a change
}

// diffItems lays the changes out in page order: b's cells, each removed
// cell after the cell that came before it in a (the same, or changed in
// place), the place a moved cell left marked there too.
func diffItems(a, b *dialog.Dialog, changes []dialog.Change) []diffItem {
	inA := map[int]*dialog.Change{}
	inB := map[int]*dialog.Change{}
	var meta []diffItem
	for i := range changes {
		c := &changes[i]
		if c.A == nil && c.B == nil {
			meta = append(meta, diffItem{kind: itemMeta, c: c})
			continue
		}
		if c.AIndex >= 0 {
			inA[c.AIndex] = c
		}
		if c.BIndex >= 0 {
			inB[c.BIndex] = c
		}
	}
	// Unchanged cells keep their order: pair them up.
	var sameA, sameB []int
	for i := range a.Messages {
		if inA[i] == nil {
			sameA = append(sameA, i)
		}
	}
	for i := range b.Messages {
		if inB[i] == nil {
			sameB = append(sameB, i)
		}
	}
	toB := map[int]int{}
	for k := range min(len(sameA), len(sameB)) {
		toB[sameA[k]] = sameB[k]
	}
	// anchor is the position in b after which a's cell i is shown.
	anchor := func(i int) int {
		for k := i - 1; k >= 0; k-- {
			if bi, ok := toB[k]; ok {
				return bi
			}
			if c := inA[k]; c != nil && c.Kind == dialog.Changed {
				return c.BIndex
			}
		}
		return -1
	}
	after := map[int][]diffItem{}
	for i := range a.Messages {
		switch c := inA[i]; {
		case c == nil:
		case c.Kind == dialog.Removed:
			after[anchor(i)] = append(after[anchor(i)], diffItem{kind: itemChange, c: c})
		case c.Kind == dialog.Moved:
			after[anchor(i)] = append(after[anchor(i)], diffItem{kind: itemMovedTo, c: c})
		}
	}
	items := append(meta, after[-1]...)
	for i := range b.Messages {
		if c := inB[i]; c != nil {
			items = append(items, diffItem{kind: itemChange, c: c})
		} else {
			items = append(items, diffItem{kind: itemSame, b: i})
		}
		items = append(items, after[i]...)
	}
	n := 0
	for i := range items {
		if items[i].kind == itemChange || items[i].kind == itemMeta {
			n++
			items[i].id = "nb-d" + strconv.Itoa(n)
		}
	}
	return items
}

// diffSummary counts the changes.
func diffSummary(items []diffItem, cells int) string {
	counts := map[dialog.ChangeKind]int{}
	meta := false
	for _, it := range items {
		switch it.kind {
		case itemChange:
			counts[it.c.Kind]++
		case itemMeta:
			meta = true
		}
	}
	parts := []string{plural(cells, "cell")}
	for _, k := range []dialog.ChangeKind{dialog.Changed, dialog.Added, dialog.Removed, dialog.Moved} {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	if meta {
		parts = append(parts, "notebook metadata changed")
	}
	if len(parts) == 1 {
		parts = append(parts, "no changes")
	}
	return strings.Join(parts, " · ")
}

// changeList writes the list of changes to jump to.
func (p *page) changeList(items []diffItem) {
	var b strings.Builder
	n := 0
	for _, it := range items {
		if it.id == "" {
			continue
		}
		n++
		b.WriteString(`<li><a href="#` + it.id + `" class="nb-k-` + changeClass(it) + `">`)
		b.WriteString(escapeString(changeTitle(it)))
		b.WriteString("</a></li>")
	}
	if n == 0 {
		return
	}
	p.s(`<details class="nb-changes" open><summary>` + plural(n, "change") + `</summary><ol>` + b.String() + "</ol></details>")
}

func changeClass(it diffItem) string {
	if it.kind == itemMeta {
		return "meta"
	}
	return strings.ToLower(it.c.Kind.String())
}

// changeTitle names a change: where, what kind of cell, what changed.
func changeTitle(it diffItem) string {
	if it.kind == itemMeta {
		return "notebook metadata: " + strings.Join(it.c.Keys, ", ")
	}
	c := it.c
	m := c.B
	if m == nil {
		m = c.A
	}
	where := fmt.Sprintf("cell %d", c.BIndex+1)
	if c.BIndex < 0 {
		where = fmt.Sprintf("cell %d of the old", c.AIndex+1)
	}
	s := where + " · " + string(m.Kind) + " · "
	switch c.Kind {
	case dialog.Added, dialog.Removed:
		s += c.Kind.String()
	case dialog.Moved:
		s += fmt.Sprintf("moved from cell %d", c.AIndex+1)
		if c.Parts != 0 {
			s += ", changed " + c.Parts.String()
		}
	default:
		s += "changed " + c.Parts.String()
	}
	if lead := firstLine(m.Content, 60); lead != "" {
		s += " — " + lead
	}
	return s
}

// firstLine is the first non-blank line of s, at most n characters.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > n {
				return string(r[:n-1]) + "…"
			}
			return l
		}
	}
	return ""
}

// sameRun writes a run of unchanged cells, collapsed.
func (p *page) sameRun(b *dialog.Dialog, run []diffItem) {
	first, last := run[0].b+1, run[len(run)-1].b+1
	what := fmt.Sprintf("%s unchanged (cell %d)", plural(len(run), "cell"), first)
	if len(run) > 1 {
		what = fmt.Sprintf("%s unchanged (cells %d–%d)", plural(len(run), "cell"), first, last)
	}
	p.s(`<details class="nb-same"><summary>` + what + "</summary>\n")
	for _, it := range run {
		p.cell(it.b, b.Messages[it.b])
	}
	p.s("</details>\n")
}
