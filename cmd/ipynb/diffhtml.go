package main

// ipynb diff --html: the changes as one self-contained page
// (internal/nbhtml.Diff), written atomically to -o FILE or to standard
// output (not to a terminal). The cells are matched as the text diff
// matches them (convert.Diff); nil stands for no notebook (/dev/null),
// all of whose cells the other side adds or removes.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/nbhtml"
)

// diffPage makes the diff page of notebook texts a and b (names: what
// the page calls them; live: served by ipynb web). An input that is not a notebook is a
// *convert.Error (Op "merge"), as differ.changes returns it.
func diffPage(d *differ, names [2]string, a, b []byte, live bool) (page []byte, changed bool, err error) {
	changes, err := d.changes(a, b)
	if err != nil {
		return nil, false, err
	}
	var ds [2]*dialog.Dialog
	for i, data := range [2][]byte{a, b} {
		if data == nil {
			ds[i] = &dialog.Dialog{Name: names[i]}
			continue
		}
		f, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			return nil, false, &convert.Error{Op: "merge", Input: string(rune('a' + i)), Err: err}
		}
		ds[i] = f.Dialog
	}
	var buf bytes.Buffer
	if err := nbhtml.Diff(&buf, ds[0], ds[1], changes, nbhtml.DiffOptions{NameA: names[0], NameB: names[1], Live: live}); err != nil {
		return nil, false, err
	}
	return buf.Bytes(), len(changes) > 0, nil
}

// writePage writes a page to out (atomically) or, for "" or "-", to
// standard output unless it is a terminal; never into a folder, nor over
// one of the files the page is made from (inputs; "-" and /dev/null are
// none), reached by whatever name or link. It returns the exit status of
// a failure, or -1.
func writePage(e *env, cmd, out string, page []byte, inputs ...string) int {
	if !utf8.Valid(page) {
		page = []byte(unitText(string(page))) // as every text form shows them (codeunits.go)
	}
	if out == "" || out == "-" {
		if e.stdoutTTY {
			fmt.Fprintf(e.stderr, "ipynb %s: standard output is a terminal; write the page to a file with -o FILE (or pipe it)\n", cmd)
			return exitError
		}
		e.stdout.Write(page)
		return -1
	}
	if fi, err := os.Stat(out); err == nil {
		if fi.IsDir() {
			fmt.Fprintf(e.stderr, "ipynb %s: -o %s: is a folder\n", cmd, quoteName(out))
			return exitError
		}
		for _, in := range inputs {
			if in == "-" || in == os.DevNull {
				continue
			}
			if ni, err := os.Stat(in); err == nil && os.SameFile(fi, ni) {
				fmt.Fprintf(e.stderr, "ipynb %s: -o %s: is the notebook being read (%s); %s does not overwrite it\n", cmd, quoteName(out), quoteName(in), cmd)
				return exitError
			}
		}
	}
	if _, err := atomicfile.Replace(out, page, atomicfile.Options{}); err != nil {
		fmt.Fprintln(e.stderr, describe(out, err))
		return exitError
	}
	return -1
}

// runDiffHTML is ipynb diff --html, after the files are read; its exit
// status is diff's.
func runDiffHTML(e *env, d *differ, names, files [2]string, texts [2][]byte, out string, gitMode bool) int {
	page, changed, err := diffPage(d, names, texts[0], texts[1], false)
	if mie := (*convert.Error)(nil); errors.As(err, &mie) && mie.Op == "merge" {
		i := 0
		if mie.Input == "b" {
			i = 1
		}
		printError(e.stderr, quoteName(names[i]), located(mie.Err, nil))
		return exitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb diff: %v\n", err)
		return exitError
	}
	if st := writePage(e, "diff", out, page, files[:]...); st >= 0 {
		return st
	}
	if changed && !gitMode {
		return exitFindings
	}
	return exitOK
}
