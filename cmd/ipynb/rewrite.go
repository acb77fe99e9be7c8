package main

// Rewriting files in place for fmt and strip: the transform of each input, the
// file replaced only if unchanged, and what each run prints.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nbdialog/ipynb/internal/atomicfile"
)

// errSkip marks an input a transform leaves alone on purpose (it is
// reported, but is not a finding).
var errSkip = errors.New("skipped")

// beforeRead and beforeReplace, if set (by tests), run before a file is
// read, and between its transform and its replacement.
var beforeRead, beforeReplace func(path string)

// rewrite runs transform over the inputs of fmt and strip: a changed file
// is replaced atomically and its path printed (with checkOnly, only
// printed, and the status is 1); standard input, and a pipe or device
// named on the command line, go to standard output. Files are processed
// jobs at a time (see forEach); what each prints is printed in the order
// the files were named.
//
// A file is replaced only if it is still, right before the rename, the
// file that was read, unchanged (see internal/atomicfile): otherwise it is
// left alone and reported ("changed while processing"), and the status is
// 1. Files the user may not write in place are refused (status 2).
func rewrite(e *env, ins []input, jobs int, checkOnly bool, transform func(in input, data []byte, log io.Writer) ([]byte, error)) int {
	status := exitOK
	prog := newProgress(e, len(ins))
	defer batchGC(ins, jobs)()
	forEach(len(ins), jobs, memoryBudget,
		func(i int) int64 { return cost(ins[i]) },
		func(i int) *report { return rewriteOne(e, ins[i], checkOnly, transform) },
		func(i int, r *report) {
			prog.done()
			r.print(e)
			status = max(status, r.status)
			prog.step(i, ins[i].path)
		})
	prog.done()
	return status
}

// rewriteOne is rewrite's work on one input; what it has to say is kept
// in the report, to be printed in turn.
func rewriteOne(e *env, in input, checkOnly bool, transform func(in input, data []byte, log io.Writer) ([]byte, error)) *report {
	r := &report{}
	if beforeRead != nil {
		beforeRead(in.path)
	}
	data, stamp, err := e.readStamped(in)
	if errors.Is(err, atomicfile.ErrChanged) {
		r.status = leftAlone(r.errw(), in.path, err)
		return r
	}
	if refusedSyntax(err) != nil {
		fmt.Fprintln(r.errw(), readFailure(quoteName(in.path), err))
		r.status = exitFindings // as for a file that is not JSON
		return r
	}
	if err != nil {
		fmt.Fprintf(r.errw(), "%s: %v\n", quoteName(in.path), pathError(err))
		r.status = exitError
		return r
	}
	out, err := transform(in, data, r.errw())
	switch {
	case errors.Is(err, errSkip):
		fmt.Fprintf(r.errw(), "%s: %s\n", quoteName(in.path), strings.TrimSuffix(err.Error(), ": "+errSkip.Error()))
		return r
	case err != nil:
		fmt.Fprintln(r.errw(), describe(in.path, err))
		r.status = exitFindings
		return r
	}
	changed := !bytes.Equal(out, data)
	switch {
	case checkOnly:
		if changed {
			fmt.Fprintln(r.outw(), quoteName(in.path))
			r.status = exitFindings
		}
	case stamp == nil:
		r.outw().Write(out)
	case changed:
		if beforeReplace != nil {
			beforeReplace(in.path)
		}
		_, err := atomicfile.Replace(in.path, out, atomicfile.Options{Expect: stamp})
		switch {
		case errors.Is(err, atomicfile.ErrChanged), errors.Is(err, atomicfile.ErrLocked):
			r.status = leftAlone(r.errw(), in.path, err)
		case err != nil:
			fmt.Fprintf(r.errw(), "%s: %v\n", quoteName(in.path), err)
			r.status = exitError
		default:
			fmt.Fprintln(r.outw(), quoteName(in.path))
		}
	}
	return r
}

// A report is what the work on one file prints, in order, on standard
// output and standard error, and the exit status it calls for.
type report struct {
	parts  []reportPart
	status int
}

type reportPart struct {
	stderr bool
	text   []byte
}

// reportWriter appends to one stream of a report.
type reportWriter struct {
	r      *report
	stderr bool
}

func (w reportWriter) Write(p []byte) (int, error) {
	parts := w.r.parts
	if n := len(parts); n > 0 && parts[n-1].stderr == w.stderr {
		parts[n-1].text = append(parts[n-1].text, p...)
	} else {
		w.r.parts = append(parts, reportPart{w.stderr, append([]byte(nil), p...)})
	}
	return len(p), nil
}

func (r *report) outw() io.Writer { return reportWriter{r, false} }
func (r *report) errw() io.Writer { return reportWriter{r, true} }

func (r *report) print(e *env) {
	for _, p := range r.parts {
		if p.stderr {
			e.stderr.Write(p.text)
		} else {
			e.stdout.Write(p.text)
		}
	}
}

// leftAlone reports a file left alone because it changed while it was
// processed (or another process holds a lock on it); the status is 1.
func leftAlone(w io.Writer, path string, err error) int {
	if errors.Is(err, atomicfile.ErrChanged) {
		why := strings.TrimPrefix(err.Error(), atomicfile.ErrChanged.Error())
		fmt.Fprintf(w, "%s: changed while processing%s; left alone\n", quoteName(path), why)
	} else {
		fmt.Fprintf(w, "%s: %v; left alone\n", quoteName(path), err)
	}
	return exitFindings
}
