package main

import (
	"errors"
	"io"

	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/internal/nbread"
	"github.com/nbdialog/ipynb/nbformat"
)

// Reading as nbformat reads, with its limits, without a second copy of the
// file (the command's memory budget depends on it).

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

// readAll reads r to its end as nbformat reads a stream (see
// nbread.ReadParsed): at most maxBytes (more is a *nbformat.SyntaxError
// matching nbformat.ErrLimit), refusing bytes no JSON holds (such as NUL)
// as soon as they are read, with the *nbformat.SyntaxError
// nbformat.Unmarshal reports for them.
func readAll(r io.Reader) ([]byte, error) {
	return nbread.ReadParsed(r, 0, maxBytes, func(prefix []byte) (int64, bool, error) {
		_, err := unmarshalOwned(prefix)
		var se *nbformat.SyntaxError
		if !errors.As(err, &se) {
			return 0, false, nil
		}
		return se.Offset, se.Limit, se
	}, func(le *nbread.LimitError) error {
		return &nbformat.SyntaxError{Offset: le.Limit, Msg: le.Error(), Limit: true}
	})
}
