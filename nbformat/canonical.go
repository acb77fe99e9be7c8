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

func marshalCanonical(nb *Notebook) ([]byte, error) {
	var out []byte
	err := onCanonicalTape(nb, func(t *jsontree.Tape) (err error) {
		out, err = nbcanon.Write(t, nb.Nbformat)
		return canonicalError(nb, err)
	})
	return out, err
}

// canonicalAsRead returns the bytes nb was read from, not copied, when nb
// is unedited and they are its canonical bytes already (no byte-order
// mark, nothing before the JSON): recognised without building them anew.
func canonicalAsRead(nb *Notebook) ([]byte, bool, error) {
	lead, rest, ok := nb.asRead()
	if !ok || len(lead) != 0 {
		return nil, false, nil
	}
	var same bool
	err := onCanonicalTape(nb, func(t *jsontree.Tape) (err error) {
		same, err = nbcanon.Same(t, nb.Nbformat, rest)
		return canonicalError(nb, err)
	})
	if err != nil || !same {
		return nil, false, err
	}
	return rest, true, nil
}

// onCanonicalTape calls f with the tape nb's canonical bytes are written
// from. Python's writer reads every value: every container gets its
// nodes, except flat arrays (of numbers, strings, …), streamed from their
// bytes, so that a file dense in small values stays cheap. Should a rule
// read a flat array's elements as nodes all the same, f is called again
// with a full parse.
func onCanonicalTape(nb *Notebook, f func(*jsontree.Tape) error) (err error) {
	t, err := nb.tape() // the bytes read, when unedited
	if err != nil {
		return err
	}
	if !t.HasLazy() {
		return f(t)
	}
	flat, err := jsontree.ParseFlat(t.Data, jsontree.Limits{}, notebookShape())
	if err != nil {
		return err
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
		err = f(full)
	}()
	return f(flat)
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
