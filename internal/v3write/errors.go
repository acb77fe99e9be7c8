package v3write

import (
	"errors"
	"strings"
)

// ErrNotRepresentable is wrapped by the *Error of a cell holding what
// nbformat 3 has no place for (attachments, output data whose MIME types
// share a version 3 key, …): writing it would lose or change it.
var ErrNotRepresentable = errors.New("not representable in nbformat 3")

// ErrNotVersion3 is wrapped by the *Error of an input that is not an
// nbformat 3 notebook.
var ErrNotVersion3 = errors.New("not an nbformat 3 notebook")

// An Error reports what Write could not do, and where.
type Error struct {
	// Input is "ours", "theirs" (the version 3 files), or "cells" (the
	// cells to write).
	Input string
	// Pointer is the JSON Pointer of the place in Input
	// ("/worksheets/0/cells/3"; for the cells to write, "/cells/5/…" by
	// their index), or "" for the whole input.
	Pointer string
	// Err says what is wrong (for an input that is not JSON, nbformat's
	// *SyntaxError with its line and column).
	Err error
}

// Error returns "v3write: INPUT[POINTER]: " and what is wrong.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("v3write: ")
	b.WriteString(e.Input)
	if e.Pointer != "" {
		b.WriteString(" ")
		b.WriteString(e.Pointer)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns what is wrong.
func (e *Error) Unwrap() error { return e.Err }
