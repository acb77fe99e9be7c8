package nbweb

// Main of ipynb web: reading the inputs and serving the page of a notebook, of
// a diff or of a merge.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/nbhtml"
	"github.com/nbdialog/ipynb/nbformat"
)

// Usage is the usage line of `ipynb web`.
const Usage = "[--open] NOTEBOOK | A B | --merge [-o FILE] BASE OURS THEIRS"

// Exit statuses, as the ipynb command's.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// Main runs `ipynb web ARGS` (without the command name) and returns its
// exit status: 0 when the page closed (a merge: saved with every conflict
// resolved), 1 a merge not resolved, 2 usage and input errors. Standard
// input is read for an argument "-" (not for a merge's OURS).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	merge := fs.Bool("merge", false, "resolve a merge: BASE OURS THEIRS, saved into OURS")
	open := fs.Bool("open", false, "open the page in the browser ($BROWSER, else the desktop's)")
	out := fs.String("o", "", "with --merge: save into FILE instead of OURS (git mergetool's $MERGED)")
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: ipynb web %s\n", Usage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	in := reader{stdin: stdin, stderr: stderr}
	var app webApp
	st := -1
	switch {
	case *merge && fs.NArg() == 3:
		app, st = newMergeApp(in, [3]string{fs.Arg(0), fs.Arg(1), fs.Arg(2)}, *out)
	case *out != "":
		fmt.Fprintln(stderr, "ipynb web: -o is for --merge (the file the resolution is saved into)")
		return exitError
	case !*merge && fs.NArg() == 1:
		app, st = newViewApp(in, fs.Arg(0))
	case !*merge && fs.NArg() == 2:
		app, st = newDiffApp(in, fs.Arg(0), fs.Arg(1))
	default:
		fs.Usage()
		return exitError
	}
	if app == nil {
		return st
	}
	return serve(stdout, stderr, app, *open)
}

// reader reads the inputs, reporting errors on stderr.
type reader struct {
	stdin  io.Reader
	stderr io.Writer
}

// read reads a file (or standard input for "-") with nbformat's limit,
// and its stamp for a later atomic replace (nil for standard input).
func (r reader) read(path string) ([]byte, *atomicfile.Stamp, bool) {
	if path == "-" {
		data, err := atomicfile.ReadAll(r.stdin, atomicfile.DefaultMaxBytes)
		if err != nil {
			fmt.Fprintf(r.stderr, "ipynb web: standard input: %v\n", err)
			return nil, nil, false
		}
		return data, nil, true
	}
	data, st, err := atomicfile.Read(path, atomicfile.ReadOptions{})
	if err != nil {
		fmt.Fprintf(r.stderr, "ipynb web: %v\n", err)
		return nil, nil, false
	}
	return data, st, true
}

// dialogOf reads notebook text as a dialog (nil data: no notebook).
func (r reader) dialogOf(name string, data []byte) (*dialog.Dialog, bool) {
	if data == nil {
		return &dialog.Dialog{Name: name}, true
	}
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		fmt.Fprintf(r.stderr, "ipynb web: %s: %s\n", quote(name), strings.TrimPrefix(err.Error(), "convert: "))
		return nil, false
	}
	d.Name = name
	return d.Dialog, true
}

// quote quotes a name that would not print on one line.
func quote(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// pageApp serves a page that has no actions.
type pageApp struct{ data []byte }

func (a pageApp) page() ([]byte, error)             { return a.data, nil }
func (a pageApp) action(string, []byte) (any, bool) { return nil, false }
func (a pageApp) status() int                       { return exitOK }

func newViewApp(in reader, path string) (webApp, int) {
	data, _, ok := in.read(path)
	if !ok {
		return nil, exitError
	}
	d, ok := in.dialogOf(strings.TrimSuffix(filepath.Base(path), ".ipynb"), data)
	if !ok {
		return nil, exitError
	}
	var b bytes.Buffer
	if err := nbhtml.Notebook(&b, d, nbhtml.Options{Title: filepath.Base(path), Live: true}); err != nil {
		fmt.Fprintf(in.stderr, "ipynb web: %v\n", err)
		return nil, exitError
	}
	return pageApp{b.Bytes()}, -1
}

func newDiffApp(in reader, a, b string) (webApp, int) {
	var texts [2][]byte
	for i, f := range []string{a, b} {
		if f == os.DevNull {
			continue
		}
		data, _, ok := in.read(f)
		if !ok {
			return nil, exitError
		}
		texts[i] = data
	}
	ca, cb := texts[0], texts[1]
	var err error
	switch {
	case ca == nil && cb != nil:
		ca, err = emptyLike(cb)
	case cb == nil && ca != nil:
		cb, err = emptyLike(ca)
	}
	var changes []dialog.Change
	if err == nil && ca != nil {
		changes, err = convert.Diff(ca, cb)
	}
	if err != nil {
		fmt.Fprintf(in.stderr, "ipynb web: %s\n", strings.TrimPrefix(err.Error(), "convert: "))
		return nil, exitError
	}
	da, ok := in.dialogOf(a, texts[0])
	if !ok {
		return nil, exitError
	}
	db, ok := in.dialogOf(b, texts[1])
	if !ok {
		return nil, exitError
	}
	var buf bytes.Buffer
	if err := nbhtml.Diff(&buf, da, db, changes, nbhtml.DiffOptions{NameA: a, NameB: b, Live: true}); err != nil {
		fmt.Fprintf(in.stderr, "ipynb web: %v\n", err)
		return nil, exitError
	}
	return pageApp{buf.Bytes()}, -1
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
