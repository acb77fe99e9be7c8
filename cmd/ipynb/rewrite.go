package main

import (
	"bytes"
	"errors"
	"fmt"
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
// named on the command line, go to standard output.
//
// A file is replaced only if it is still, right before the rename, the
// file that was read, unchanged (see internal/atomicfile): otherwise it is
// left alone and reported ("changed while processing"), and the status is
// 1. Files the user may not write in place are refused (status 2).
func rewrite(e *env, ins []input, checkOnly bool, transform func(in input, data []byte) ([]byte, error)) int {
	status := exitOK
	prog := newProgress(e, len(ins))
	for i, in := range ins {
		prog.step(i, in.path)
		if beforeRead != nil {
			beforeRead(in.path)
		}
		data, stamp, err := e.readStamped(in)
		if errors.Is(err, atomicfile.ErrChanged) {
			prog.done()
			status = max(status, leftAlone(e, in.path, err))
			continue
		}
		if err != nil {
			prog.done()
			fmt.Fprintf(e.stderr, "%s: %v\n", in.path, pathError(err))
			status = exitError
			continue
		}
		out, err := transform(in, data)
		prog.done()
		switch {
		case errors.Is(err, errSkip):
			fmt.Fprintf(e.stderr, "%s: %s\n", in.path, strings.TrimSuffix(err.Error(), ": "+errSkip.Error()))
			continue
		case err != nil:
			fmt.Fprintln(e.stderr, describe(in.path, err))
			status = max(status, exitFindings)
			continue
		}
		changed := !bytes.Equal(out, data)
		switch {
		case checkOnly:
			if changed {
				fmt.Fprintln(e.stdout, in.path)
				status = max(status, exitFindings)
			}
		case stamp == nil:
			e.stdout.Write(out)
		case changed:
			if beforeReplace != nil {
				beforeReplace(in.path)
			}
			_, err := atomicfile.Replace(in.path, out, atomicfile.Options{Expect: stamp})
			switch {
			case errors.Is(err, atomicfile.ErrChanged), errors.Is(err, atomicfile.ErrLocked):
				status = max(status, leftAlone(e, in.path, err))
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: %v\n", in.path, err)
				status = exitError
			default:
				fmt.Fprintln(e.stdout, in.path)
			}
		}
	}
	prog.done()
	return status
}

// leftAlone reports a file left alone because it changed while it was
// processed (or another process holds a lock on it); the status is 1.
func leftAlone(e *env, path string, err error) int {
	if errors.Is(err, atomicfile.ErrChanged) {
		why := strings.TrimPrefix(err.Error(), atomicfile.ErrChanged.Error())
		fmt.Fprintf(e.stderr, "%s: changed while processing%s; left alone\n", path, why)
	} else {
		fmt.Fprintf(e.stderr, "%s: %v; left alone\n", path, err)
	}
	return exitFindings
}
