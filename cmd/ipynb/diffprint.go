package main

// The cell-level diff as text: the changes dialog.Diff finds, each
// under a header naming the message, with its parts shown as line diffs.

import (
	"fmt"
	"io"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/nbformat"
)

// differ prints changes.
type differ struct {
	color   bool
	safe    bool // control characters shown, not obeyed (terminal.go)
	context int
	caps    outCaps         // what is shown under output summaries (diffout.go)
	hide    shownParts      // the parts not shown (diffshow.go)
	ids     map[string]bool // ids the files hold (others were made up)
	// The notebooks' metadata (a Change of it carries only the keys).
	metaA, metaB map[string]any
	// The cell ids the files hold, by cell (read when an id changed).
	cellIDs [2][]nbformat.CellID
	// Lines written after the names (git's mode change).
	afterNames []string
}

// changes compares two notebook texts; nil stands for no notebook (all
// cells added or removed). An input that is not a notebook is a
// *convert.Error (Op "merge") (Input "a" or "b").
func (d *differ) changes(a, b []byte) ([]dialog.Change, error) {
	var err error
	switch {
	case a == nil && b == nil:
		return nil, nil
	case a == nil:
		if a, err = emptyLike(b); err != nil {
			return nil, &convert.Error{Op: "merge", Input: "b", Err: err}
		}
	case b == nil:
		if b, err = emptyLike(a); err != nil {
			return nil, &convert.Error{Op: "merge", Input: "a", Err: err}
		}
	}
	cs, err := convert.Diff(a, b)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(cs))
	meta, idChanged := false, false
	for _, c := range cs {
		ids = append(ids, c.ID)
		meta = meta || c.A == nil && c.B == nil
		idChanged = idChanged || c.Parts&dialog.PartID != 0
	}
	d.ids = realIDs(ids, a, b)
	if idChanged {
		// The ids as the files hold them (a repeated one is made up
		// when read, but it is what the file says).
		for i, data := range [2][]byte{a, b} {
			if nb, err := nbformat.Unmarshal(data); err == nil {
				for _, c := range nb.Cells {
					d.cellIDs[i] = append(d.cellIDs[i], nbformat.CellIDOf(c))
				}
			}
		}
	}
	if meta {
		// The notebooks' metadata, which a Change of it does not carry.
		if da, err := convert.Unmarshal(a, convert.ReadOptions{}); err == nil {
			d.metaA = da.Meta
		}
		if db, err := convert.Unmarshal(b, convert.ReadOptions{}); err == nil {
			d.metaB = db.Meta
		}
	}
	return d.refine(cs), nil
}

// emptyLike is a notebook like data with no cells and no metadata.
func emptyLike(data []byte) ([]byte, error) {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return nil, err
	}
	nb.Cells = nil
	nb.Metadata = nbformat.NotebookMetadata{}
	return nbformat.Marshal(nb)
}

// ANSI colours.
const (
	colBold  = "\x1b[1m"
	colRed   = "\x1b[31m"
	colGreen = "\x1b[32m"
	colCyan  = "\x1b[36m"
	colReset = "\x1b[0m"
)

func (d *differ) paint(w io.Writer, col, line string) {
	if d.safe {
		line = termSafe(line)
	}
	if d.color && col != "" {
		fmt.Fprintf(w, "%s%s%s\n", col, line, colReset)
		return
	}
	fmt.Fprintln(w, line)
}

// lines prints a block of text lines, coloured by their first character
// (a unified diff, or "-"/"+" lines).
func (d *differ) lines(w io.Writer, text string) {
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		col := ""
		switch {
		case strings.HasPrefix(l, "@@"):
			col = colCyan
		case strings.HasPrefix(l, "-"):
			col = colRed
		case strings.HasPrefix(l, "+"):
			col = colGreen
		}
		d.paint(w, col, l)
	}
}

// label names a message in a header.
func (d *differ) label(c dialog.Change) string {
	m := c.B
	if m == nil {
		m = c.A
	}
	s := messageHeader(m, d.ids[c.ID])
	switch c.Kind {
	case dialog.Added:
		return s + fmt.Sprintf(" (cell %d): added", c.BIndex+1)
	case dialog.Removed:
		return s + fmt.Sprintf(" (cell %d): removed", c.AIndex+1)
	case dialog.Moved:
		s += fmt.Sprintf(" (cell %d): moved from cell %d", c.BIndex+1, c.AIndex+1)
		if c.Parts != 0 {
			s += ", changed " + c.Parts.String()
		}
		return s
	}
	return s + fmt.Sprintf(" (cell %d): changed %s", c.BIndex+1, c.Parts.String())
}

// write prints changes as text.
func (d *differ) write(w io.Writer, aName, bName string, changes []dialog.Change) {
	d.writeNames(w, aName, bName)
	for _, c := range changes {
		if c.A == nil && c.B == nil {
			keys := make([]string, len(c.Keys))
			for i, k := range c.Keys {
				keys[i] = quoteText(k)
			}
			d.paint(w, colBold, headerMark+"notebook metadata: changed "+strings.Join(keys, ", "))
			d.lines(w, d.metaDiff(c.Keys, nil, nil))
			continue
		}
		d.paint(w, colBold, d.label(c))
		switch {
		case c.B == nil:
			d.lines(w, d.wholeMessage("-", c.A))
		case c.A == nil:
			d.lines(w, d.wholeMessage("+", c.B))
		default:
			d.lines(w, d.partsDiff(c))
		}
	}
}

// writeNames writes the names of the two files, and the lines that
// follow them.
func (d *differ) writeNames(w io.Writer, aName, bName string) {
	d.paint(w, colBold, "--- "+aName)
	d.paint(w, colBold, "+++ "+bName)
	for _, l := range d.afterNames {
		d.paint(w, colBold, l)
	}
}

// wholeMessage is a message added (prefix "+") or removed ("-"): the
// parts shown of its text and details, as the textconv shows them.
func (d *differ) wholeMessage(prefix string, m *dialog.Message) string {
	shown := showAll &^ d.hide
	var b strings.Builder
	if shown.has(showSources) {
		b.WriteString(prefixed(prefix, withNewline(m.Content)))
		if r := m.Reply(); r != "" {
			b.WriteString(prefix + headerMark + "reply\n")
			b.WriteString(prefixed(prefix, withNewline(r)))
		}
	}
	if shown.has(showOutputs) {
		budget := newBudget(d.caps)
		for _, v := range outViews(m) {
			b.WriteString(prefix + headerMark + "out: " + v.summary + "\n")
			lines, more := outBody(v, prefix, budget.room())
			b.WriteString(budget.show(prefix, lines, more))
		}
	}
	var details []string
	if shown.has(showAttachments) {
		details = append(details, attachmentDetails(m)...)
	}
	if shown.has(showMetadata) {
		details = append(details, metaLines("attr ", m.Attrs)...)
		details = append(details, metaLines("meta ", m.Meta)...)
	}
	for _, l := range details {
		b.WriteString(prefix + headerMark + l + "\n")
	}
	return b.String()
}

// withNewline is text ending with a newline ("" stays "").
func withNewline(text string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		return text + "\n"
	}
	return text
}

// prefixed puts p before every line of text.
func prefixed(p, text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(p + l)
		}
	}
	return b.String()
}

// hunks is the unified diff of two texts without its file headers.
func (d *differ) hunks(a, b string) string {
	if a != "" && b != "" && !strings.HasSuffix(a, "\n") && !strings.HasSuffix(b, "\n") {
		// Cell texts seldom end with a newline: no "\ No newline" noise.
		a, b = a+"\n", b+"\n"
	}
	u := textdiff.Unified("a", "b", a, b, d.context)
	if _, rest, ok := strings.Cut(u, "\n+++ b\n"); ok {
		return rest
	}
	return u
}

// partsDiff shows the parts of a message that changed.
func (d *differ) partsDiff(c dialog.Change) string {
	a, b := c.A, c.B
	var s strings.Builder
	if c.Parts&dialog.PartID != 0 {
		ia, ib := d.fileIDs(c)
		fmt.Fprintf(&s, " id: %s → %s\n", idText(ia), idText(ib))
	}
	if c.Parts&dialog.PartKind != 0 {
		fmt.Fprintf(&s, " kind: %s → %s\n", a.Kind, b.Kind)
	}
	if c.Parts&dialog.PartContent != 0 {
		s.WriteString(d.hunks(a.Content, b.Content))
	}
	if c.Parts&dialog.PartReply != 0 {
		s.WriteString(" " + headerMark + "reply\n")
		s.WriteString(d.hunks(a.Reply(), b.Reply()))
	}
	if c.Parts&dialog.PartCount != 0 {
		fmt.Fprintf(&s, " execution count: %s → %s\n", countText(a.ExecutionCount), countText(b.ExecutionCount))
	}
	if c.Parts&dialog.PartOutputs != 0 {
		s.WriteString(d.outputsDiff(a, b))
	}
	if c.Parts&dialog.PartAttachments != 0 {
		s.WriteString(d.listDiff("", attachmentLines(a), attachmentLines(b)))
	}
	if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
		s.WriteString(d.metaDiff(c.Keys, a, b))
	}
	return s.String()
}

// fileIDs returns the ids the files hold for the cells of a change
// ("" for none).
func (d *differ) fileIDs(c dialog.Change) (a, b nbformat.CellID) {
	if ids := d.cellIDs[0]; c.AIndex >= 0 && c.AIndex < len(ids) {
		a = ids[c.AIndex]
	}
	if ids := d.cellIDs[1]; c.BIndex >= 0 && c.BIndex < len(ids) {
		b = ids[c.BIndex]
	}
	return a, b
}

// idText shows a cell id as the file holds it: "none" when it has none,
// quoted when it is not a valid id.
func idText(id nbformat.CellID) string {
	switch {
	case id == "":
		return "none"
	case !cellid.Valid(string(id)):
		return quoteUnits(string(id))
	}
	return string(id)
}

func countText(n *int) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprint(*n)
}

func outputLines(m *dialog.Message) []string {
	var ls []string
	for _, o := range otherOutputs(m) {
		ls = append(ls, outputSummary(o))
	}
	return ls
}

func attachmentLines(m *dialog.Message) []string {
	var ls []string
	for _, a := range m.Attachments {
		ls = append(ls, fmt.Sprintf("attachment %s: %s, %s %s", quoteText(a.ID), quoteText(a.MIME), sizeText(len(a.Data)), digest(a.Data)))
	}
	return ls
}

// listDiff shows two lists of summary lines as a line diff (the lines
// common to both as context).
func (d *differ) listDiff(prefix string, a, b []string) string {
	join := func(ls []string) string {
		var s strings.Builder
		for _, l := range ls {
			s.WriteString(headerMark + prefix + l + "\n")
		}
		return s.String()
	}
	h := d.hunks(join(a), join(b))
	// Drop the hunk headers: the lines are not a text with line numbers.
	var s strings.Builder
	for _, l := range strings.SplitAfter(h, "\n") {
		if l != "" && !strings.HasPrefix(l, "@@") {
			s.WriteString(l)
		}
	}
	return s.String()
}

// metaOf returns the maps holding key k (metadata, or attributes for
// "attr:NAME") of messages a and b, or of the notebooks when both are
// nil, and the key in them.
func (d *differ) metaOf(k string, a, b *dialog.Message) (ma, mb map[string]any, name string) {
	if a == nil && b == nil {
		return d.metaA, d.metaB, k
	}
	if attr, ok := strings.CutPrefix(k, "attr:"); ok {
		return a.Attrs, b.Attrs, attr
	}
	return a.Meta, b.Meta, k
}

// metaDiff shows the changed metadata keys of messages a and b (nil,
// nil: of the notebooks) by nested path (diffmeta.go).
func (d *differ) metaDiff(keys []string, a, b *dialog.Message) string {
	var s strings.Builder
	for _, k := range keys {
		ma, mb, name := d.metaOf(k, a, b)
		va, hasA := ma[name]
		vb, hasB := mb[name]
		what, path := metaPrefix(k)
		for _, l := range leafChanges(path, va, vb, hasA, hasB) {
			s.WriteString(metaLine(what, l))
		}
	}
	return s.String()
}
