package nbformat

// Canonical output (MarshalOptions.Canonical): internal/nbcanon writes the
// JSON the notebook would be written as exactly as Python nbformat does.

import (
	"errors"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbcanon"
)

// ErrNotCanonical is wrapped by the [*FormatError] canonical output returns
// for a notebook Python nbformat cannot write (see [MarshalOptions]).
var ErrNotCanonical = errors.New("no canonical form: Python nbformat cannot write this notebook")

func marshalCanonical(nb *Notebook) (out []byte, err error) {
	t, err := nb.tape() // the bytes read, when unedited
	if err != nil {
		return nil, err
	}
	if !t.HasLazy() {
		return canonicalOf(nb, t)
	}
	// Python's writer reads every value: every container gets its nodes,
	// except flat arrays (of numbers, strings, …), streamed from their
	// bytes, so that a file dense in small values stays cheap. Should a
	// rule read a flat array's elements as nodes all the same, the
	// canonical bytes come from a full parse.
	flat, err := jsontree.ParseFlat(t.Data, jsontree.Limits{}, notebookShape())
	if err != nil {
		return nil, err
	}
	flat.BOM = t.BOM // cleared when Heal removed the mark
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(*jsontree.LazyError); !ok {
			panic(r)
		}
		full, ferr := t.Full()
		if ferr != nil {
			panic(r)
		}
		out, err = canonicalOf(nb, full)
	}()
	return canonicalOf(nb, flat)
}

// canonicalOf is the canonical output of nb, written as t.
func canonicalOf(nb *Notebook, t *jsontree.Tape) ([]byte, error) {
	out, err := nbcanon.Write(t, nb.Nbformat)
	var p *nbcanon.Problem
	switch {
	case errors.As(err, &p):
		return nil, &FormatError{Pointer: Pointer(p.Pointer), Msg: p.Msg + ": " + ErrNotCanonical.Error(), Err: ErrNotCanonical}
	case errors.Is(err, nbcanon.ErrVersion):
		return nil, fmt.Errorf("nbformat: canonical output for nbformat %d: %w", nb.Nbformat, ErrUnsupportedVersion)
	}
	return out, err
}
