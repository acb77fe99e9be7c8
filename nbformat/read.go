package nbformat

// ReadFile and Read: reading a file or stream within the limits, refusing
// what cannot be JSON early.

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nbdialog/ipynb/internal/nbread"
)

// Reading notebooks from files and streams, with MaxBytes enforced while
// reading: never more than MaxBytes+1 bytes are read, and memory stays in
// proportion to what was read (at most MaxBytes+1 bytes of buffers when
// the input is refused), whether or not the input has a size.

// ReadFile reads the notebook in the named file with default limits. A
// regular file larger than the default MaxBytes is refused before anything
// is read; other files (pipes, devices) are read as [UnmarshalOptions.Read]
// reads. Errors name the file. (With other options, open the file and
// Read it.)
func ReadFile(name string) (*Notebook, error) {
	var o UnmarshalOptions
	data, err := o.readBytes(name)
	if err != nil {
		return nil, err
	}
	nb, err := o.unmarshal(data)
	if err != nil {
		return nil, withFile(name, err)
	}
	return nb, nil
}

// Read reads a notebook from r to its end. It enforces MaxBytes while
// reading: at most MaxBytes+1 bytes are read, and more is refused with a
// [*SyntaxError] for which errors.Is(err, ErrLimit) holds, the buffers
// never holding more than MaxBytes+1 bytes. Input that can never be JSON
// is refused as soon as it is read, with the [*SyntaxError] Unmarshal
// would report: a control character (such as the NUL bytes of /dev/zero)
// or a first value that no JSON value starts with; reading endless input
// of that kind stops at once.
func (o UnmarshalOptions) Read(r io.Reader) (*Notebook, error) {
	data, err := o.readAll(r, 0)
	if err != nil {
		return nil, err
	}
	return o.unmarshal(data)
}

// readBytes reads the named file. A regular file larger than MaxBytes is
// refused before reading it, and is read with one allocation of its size;
// a file that grows while it is read, and files without a size (pipes,
// character devices such as /dev/zero), are read as [UnmarshalOptions.Read]
// reads. Errors name the file.
func (o UnmarshalOptions) readBytes(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("nbformat: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("nbformat: %w", err)
	}
	var size int64
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	data, err := o.readAll(f, size)
	if err != nil {
		return nil, withFile(name, err)
	}
	return data, nil
}

// readAll reads r to its end (see internal/nbread). size is the expected
// size (0: unknown).
func (o UnmarshalOptions) readAll(r io.Reader, size int64) ([]byte, error) {
	return nbread.ReadParsed(r, size, o.maxBytes(), func(prefix []byte) (int64, bool, error) {
		_, err := o.unmarshal(prefix)
		var se *SyntaxError
		if !errors.As(err, &se) {
			return 0, false, nil
		}
		return se.Offset, se.Limit, se
	}, func(le *nbread.LimitError) error { return &SyntaxError{Offset: le.Limit, Msg: le.Error(), Limit: true} })
}
