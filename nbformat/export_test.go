package nbformat

import "io"

// The package's internals that its external tests use.

// ReadAll reads r to its end as UnmarshalOptions{MaxBytes:
// maxBytes}.Read does, and returns the bytes read.
func ReadAll(r io.Reader, maxBytes int64) ([]byte, error) {
	return UnmarshalOptions{MaxBytes: maxBytes}.readAll(r, 0)
}

// HealWithIDs heals nb as Heal does, with candidate ids from newID
// (strings that are not valid ids, or ids in use, are skipped, so it must
// eventually return a valid, unused one), so that expectations read well.
func HealWithIDs(nb *Notebook, newID func() CellID) ([]Repair, error) {
	return heal(nb, HealOptions{}, newID)
}

// NewMimeBundle returns a bundle holding the given MIME type → text pairs.
func NewMimeBundle(pairs ...string) MimeBundle { return newMimeBundle(pairs...) }

// EncodeCompact is the encoder's compact JSON of any value, for the
// differential test of internal/nbjson.
func EncodeCompact(v any) ([]byte, error) { return encodeCompact(v) }
