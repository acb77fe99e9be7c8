package nbformat

// Canonical output (MarshalOptions.Canonical): internal/nbcanon writes the
// JSON the notebook would be written as exactly as Python nbformat does.

import (
	"errors"
	"fmt"
	"io"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbcanon"
)

// ErrNotCanonical is wrapped by the [*FormatError] canonical output returns
// for a notebook Python nbformat cannot write (see [MarshalOptions]).
var ErrNotCanonical = errors.New("no canonical form: Python nbformat cannot write this notebook")

func marshalCanonical(nb *Notebook) ([]byte, error) {
	var out []byte
	err := onCanonicalTape(nb, func(t *jsontree.Tape) (err error) {
		out, err = nbcanon.Write(t, nb.Nbformat)
		return canonicalError(nb, err)
	})
	return out, err
}

// writeCanonical writes nb's canonical bytes to w in pieces as they are
// made. Should the writing start again on a full parse (see
// onCanonicalTape), the bytes w was given already are not given again.
func writeCanonical(w io.Writer, nb *Notebook) error {
	rw := &resumeWriter{w: w}
	err := onCanonicalTape(nb, func(t *jsontree.Tape) error {
		rw.pos = 0
		return canonicalError(nb, nbcanon.WriteTo(rw, t, nb.Nbformat))
	})
	if rw.err != nil && errors.Is(err, rw.err) {
		return fmt.Errorf("nbformat: writing: %w", rw.err)
	}
	return err
}

// resumeWriter passes to w the bytes past the n it was given before:
// writing the same bytes again from the start (pos 0) resumes where w
// was left. err is w's error.
type resumeWriter struct {
	w      io.Writer
	pos, n int
	err    error
}

func (r *resumeWriter) Write(p []byte) (int, error) {
	start := r.pos
	r.pos += len(p)
	if r.pos <= r.n {
		return len(p), nil
	}
	if _, err := r.w.Write(p[max(0, r.n-start):]); err != nil {
		r.err = err
		return 0, err
	}
	r.n = r.pos
	return len(p), nil
}

// onCanonicalTape calls f with the tape nb's canonical bytes are written
// from: parsed with nbcanon.Shape, the containers Python's rules read get
// nodes, every other value is written from its bytes, so that a file
// dense in small values stays cheap. Should a rule read a lazy value's
// interior as nodes all the same (a notebook off the schema), f is called
// again with a full parse.
func onCanonicalTape(nb *Notebook, f func(*jsontree.Tape) error) (err error) {
	t, err := nb.tape() // the bytes read, when unedited
	if err != nil {
		return err
	}
	if !t.HasLazy() {
		return f(t)
	}
	flat, err := jsontree.ParseShaped(t.Data, jsontree.Limits{}, nbcanon.Shape(nb.Nbformat))
	if err != nil {
		return err
	}
	flat.BOM = t.BOM // cleared when Heal removed the mark
	return jsontree.OrFull(flat, t, f)
}

// canonicalError is err of internal/nbcanon as this package reports it.
func canonicalError(nb *Notebook, err error) error {
	var p *nbcanon.Problem
	switch {
	case errors.As(err, &p):
		return &FormatError{Pointer: Pointer(p.Pointer), Msg: p.Msg + ": " + ErrNotCanonical.Error(), Err: ErrNotCanonical}
	case errors.Is(err, nbcanon.ErrVersion):
		return fmt.Errorf("nbformat: canonical output for nbformat %d: %w", nb.Nbformat, ErrUnsupportedVersion)
	}
	return err
}
