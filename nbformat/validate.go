package nbformat

// Validate and Problems: the schema check of internal/nbvalid over the
// notebook as written, problems placed.

import (
	"bytes"
	"errors"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbvalid"
)

// Validate checks nb against the official schema of its own version, as
// Python nbformat's isvalid does (without its silent id repair): nbformat
// 4.0 to 4.5 and 3.0 each against their own schema; a newer minor version
// against the latest schema of its major version, relaxed as nbformat relaxes
// it (unknown members, cell and output types allowed); versions 1 and 2
// have no schema and are reported invalid. For 4.5 and later, cell ids must
// also be unique.
//
// It returns nil, or an error joining one *[ValidationError] per problem,
// in document order (use [Problems] to list them; their Keyword tells
// them apart). The error
// pointers refer to the notebook as [Marshal] writes it. Any other error
// means the notebook could not be checked (it cannot be written, say):
// Problems returns nil for it. Validate changes nothing.
func Validate(nb *Notebook) error {
	t, err := nb.tape()
	if err != nil {
		return err
	}
	found := nb.problems(t)
	if len(found) == 0 {
		return nil
	}
	return nb.joinProblems(t, found)
}

// joinProblems is Validate's error for the problems found on t (kept out
// of Validate's frame, which is on the stack while the schema is checked).
func (nb *Notebook) joinProblems(t *jsontree.Tape, found []located) error {
	probs := make([]*ValidationError, len(found))
	for i, f := range found {
		probs[i] = f.err
	}
	if nb.src != nil && t == nb.src.tape {
		placeProblems(t.Data, probs)
	}
	errs := make([]error, len(probs))
	for i, p := range probs {
		errs[i] = p
	}
	return errors.Join(errs...)
}

// Problems returns the *ValidationError values in an error returned by
// Validate (nil for other errors).
func Problems(err error) []*ValidationError {
	var out []*ValidationError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case *ValidationError:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return out
}

// tape returns the notebook as it would be written, parsed.
func (nb *Notebook) tape() (*jsontree.Tape, error) {
	if nb.src != nil {
		if nb.unedited() {
			if nb.dropBOM && nb.src.tape.BOM {
				// Heal removed the byte-order mark: the bytes written have none.
				t := *nb.src.tape
				t.BOM = false
				return &t, nil
			}
			return nb.src.tape, nil
		}
	}
	return nb.encodedTape()
}

// encodedTape returns what the encoder writes for nb, parsed: tape, for
// a notebook known not to be as read (or written as the encoder writes it
// all the same: the encoder copies an unedited notebook's bytes), without
// asking again (Marshal's asRead would).
func (nb *Notebook) encodedTape() (*jsontree.Tape, error) {
	if err := nilVariantError(nb); err != nil {
		return nil, err
	}
	var data []byte
	err := nb.encode(func(pieces ...[]byte) error {
		if len(pieces) == 1 { // the encoder's own buffer
			data = pieces[0]
			return nil
		}
		data = join(pieces)
		return nil
	}, false)
	if err != nil {
		return nil, err
	}
	return parseWritten(data)
}

// parseWritten parses the bytes written for a notebook.
func parseWritten(data []byte) (*jsontree.Tape, error) {
	t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
	if err != nil {
		return nil, syntaxError("", data, err)
	}
	return t, nil
}

// problems is locateProblems(t) for the notebook nb on tape t, the same
// answer for the same bytes: the problems of the bytes nb was read from
// (t is its source's tape: nb is unedited) are found once and remembered,
// and each call gets its own copies (callers set their lines and columns).
// Validating an unedited notebook again (Validate twice, Validate then
// Heal) then costs only the check that it is unedited.
func (nb *Notebook) problems(t *jsontree.Tape) []located {
	if nb.src == nil || t != nb.src.tape {
		return locateProblems(t)
	}
	if p := nb.src.problems.Load(); p != nil {
		return copyLocated(*p)
	}
	found := locateProblems(t)
	if len(found) == 0 {
		nb.src.problems.Store(&noProblems) // (a valid notebook's memo allocates nothing)
		return found
	}
	kept := copyLocated(found)
	nb.src.problems.Store(&kept)
	return found
}

// noProblems is the memo of every notebook read from valid bytes (see
// problems): an empty list, shared, which nothing appends to (readers
// copy it: copyLocated of an empty list is nil).
var noProblems = []located{}

// copyLocated copies found and the problems it points to (out of line:
// problems' frame is on the stack while the schema is checked).
//
//go:noinline
func copyLocated(found []located) []located {
	if len(found) == 0 {
		return nil
	}
	out := make([]located, len(found))
	for i, f := range found {
		e := *f.err
		out[i] = located{f.node, &e}
	}
	return out
}

// locateProblems validates the notebook on t (see internal/nbvalid) and
// returns each problem with the tape node it is about, in document order.
// The tape's lazy nodes hold nothing the schemas read (see notebookShape);
// should the validator need one's interior all the same, it validates a
// full parse instead, and the nodes returned are that parse's (only Heal
// reads them, and it reads a full tape whenever there are problems).
func locateProblems(t *jsontree.Tape) []located {
	ps := nbvalid.Check(t)
	if len(ps) == 0 {
		return nil
	}
	return locate(ps)
}

// locate returns the problems ps as located ones (kept out of
// locateProblems' frame, which is on the stack while the schema is
// checked).
//
//go:noinline
func locate(ps []nbvalid.Problem) []located {
	found := make([]located, len(ps))
	for i, p := range ps {
		e := newValidationError(Pointer(p.Pointer), p.Keyword, p.Member, p.Msg)
		e.offset = int64(p.Offset)
		found[i] = located{p.Node, e}
	}
	return found
}

// placeProblems sets the line and column of problems whose offsets are
// known, in one pass over data (probs are in document order): the lines
// between two problems are counted, and the column is the distance from
// the last line's start, each by a vectorized search (bytes.Count,
// bytes.LastIndexByte) rather than a loop over every byte.
func placeProblems(data []byte, probs []*ValidationError) {
	line, col, off := 1, 1, int64(0)
	for _, p := range probs {
		if p.offset < off || p.offset > int64(len(data)) {
			if p.offset >= 0 && p.offset <= int64(len(data)) {
				p.Line, p.Column = jsontree.Position(data, p.offset)
			}
			continue
		}
		span := data[off:p.offset]
		if nl := bytes.LastIndexByte(span, '\n'); nl >= 0 {
			line += bytes.Count(span[:nl+1], []byte{'\n'})
			col = len(span) - nl
		} else {
			col += len(span)
		}
		off = p.offset
		p.Line, p.Column = line, col
	}
}

// located is a problem and the node it is about.
type located struct {
	node int
	err  *ValidationError
}
