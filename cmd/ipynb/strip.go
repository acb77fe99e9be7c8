package main

// ipynb strip: outputs and volatile metadata removed as nbstripout removes
// them, and its flags.

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

var stripCmd = &command{
	name:    "strip",
	summary: "remove outputs, execution counts and volatile metadata (as nbstripout)",
	doc: `Strips notebooks as nbstripout does, in place and atomically, keeping each
file's own style, and prints the files it changed; "-" reads standard input
and writes standard output; --filter - is git's clean filter, which writes
input that is not JSON back unchanged.

Outputs are removed from every cell (of any type, in nbformat 4 cells or
nbformat 3 worksheets) except cells whose metadata has "init_cell": true,
or "keep_output": true, or whose tags hold "keep_output"; counts
(execution_count, prompt_number, also those of kept outputs) become null;
the notebook metadata keys signature and widgets, the cell metadata keys
collapsed, ExecuteTime, execution, heading_collapsed, hidden and scrolled,
and the transient keys Python's writer drops (orig_nbformat,
orig_nbformat_minor, cell metadata trusted, and in version 4 signature
even with --keep) are removed. Cell ids are kept
(nbstripout --keep-id). A notebook that may hold outputs strip cannot
remove (cells that are objects, for one) is an error, and is not written.

With --verify (or --check), nothing is written: the files that would
change are listed and the exit status is 1 if there are any. With -t
(--textconv), the stripped notebooks are printed to standard output and no
file is changed (git's diff.ipynb.textconv).`,
	usage: "[--verify | -t] [--keep-output] [--keep-count] [--strip-init-cells] [--extra-keys KEYS] [--keep KEY]... [--follow] [-v] PATH...",
}

func init() { stripCmd.run = runStrip }

// strippedKeys are nbstripout's default extra keys: notebook metadata
// (metadata.*) and cell metadata (cell.metadata.*) that changes on every
// run.
var strippedKeys = []string{
	"metadata.signature",
	"metadata.widgets",
	"cell.metadata.collapsed",
	"cell.metadata.ExecuteTime",
	"cell.metadata.execution",
	"cell.metadata.heading_collapsed",
	"cell.metadata.hidden",
	"cell.metadata.scrolled",
}

// requiredCellKeys are cell members the schema requires: --extra-keys may
// not remove them (a stripped notebook stays valid).
var requiredCellKeys = []string{"cell_type", "id", "metadata", "source", "outputs", "execution_count"}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// wordsFlag collects space-separated words (nbstripout's --extra-keys
// syntax); it may be repeated.
type wordsFlag []string

func (w *wordsFlag) String() string     { return strings.Join(*w, " ") }
func (w *wordsFlag) Set(v string) error { *w = append(*w, strings.Fields(v)...); return nil }

func runStrip(e *env, args []string) int {
	fs := stripCmd.flags(e)
	var verify, textconv bool
	fs.BoolVar(&verify, "verify", false, "write nothing; list the files that would change (exit 1 if any)")
	fs.BoolVar(&verify, "check", false, "the same as --verify")
	fs.BoolVar(&textconv, "textconv", false, "print the stripped notebooks to standard output; change no file")
	fs.BoolVar(&textconv, "t", false, "the same as --textconv")
	filter := fs.Bool("filter", false, "git's clean filter (ipynb git install --strip writes \"ipynb strip --filter -\"): strip standard input to standard output, writing input that is not JSON back unchanged (such as the text git blame cleans)")
	var opt stripOptions
	fs.BoolVar(&opt.keepOutput, "keep-output", false, `keep all outputs (except in cells whose metadata says "keep_output": false or "init_cell": false)`)
	fs.BoolVar(&opt.keepCount, "keep-count", false, "keep execution counts and prompt numbers")
	fs.BoolVar(&opt.stripInitCells, "strip-init-cells", false, `strip cells with "init_cell": true too`)
	var extra, keep wordsFlag
	fs.Var(&extra, "extra-keys", `also remove these space-separated keys: "metadata.PATH" from the notebook metadata, "cell.PATH" from each cell (PATH: keys joined by dots, e.g. "metadata.kernelspec cell.metadata.tags")`)
	fs.Var((*listFlag)(&keep), "keep", "keep this key, one of "+strings.Join(strippedKeys, ", ")+" (repeatable)")
	fs.Var(&keep, "keep-metadata-keys", "keep these space-separated keys (nbstripout's name for --keep)")
	verbose := fs.Bool("v", false, "report each change, and each file skipped in folders, on standard error")
	walk := walkFlags(fs, "strip", verbose)
	batch := batchFlags(fs)
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if verify && textconv {
		fmt.Fprintln(e.stderr, "ipynb strip: --verify and --textconv do not go together")
		return exitError
	}
	keys, err := stripKeys(extra, keep)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb strip: %v\n", err)
		return exitError
	}
	opt.keys = keys
	if *filter {
		if verify || textconv || fs.NArg() != 1 || fs.Arg(0) != "-" {
			fmt.Fprintln(e.stderr, "ipynb strip: --filter reads standard input only (ipynb strip --filter -), without --verify or --textconv")
			return exitError
		}
		return cleanFilter(e, opt)
	}
	transform := func(in input, data []byte, log io.Writer) ([]byte, error) {
		out, changes, err := stripNotebook(data, opt)
		if *verbose {
			for _, c := range changes {
				fmt.Fprintf(log, "%s: %s: %s\n", quoteName(in.path), displayPointer(c.Pointer), c.What)
			}
		}
		return out, err
	}
	ins, ok, st := batchInputs(e, fs, batch, walk)
	if st >= 0 {
		return st
	}
	var status int
	if textconv {
		status = printStripped(e, ins, transform)
	} else {
		status = rewrite(e, ins, batch.jobs, verify, transform)
	}
	if !ok {
		status = exitError
	}
	return status
}

// stripKeys returns the keys strip removes: nbstripout's defaults less
// the kept ones, plus the extra ones. A key to keep must be one of the
// defaults; an extra key must start with "metadata." or "cell.", and may
// not name a member every cell must have.
func stripKeys(extra, keep []string) ([]string, error) {
	for _, k := range keep {
		if !slices.Contains(strippedKeys, k) {
			return nil, fmt.Errorf("--keep %q: not a key strip removes (%s)", k, strings.Join(strippedKeys, ", "))
		}
	}
	var keys []string
	for _, k := range strippedKeys {
		if !slices.Contains(keep, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range extra {
		ns, path, _ := strings.Cut(k, ".")
		switch {
		case (ns != "metadata" && ns != "cell") || path == "":
			return nil, fmt.Errorf("--extra-keys %q: a key is metadata.PATH (notebook metadata) or cell.PATH (each cell), e.g. metadata.kernelspec or cell.metadata.tags", k)
		case ns == "cell" && slices.Contains(requiredCellKeys, path):
			return nil, fmt.Errorf("--extra-keys %q: every cell must have %q; strip does not remove it", k, path)
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// printStripped is --textconv: each input's stripped notebook on standard
// output, no file changed.
func printStripped(e *env, ins []input, transform func(in input, data []byte, log io.Writer) ([]byte, error)) int {
	status := exitOK
	for _, in := range ins {
		data, err := e.read(in)
		if refusedSyntax(err) != nil {
			fmt.Fprintln(e.stderr, readFailure(quoteName(in.path), err))
			status = max(status, exitFindings) // as for a file that is not JSON
			continue
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(in.path), pathError(err))
			status = exitError
			continue
		}
		out, err := transform(in, data, e.stderr)
		if err != nil {
			fmt.Fprintln(e.stderr, describe(in.path, err))
			status = max(status, exitFindings)
			continue
		}
		e.stdout.Write(out)
	}
	return status
}
