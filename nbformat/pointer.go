package nbformat

// Pointer: a JSON Pointer (RFC 6901) into the notebook as written.

import (
	"github.com/nbdialog/ipynb/internal/jsonpointer"
)

// A Pointer is an RFC 6901 JSON Pointer into a notebook, such as
// "/cells/3/outputs/0". The empty pointer is the whole document. Errors
// and repairs carry one: its reference tokens are the parts between
// slashes, with "~1" standing for "/" and "~0" for "~" in them.
type Pointer string

// appendToken returns p extended by one reference token (a member name).
func (p Pointer) appendToken(tok string) Pointer {
	return Pointer(jsonpointer.AppendToken(string(p), tok))
}

// appendIndex returns p extended by an array index.
func (p Pointer) appendIndex(i int) Pointer {
	return Pointer(jsonpointer.AppendIndex(string(p), i))
}
