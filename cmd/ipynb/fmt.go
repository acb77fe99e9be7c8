package main

// ipynb fmt: notebooks written in Python nbformat's layout (or their own),
// healed, and upgraded on request.

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/nbdialog/ipynb/nbformat"
)

var fmtCmd = &command{
	name:    "fmt",
	summary: "format notebooks in place: Jupyter's own layout, invalid ones healed first",
	doc: `Rewrites nbformat 4 notebooks in place, atomically, and prints the files it
changed. Three modes:
  (default)     heal, then write Jupyter's own layout: the bytes Python
                nbformat writes (indent 1, sorted keys, sources split in
                lines), so one-line, two-space or VS Code files all come
                out alike
  --keep-style  heal only: each file keeps its own layout, and only what
                was invalid changes (the smallest diff)
  --canonical   exactly the bytes Python nbformat writes for the notebook as
                it is, without healing (as Python does; a notebook Python
                cannot write is an error)
Healing removes or repairs what is invalid and keeps all content that has a
valid place (-v prints each repair). Older notebooks are left alone unless
--upgrade converts them to 4.5 first. Read-only files, and files you may not
write in place, are not changed; a file changed while fmt ran is left alone.`,
	usage: "[--check] [--keep-style | --canonical] [--upgrade] [--follow] [-v] [--jobs N] [--files-from LIST] PATH...",
}

func init() { fmtCmd.run = runFmt }

func runFmt(e *env, args []string) int {
	fs := fmtCmd.flags(e)
	checkOnly := fs.Bool("check", false, "write nothing; list the files that would change (exit 1 if any)")
	keepStyle := fs.Bool("keep-style", false, "heal only, keeping each file's own layout")
	canonical := fs.Bool("canonical", false, "write exactly Python nbformat's bytes for the notebook as it is, without healing")
	upgrade := fs.Bool("upgrade", false, "upgrade to nbformat 4.5 (cell ids; version 2 and 3 notebooks converted)")
	verbose := fs.Bool("v", false, "report each repair, and each file skipped in folders, on standard error")
	walk := walkFlags(fs, "fmt", verbose)
	batch := batchFlags(fs)
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	mode := fmtLayout
	switch {
	case *keepStyle && *canonical:
		fmt.Fprintln(e.stderr, "ipynb fmt: --keep-style and --canonical exclude each other")
		return exitError
	case *keepStyle:
		mode = fmtKeepStyle
	case *canonical:
		mode = fmtCanonical
	}
	ins, ok, st := batchInputs(e, fs, batch, walk)
	if st >= 0 {
		return st
	}
	status := rewrite(e, ins, batch.jobs, *checkOnly, func(in input, data []byte, log io.Writer) ([]byte, error) {
		out, repairs, err := format(data, mode, *upgrade, *checkOnly)
		if *verbose {
			for _, r := range repairs {
				fmt.Fprintf(log, "%s: %s: %s\n", quoteName(in.path), displayPointer(string(r.Pointer)), r.What)
			}
		}
		return out, err
	})
	if !ok {
		status = exitError
	}
	return status
}

// errOld: a notebook older than version 4, which fmt leaves alone
// without --upgrade.
var errOld = fmt.Errorf("not changed (use --upgrade to convert it to 4.5): %w", errSkip)

// fmtMode is what fmt writes.
type fmtMode int

const (
	fmtLayout    fmtMode = iota // heal, then Python nbformat's layout
	fmtKeepStyle                // heal, in the file's own layout
	fmtCanonical                // Python nbformat's bytes, no healing
)

// format returns the formatted bytes of a notebook and the repairs made.
// With checkOnly in Python nbformat's layout (fmtLayout, fmtCanonical),
// the notebook is compared with its canonical bytes as they are written,
// never built whole: the bytes returned are data itself when they are the
// same, nil when not (only whether the file changes matters then).
func format(data []byte, mode fmtMode, upgrade, checkOnly bool) ([]byte, []nbformat.Repair, error) {
	nb, err := unmarshalOwned(data)
	if err != nil {
		return nil, nil, err
	}
	if upgrade {
		if err := nbformat.Upgrade(nb); err != nil {
			return nil, nil, err
		}
	}
	if nb.Nbformat != 4 {
		return nil, nil, fmt.Errorf("nbformat %d: %w", nb.Nbformat, errOld)
	}
	if mode == fmtCanonical {
		if checkOnly {
			return sameCanonical(data, nb, nil)
		}
		out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		return out, nil, err
	}
	repairs, err := nbformat.Heal(nb)
	if err != nil {
		return nil, repairs, err
	}
	if mode == fmtLayout {
		if checkOnly {
			return sameCanonical(data, nb, repairs)
		}
		out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		return out, repairs, err
	}
	if !nb.Edited() {
		return data, repairs, nil
	}
	out, err := nbformat.Marshal(nb)
	return out, repairs, err
}

// sameCanonical is format's answer, with checkOnly, in Python nbformat's
// layout: data when they are nb's canonical bytes, else nil. They are
// compared as they are written, so the first difference ends the work.
func sameCanonical(data []byte, nb *nbformat.Notebook, repairs []nbformat.Repair) ([]byte, []nbformat.Repair, error) {
	same, err := sameAsWritten(data, func(w io.Writer) error { return nbformat.MarshalOptions{Canonical: true}.MarshalTo(w, nb) })
	if err != nil || !same {
		return nil, repairs, err
	}
	return data, repairs, nil
}

// sameAsWritten reports whether write writes exactly data, comparing each
// piece as it is written (the first difference stops the writing).
func sameAsWritten(data []byte, write func(io.Writer) error) (bool, error) {
	w := &sameWriter{want: data}
	err := write(w)
	if errors.Is(err, errDiffers) {
		return false, nil
	}
	return err == nil && w.off == len(data), err
}

// errDiffers stops a sameWriter's writer at the first difference.
var errDiffers = errors.New("differs")

// sameWriter compares what is written with want.
type sameWriter struct {
	want []byte
	off  int // the bytes of want matched so far
}

func (w *sameWriter) Write(p []byte) (int, error) {
	if !bytes.HasPrefix(w.want[w.off:], p) {
		return 0, errDiffers
	}
	w.off += len(p)
	return len(p), nil
}
