package main

// ipynb diff: the changes between two notebooks, cell by cell, as git's diff
// driver and textconv, or as a page.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/nbformat"
)

var diffCmd = &command{
	name:    "diff",
	summary: "show the changes between two notebooks, cell by cell",
	doc: `Shows what changed from notebook A to notebook B, cell by cell: cells
are matched by id (by content in notebooks without ids); for each added,
removed, moved or changed cell, a header "## KIND ID (cell N): what",
then its text as a unified line diff, its outputs, and its changed
metadata. Each output is a summary line (type, contents and size, a
digest); under a changed one, what it became: text (streams, plain
text, Markdown, LaTeX, JSON, HTML source, tracebacks) as a line diff,
terminal colour codes and progress-bar rewrites removed; images as
type, pixel size and bytes before → after. Metadata is compared as JSON
values (spacing, key order and the spelling of numbers are no change),
a change shown by its nested path: "## meta colab.height: 300 → 400".
Notebook metadata changes come last. Colour on a terminal (--color).

What is shown under output summaries is capped, so that an output
never buries a change of code: --output-lines under each output,
--cell-lines under all of a cell's outputs, what is left out counted
("## … 120 more lines"). --show and --hide select the parts of cells
compared and shown (sources, outputs, metadata, attachments; nbdime's
-s -o -m -a): "--hide outputs" reviews code alone, and a cell changed
only in hidden parts is no change.

  ipynb diff [--json] [--color WHEN] [-U N] [--show|--hide PARTS] A B
  ipynb diff PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE [NEW-PATH INFO]
  ipynb diff --textconv FILE

The second form is git's diff driver (diff.ipynb.command; a missing side
is /dev/null; a rename adds the new path; a symbolic link, whose
target git passes, is shown as a line diff). The third prints one
notebook as text, cell by cell, outputs capped as above, for git's
textconv (diff.ipynb.textconv: git log -p, git show, git blame). See
"ipynb git install". As git stops at a
driver that fails, these two show a file that is not a notebook as text
(with the reason on standard error, or on a first line).

Exit status: 0 the notebooks are the same, 1 they differ (as git's
driver, 0 either way), 2 a file cannot be read or is not a notebook (the
reason with line:column).`,
	usage: "[--json] [--color auto|always|never] [-U N] [--show PARTS] [--hide PARTS] [--output-lines N] [--cell-lines N] A B",
}

func init() { diffCmd.run = runDiff }

// gitLinkMode is the mode git gives a symbolic link.
const gitLinkMode = "120000"

func runDiff(e *env, args []string) int {
	fs := diffCmd.flags(e)
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	color := fs.String("color", "auto", "colour the output: auto (on a terminal), always or never")
	context := boundedInt(fs, "U", 3, 0, maxContext, "lines of context in text diffs")
	var show, hide partsFlag
	fs.Var(&show, "show", "show only these `PARTS` of cells, separated by commas: sources, outputs, metadata, attachments")
	fs.Var(&hide, "hide", "do not show these `PARTS` of cells (named as for --show)")
	outLines := boundedInt(fs, "output-lines", defaultCaps.output, 0, maxOutputLines, "lines shown under each changed output's summary (0: the summary alone)")
	cellLines := boundedInt(fs, "cell-lines", defaultCaps.cell, 0, maxOutputLines, "lines shown under the output summaries of one cell, in all")
	textconv := fs.Bool("textconv", false, "print FILE as text, cell by cell (git's textconv)")
	asHTML := fs.Bool("html", false, "write the changes as one self-contained HTML page (to -o FILE, or standard output)")
	out := fs.String("o", "", "with --html: the file to write the page to (atomically)")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if *textconv {
		if fs.NArg() != 1 {
			fs.Usage()
			return exitError
		}
		return runTextconv(e, fs.Arg(0), outCaps{output: *outLines, cell: *cellLines})
	}
	d := differ{context: *context, caps: outCaps{output: *outLines, cell: *cellLines}, hide: showAll &^ shown(&show, &hide), safe: e.stdoutTTY}
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
	var gitPaths [2]string // git's names of the sides, for storedSide
	gitMode := false
	switch fs.NArg() {
	case 2:
		aFile, bFile = fs.Arg(0), fs.Arg(1)
		aName, bName = aFile, bFile
	case 7, 9:
		// path old-file old-hex old-mode new-file new-hex new-mode
		// [new-path rename-info]
		if helper, ok := difftoolHelper(); ok {
			return runDifftoolHelper(e, helper, fs.Args()) // gitdifftool.go
		}
		gitMode = true
		path, newPath := fs.Arg(0), fs.Arg(0)
		if fs.NArg() == 9 {
			newPath = fs.Arg(7)
		}
		aFile, bFile = fs.Arg(1), fs.Arg(4)
		aName, bName = "a/"+path, "b/"+newPath
		gitPaths = [2]string{path, newPath}
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
	// A symbolic link (mode 120000): git passes its target as the text.
	link := gitMode && (fs.Arg(3) == gitLinkMode || fs.Arg(6) == gitLinkMode)
	if gitMode && fs.Arg(3) != "." && fs.Arg(6) != "." && fs.Arg(3) != fs.Arg(6) {
		// A mode change, which git shows as these lines.
		d.afterNames = []string{"old mode " + fs.Arg(3), "new mode " + fs.Arg(6)}
	}
	if gitMode && fs.NArg() == 9 {
		// A rename or copy: git's lines about it ("similarity index
		// 100%", "rename from …", "rename to …").
		for _, l := range strings.Split(strings.TrimRight(fs.Arg(8), "\n"), "\n") {
			if l != "" {
				d.afterNames = append(d.afterNames, l)
			}
		}
	}
	var texts [2][]byte
	names := []string{aName, bName}
	for i, f := range []string{aFile, bFile} {
		if f == os.DevNull {
			continue
		}
		data, err := e.read(input{path: f})
		if err != nil {
			fmt.Fprintln(e.stderr, readFailure(quoteName(names[i]), err))
			return exitError
		}
		texts[i] = data
		if gitMode && !link {
			texts[i] = storedSide(gitPaths[i], f, data)
		}
	}
	if link {
		d.lines(e.stdout, textdiff.Unified(quoteName(aName), quoteName(bName), string(texts[0]), string(texts[1]), d.context))
		return exitOK
	}
	if *asHTML {
		return runDiffHTML(e, &d, [2]string{aName, bName}, [2]string{aFile, bFile}, texts, *out, gitMode)
	}
	changes, err := d.changes(texts[0], texts[1])
	if mie := (*convert.Error)(nil); errors.As(err, &mie) && mie.Op == "merge" {
		i := 0
		if mie.Input == "b" {
			i = 1
		}
		printError(e.stderr, quoteName(names[i]), located(mie.Err, nil))
		if !gitMode {
			return exitError
		}
		// Git stops at a driver that fails: show the texts' line diff.
		d.lines(e.stdout, textdiff.Unified(quoteName(aName), quoteName(bName), string(texts[0]), string(texts[1]), d.context))
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb diff: %s\n", strings.TrimPrefix(err.Error(), "convert: "))
		return exitError
	}
	differs := len(changes) > 0
	switch {
	case *asJSON:
		if err := d.writeJSON(e.stdout, aName, bName, changes); err != nil { // JSON escapes the names itself
			fmt.Fprintf(e.stderr, "ipynb diff: writing JSON: %v\n", err)
			return exitError
		}
	case differs:
		// As git writes them: "--- a/x.ipynb", or quoted, "--- \"a/x\\ny.ipynb\"".
		d.write(e.stdout, quoteName(aName), quoteName(bName), changes)
		if line := versionChange(texts[0], texts[1]); line != "" {
			d.paint(e.stdout, colBold, line)
		}
	case texts[0] != nil && texts[1] != nil && d.hide == 0:
		// Files that differ are never shown as nothing (git status
		// calls them modified): the line says how they differ — unless
		// parts were hidden (--show, --hide), whose changes are then
		// not reported, as git diff -w reports no change of spaces.
		if d.writeHidden(e.stdout, quoteName(aName), quoteName(bName), texts[0], texts[1]) {
			differs = !strings.Contains(hiddenDifference(texts[0], texts[1]), "only the formatting")
		}
	}
	if differs && !gitMode {
		return exitFindings
	}
	return exitOK
}

// runTextconv prints a notebook as text (see render.go).
func runTextconv(e *env, file string, caps outCaps) int {
	data, err := e.read(input{path: file})
	var d *dialog.Dialog
	if err == nil {
		var f *convert.File
		if f, err = convert.Unmarshal(data, convert.ReadOptions{}); err == nil {
			d = f.Dialog
		}
	}
	if err != nil && data == nil {
		fmt.Fprintln(e.stderr, readFailure(quoteName(file), err))
		return exitError
	}
	if err != nil {
		// Git stops at a textconv that fails (git log -p would end at
		// the first broken notebook in the history): show its text.
		msg := strings.ReplaceAll(strings.ReplaceAll(err.Error(), "convert: ", ""), "nbformat: ", "")
		var se *nbformat.SyntaxError
		if _, perr := nbformat.Unmarshal(data); errors.As(perr, &se) && se.Line > 0 {
			msg = fmt.Sprintf("line %d, column %d: %s", se.Line, se.Column, se.Msg)
		}
		fmt.Fprintf(e.stdout, "%snot a notebook (%s); its text:\n", headerMark, msg)
		e.stdout.Write(data)
		return exitOK
	}
	ids := make([]string, len(d.Messages))
	for i, m := range d.Messages {
		ids[i] = m.ID
	}
	found := realIDs(ids, data)
	for _, m := range d.Messages {
		if !found[m.ID] {
			m.ID = "" // made up when read: it would change on every run
		}
	}
	renderDialog(e.stdout, d, caps)
	return exitOK
}

// realIDs returns those of ids that are in one of the notebook texts
// as the value of an "id" member; the others were made up when reading
// cells without ids. One pass over each text.
func realIDs(ids []string, texts ...[]byte) map[string]bool {
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = id != ""
	}
	found := map[string]bool{}
	key := []byte(`"id"`)
	for _, t := range texts {
		for i := 0; ; {
			j := bytes.Index(t[i:], key)
			if j < 0 {
				break
			}
			i += j + len(key)
			k := i
			for k < len(t) && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r') {
				k++
			}
			if k >= len(t) || t[k] != ':' {
				continue
			}
			k++
			for k < len(t) && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r') {
				k++
			}
			if k >= len(t) || t[k] != '"' {
				continue
			}
			end := bytes.IndexByte(t[k+1:], '"')
			if end < 0 {
				break
			}
			if id := t[k+1 : k+1+end]; want[string(id)] {
				found[string(id)] = true
			}
			i = k + 1 + end
		}
	}
	return found
}
