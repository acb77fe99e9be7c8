package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

var diffCmd = &command{
	name:    "diff",
	summary: "show the changes between two notebooks, cell by cell",
	doc: `Shows what changed from notebook A to notebook B, cell by cell: cells
are matched by id (by content in notebooks without ids); for each added,
removed, moved or changed cell, a header "## KIND ID (cell N): what",
then its text as a unified line diff, its outputs summarised (one line
each: type, contents and size, a digest), and its changed metadata keys.
Notebook metadata changes come last. Colour on a terminal (--color).

  ipynb diff [--json] [--color WHEN] [-U N] A B
  ipynb diff PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE [NEW-PATH INFO]
  ipynb diff --textconv FILE

The second form is git's diff driver (diff.ipynb.command; a missing side
is /dev/null; a rename adds the new path). The third prints one notebook
as text, cell by cell, for git's textconv (diff.ipynb.textconv: git log
-p, git show, git blame). See "ipynb git install". As git stops at a
driver that fails, these two show a file that is not a notebook as text
(with the reason on standard error, or on a first line).

Exit status: 0 the notebooks are the same, 1 they differ (as git's
driver, 0 either way), 2 a file cannot be read or is not a notebook (the
reason with line:column).`,
	usage: "[--json] [--color auto|always|never] [-U N] A B",
}

func init() { diffCmd.run = runDiff }

func runDiff(e *env, args []string) int {
	fs := diffCmd.flags(e)
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	color := fs.String("color", "auto", "colour the output: auto (on a terminal), always or never")
	context := fs.Int("U", 3, "lines of context in text diffs")
	textconv := fs.Bool("textconv", false, "print FILE as text, cell by cell (git's textconv)")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if *textconv {
		if fs.NArg() != 1 {
			fs.Usage()
			return exitError
		}
		return runTextconv(e, fs.Arg(0))
	}
	var d differ
	d.context = max(*context, 0)
	switch *color {
	case "always":
		d.color = true
	case "never":
	case "auto":
		f, ok := e.stdout.(*os.File)
		d.color = ok && isTerminal(f) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	default:
		fmt.Fprintf(e.stderr, "ipynb diff: --color %q: want auto, always or never\n", *color)
		return exitError
	}
	var aName, bName, aFile, bFile string
	gitMode := false
	switch fs.NArg() {
	case 2:
		aFile, bFile = fs.Arg(0), fs.Arg(1)
		aName, bName = aFile, bFile
	case 7, 9:
		// path old-file old-hex old-mode new-file new-hex new-mode
		// [new-path rename-info]
		gitMode = true
		path, newPath := fs.Arg(0), fs.Arg(0)
		if fs.NArg() == 9 {
			newPath = fs.Arg(7)
		}
		aFile, bFile = fs.Arg(1), fs.Arg(4)
		aName, bName = "a/"+path, "b/"+newPath
		if aFile == os.DevNull {
			aName = os.DevNull
		}
		if bFile == os.DevNull {
			bName = os.DevNull
		}
	default:
		fs.Usage()
		return exitError
	}
	var texts [2][]byte
	broken := false
	for i, f := range []string{aFile, bFile} {
		if f == os.DevNull {
			continue
		}
		data, err := e.read(input{path: f})
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", []string{aName, bName}[i], pathError(err))
			return exitError
		}
		if _, err = nbformat.Unmarshal(data); err != nil {
			printError(e.stderr, []string{aName, bName}[i], located(err, nil))
			if !gitMode {
				return exitError
			}
			broken = true // shown as text below
		}
		texts[i] = data
	}
	if broken {
		// Git stops at a driver that fails: show the texts' line diff.
		d.lines(e.stdout, dialog.UnifiedDiff(aName, bName, string(texts[0]), string(texts[1]), d.context))
		return exitOK
	}
	changes, err := d.changes(texts[0], texts[1])
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb diff: %s\n", strings.TrimPrefix(err.Error(), "convert: "))
		return exitError
	}
	if *asJSON {
		d.writeJSON(e.stdout, aName, bName, changes)
	} else if len(changes) > 0 {
		d.write(e.stdout, aName, bName, changes)
	}
	if len(changes) > 0 && !gitMode {
		return exitFindings
	}
	return exitOK
}

// runTextconv prints a notebook as text (see render.go).
func runTextconv(e *env, file string) int {
	data, err := e.read(input{path: file})
	var d *dialog.Dialog
	if err == nil {
		d, err = convert.Unmarshal(data)
	}
	if err != nil && data == nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", file, pathError(err))
		return exitError
	}
	if err != nil {
		// Git stops at a textconv that fails (git log -p would end at
		// the first broken notebook in the history): show its text.
		if _, perr := nbformat.Unmarshal(data); perr != nil {
			err = perr
		}
		msg := strings.ReplaceAll(strings.ReplaceAll(err.Error(), "convert: ", ""), "nbformat: ", "")
		fmt.Fprintf(e.stdout, "%snot a notebook (%s); its text:\n", headerMark, msg)
		e.stdout.Write(data)
		return exitOK
	}
	ids := fileIDs(data)
	for _, m := range d.Messages {
		if !ids[m.ID] {
			m.ID = "" // made up when read: it would change on every run
		}
	}
	renderDialog(e.stdout, d)
	return exitOK
}

// fileIDs are the cell ids a notebook file holds.
func fileIDs(data []byte) map[string]bool {
	ids := map[string]bool{}
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return ids
	}
	for _, c := range nb.Cells {
		if id := nbformat.CellIDOf(c); id != "" {
			ids[string(id)] = true
		}
	}
	return ids
}

// differ prints changes.
type differ struct {
	color   bool
	context int
	ids     map[string]bool // ids the files hold (others were made up)
	// The notebooks' metadata (a Change of it carries only the keys).
	metaA, metaB map[string]any
}

// changes compares two notebook texts; nil stands for no notebook (all
// cells added or removed).
func (d *differ) changes(a, b []byte) (_ []dialog.Change, err error) {
	d.ids = fileIDs(a)
	for id := range fileIDs(b) {
		d.ids[id] = true
	}
	switch {
	case a == nil && b == nil:
		return nil, nil
	case a == nil:
		a = emptyLike(b)
	case b == nil:
		b = emptyLike(a)
	}
	if a == nil || b == nil {
		return nil, errors.New("cannot read the notebook")
	}
	if a, err = asV4(a); err != nil {
		return nil, err
	}
	if b, err = asV4(b); err != nil {
		return nil, err
	}
	if da, err := convert.Unmarshal(a); err == nil {
		d.metaA = da.Meta
	}
	if db, err := convert.Unmarshal(b); err == nil {
		d.metaB = db.Meta
	}
	return convert.Diff(a, b)
}

// asV4 returns a notebook before version 4 as version 4.4 (without cell
// ids, so that its cells are matched by content), others as they are.
func asV4(data []byte) ([]byte, error) {
	nb, err := nbformat.Unmarshal(data)
	if err != nil || nb.Nbformat >= 4 {
		return data, err
	}
	if err := nbformat.Upgrade(nb); err != nil {
		return nil, err
	}
	for _, c := range nb.Cells {
		nbformat.SetCellID(c, "")
	}
	nb.NbformatMinor = 4
	return nbformat.Marshal(nb)
}

// emptyLike is a notebook like data with no cells and no metadata (nil
// if data does not read).
func emptyLike(data []byte) []byte {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return nil
	}
	nb.Cells = nil
	nb.Metadata = nbformat.NotebookMetadata{}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil
	}
	return out
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
	d.paint(w, colBold, "--- "+aName)
	d.paint(w, colBold, "+++ "+bName)
	for _, c := range changes {
		if c.ID == "" && c.A == nil && c.B == nil {
			d.paint(w, colBold, headerMark+"notebook metadata: changed "+strings.Join(c.Keys, ", "))
			d.lines(w, d.metaDiff(c.Keys, nil, nil))
			continue
		}
		d.paint(w, colBold, d.label(c))
		switch c.Kind {
		case dialog.Added:
			d.lines(w, prefixed("+", wholeMessage(c.B)))
			continue
		case dialog.Removed:
			d.lines(w, prefixed("-", wholeMessage(c.A)))
			continue
		}
		d.lines(w, d.partsDiff(c))
	}
}

// wholeMessage is a message's text and details, as textconv shows them.
func wholeMessage(m *dialog.Message) string {
	var b bytes.Buffer
	writeText(&b, m.Content)
	if r := m.Reply(); r != "" {
		fmt.Fprintln(&b, headerMark+"reply")
		writeText(&b, r)
	}
	for _, l := range messageDetails(m) {
		fmt.Fprintln(&b, headerMark+l)
	}
	return b.String()
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
	u := dialog.UnifiedDiff("a", "b", a, b, d.context)
	if _, rest, ok := strings.Cut(u, "\n+++ b\n"); ok {
		return rest
	}
	return u
}

// partsDiff shows the parts of a message that changed.
func (d *differ) partsDiff(c dialog.Change) string {
	a, b := c.A, c.B
	var s strings.Builder
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
		s.WriteString(d.listDiff("out: ", outputLines(a), outputLines(b)))
	}
	if c.Parts&dialog.PartAttachments != 0 {
		s.WriteString(d.listDiff("", attachmentLines(a), attachmentLines(b)))
	}
	if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
		s.WriteString(d.metaDiff(c.Keys, a, b))
	}
	return s.String()
}

func countText(n *int) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprint(*n)
}

func outputLines(m *dialog.Message) []string {
	var ls []string
	for _, o := range m.Outputs {
		if !isReply(m, o) {
			ls = append(ls, outputSummary(o))
		}
	}
	return ls
}

func attachmentLines(m *dialog.Message) []string {
	var ls []string
	for _, a := range m.Attachments {
		ls = append(ls, fmt.Sprintf("attachment %s: %s, %s %s", a.ID, a.MIME, sizeText(len(a.Data)), digest(a.Data)))
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
// nil: of the notebooks), one line for each side's value.
func (d *differ) metaDiff(keys []string, a, b *dialog.Message) string {
	var s strings.Builder
	for _, k := range keys {
		ma, mb, name := d.metaOf(k, a, b)
		if v, ok := ma[name]; ok {
			fmt.Fprintf(&s, "-%smeta %s = %s\n", headerMark, k, compactJSON(v))
		}
		if v, ok := mb[name]; ok {
			fmt.Fprintf(&s, "+%smeta %s = %s\n", headerMark, k, compactJSON(v))
		}
	}
	return s.String()
}

// jsonChange is a change in --json output.
type jsonChange struct {
	Kind        string         `json:"kind"`
	ID          string         `json:"id,omitempty"`
	MessageKind string         `json:"message_kind,omitempty"`
	A           *int           `json:"a_cell,omitempty"` // 1-based
	B           *int           `json:"b_cell,omitempty"`
	Parts       []string       `json:"parts,omitempty"`
	Keys        []string       `json:"keys,omitempty"`
	Content     string         `json:"content_diff,omitempty"`
	Reply       string         `json:"reply_diff,omitempty"`
	Count       []*int         `json:"execution_count,omitempty"` // [a, b]
	Outputs     [][]string     `json:"outputs,omitempty"`         // [a, b] summaries
	Meta        map[string]any `json:"metadata,omitempty"`        // key → [a, b]
}

func (d *differ) writeJSON(w io.Writer, aName, bName string, changes []dialog.Change) {
	out := struct {
		A       string       `json:"a"`
		B       string       `json:"b"`
		Same    bool         `json:"same"`
		Changes []jsonChange `json:"changes"`
	}{A: aName, B: bName, Same: len(changes) == 0, Changes: []jsonChange{}}
	for _, c := range changes {
		jc := jsonChange{Kind: c.Kind.String(), Keys: c.Keys}
		if d.ids[c.ID] {
			jc.ID = c.ID
		}
		if c.A != nil {
			i := c.AIndex + 1
			jc.A, jc.MessageKind = &i, string(c.A.Kind)
		}
		if c.B != nil {
			i := c.BIndex + 1
			jc.B, jc.MessageKind = &i, string(c.B.Kind)
		}
		if c.A == nil && c.B == nil {
			jc.Kind, jc.MessageKind = "notebook metadata", ""
		}
		if c.Parts != 0 {
			jc.Parts = strings.Split(c.Parts.String(), ", ")
		}
		if c.A != nil && c.B != nil {
			if c.Parts&dialog.PartContent != 0 {
				jc.Content = d.hunks(c.A.Content, c.B.Content)
			}
			if c.Parts&dialog.PartReply != 0 {
				jc.Reply = d.hunks(c.A.Reply(), c.B.Reply())
			}
			if c.Parts&dialog.PartCount != 0 {
				jc.Count = []*int{c.A.ExecutionCount, c.B.ExecutionCount}
			}
			if c.Parts&dialog.PartOutputs != 0 {
				jc.Outputs = [][]string{outputLines(c.A), outputLines(c.B)}
			}
			if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
				jc.Meta = map[string]any{}
				for _, k := range c.Keys {
					ma, mb, name := d.metaOf(k, c.A, c.B)
					jc.Meta[k] = []any{ma[name], mb[name]}
				}
			}
		}
		if c.A == nil && c.B == nil {
			jc.Meta = map[string]any{}
			for _, k := range c.Keys {
				jc.Meta[k] = []any{d.metaA[k], d.metaB[k]}
			}
		}
		out.Changes = append(out.Changes, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
