// Package nbimpl holds the parts of package nbformat that only the
// module's own packages use (convert, internal/v3write, nbformat's tests):
// a few entry points that are not part of nbformat's public API (its
// limits and version are internal/nblimits'). It is the pattern of
// protobuf-go's protoimpl: nbformat sets the functions when it is
// initialized, and every importer of this package also imports nbformat
// (it handles nbformat's values), so they are never nil when used.
//
// This package cannot import nbformat (nbformat imports it), so values of
// nbformat's types pass as any; each function documents the dynamic types.
package nbimpl

var (
	// ReadIDProblems reports, for an *nbformat.Notebook read from bytes,
	// whether every problem of those bytes (validated once, as for
	// nbformat.Validate) is about the id of a cell (missing, invalid, or the id of
	// an earlier cell), and returns the indices of those cells in document
	// order (none for valid bytes), with the size of their JSON and of
	// the whole file, in bytes; ok is false for a notebook not read from
	// bytes and for bytes with other problems.
	ReadIDProblems func(nb any) (cells []int, cellBytes, fileBytes int, ok bool)
)
