package main

// ipynb html: a notebook exported as one self-contained, safe HTML page.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/internal/nbhtml"
)

var htmlCmd = &command{
	name:    "html",
	summary: "export a notebook as one self-contained, safe HTML page",
	doc: `Writes the notebook (or dialog) as one HTML page, as nbconvert's --to html
does, but offline and safe: styles and images are inside the file, and the
page makes no request to the network when opened. Notes and prompts are
rendered Markdown (a prompt as the question and the reply), code is
highlighted with its outputs below it.

Nothing from the notebook runs: the page treats every notebook as Jupyter
treats one it does not trust. HTML outputs are shown in sandboxed frames
(no scripts, no access to the page), SVG as images, JavaScript outputs
never; raw HTML in Markdown keeps only formatting tags (without
attributes), links only to http, https, mailto and the page itself; math
is shown as its TeX source. Cells after the first few hundred are
rendered as they scroll into view (--lazy).

The page goes to standard output (not to a terminal), or atomically to
-o FILE (never over the notebook read).`,
	usage: "[-o FILE] [--title TEXT] [--lazy N] NOTEBOOK",
}

func init() { htmlCmd.run = runHTML }

func runHTML(e *env, args []string) int {
	fs := htmlCmd.flags(e)
	out := fs.String("o", "", "write the page to this file (atomically) instead of standard output (- for standard output)")
	title := fs.String("title", "", "the page's title (default: the notebook's name)")
	lazy := fs.Int("lazy", nbhtml.DefaultLazy, "cells written as HTML; later ones are rendered as they scroll into view (-1: all as HTML)")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if *out == "-" {
		*out = ""
	}
	if *out == "" && e.stdoutTTY {
		fmt.Fprintln(e.stderr, "ipynb html: standard output is a terminal; write the page to a file with -o FILE (or pipe it)")
		return exitError
	}
	if *lazy == 0 {
		*lazy = -1 // as the flag's doc says: 0 cells as HTML would be no page
	}
	d, _, _, st := readDialog(e, "html", fs.Args())
	if st >= 0 {
		return st
	}
	in := fs.Arg(0)
	name := d.Name
	if in != "-" {
		name = strings.TrimSuffix(baseName(in), ".ipynb") // as it is: the page shows it as text
	}
	if *title != "" {
		name = *title
	}
	var page bytes.Buffer
	if err := nbhtml.Notebook(&page, d, nbhtml.Options{Title: name, Lazy: *lazy}); err != nil {
		fmt.Fprintf(e.stderr, "ipynb html: %v\n", err)
		return exitError
	}
	if st := writePage(e, "html", *out, page.Bytes(), in); st >= 0 {
		return st
	}
	return exitOK
}
