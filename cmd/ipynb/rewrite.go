package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/convert"
)

// errSkip marks an input a transform leaves alone on purpose (it is
// reported, but is not a finding).
var errSkip = errors.New("skipped")

// rewrite runs transform over the inputs of fmt and strip: a changed file
// is replaced atomically and its path printed (with checkOnly, only
// printed, and the status is 1); standard input goes to standard output.
func rewrite(e *env, ins []input, checkOnly bool, transform func(in input, data []byte) ([]byte, error)) int {
	status := exitOK
	prog := newProgress(e, len(ins))
	for i, in := range ins {
		prog.step(i, in.path)
		data, err := e.read(in)
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
		case in.stdin():
			e.stdout.Write(out)
		case changed:
			if err := (convert.Options{}).WriteAtomic(in.path, out); err != nil {
				fmt.Fprintf(e.stderr, "%s: %s\n", in.path, strings.TrimPrefix(err.Error(), "convert: "))
				status = exitError
				continue
			}
			fmt.Fprintln(e.stdout, in.path)
		}
	}
	prog.done()
	return status
}
