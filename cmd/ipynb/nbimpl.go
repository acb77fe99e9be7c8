package main

import (
	"io"

	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
)

// Typed wrappers of the parts of nbformat that only the module uses
// (internal/nbimpl): reading with nbformat's limits, without a second copy
// of the file (the command's memory budget depends on it).

// nbformat's defaults: the limits of reading, and the newest major version.
const (
	maxBytes     = nblimits.DefaultMaxBytes
	maxDepth     = nblimits.DefaultMaxDepth
	maxString    = nblimits.DefaultMaxString
	majorVersion = nblimits.MajorVersion
)

// unmarshalOwned reads a notebook from data without copying it: the
// notebook keeps data, which must never change afterwards.
func unmarshalOwned(data []byte) (*nbformat.Notebook, error) {
	return nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(data)
}

// readAll reads r to its end as nbformat reads a stream: at most maxBytes
// (more is a *nbformat.SyntaxError matching nbformat.ErrLimit), refusing
// bytes no JSON holds (such as NUL) as soon as they are read.
func readAll(r io.Reader) ([]byte, error) { return nbimpl.ReadAll(r, 0) }
