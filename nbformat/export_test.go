package nbformat

import "io"

// The package's internals that its external tests use.

// ReadAll reads r to its end as UnmarshalOptions{MaxBytes:
// maxBytes}.Read does, and returns the bytes read.
func ReadAll(r io.Reader, maxBytes int64) ([]byte, error) {
	return UnmarshalOptions{MaxBytes: maxBytes}.readAll(r, 0)
}
