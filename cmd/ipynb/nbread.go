package main

import (
	"errors"
	"fmt"
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

// readAll reads r to its end as nbformat reads a stream: at most maxBytes
// (more is a *nbformat.SyntaxError matching nbformat.ErrLimit), refusing
// bytes no JSON holds (such as NUL) as soon as they are read, with the
// *nbformat.SyntaxError nbformat.Unmarshal reports for them.
func readAll(r io.Reader) ([]byte, error) {
	var refused *nbformat.SyntaxError
	data, err := nbread.ReadAll(r, 0, maxBytes, func(prefix []byte) error {
		_, err := nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(prefix)
		if errors.As(err, &refused) && !refused.Limit && refused.Offset < int64(len(prefix)) {
			return refused
		}
		refused = nil
		return nil
	})
	var limit *nbread.LimitError
	switch {
	case err == nil:
		return data, nil
	case refused != nil:
		return nil, refused
	case errors.As(err, &limit):
		return nil, &nbformat.SyntaxError{Offset: limit.Limit, Msg: limit.Error(), Limit: true}
	}
	return nil, fmt.Errorf("nbformat: %w", err)
}
