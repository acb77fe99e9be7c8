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

// HealOptions are the options of nbformat.Heal that only the module sets.
type HealOptions struct {
	// KeepBOM leaves a UTF-8 byte-order mark before the JSON as it was
	// read (nbformat.Heal removes it, as Python's json module refuses
	// such a file); convert keeps it, so that a dialog's file comes back
	// exactly as it went in.
	KeepBOM bool
	// Written, if not nil, is set to the bytes nbformat.Marshal writes for
	// the healed notebook when Heal wrote them itself to check its result
	// (it repaired something, or the notebook was not as read), and to nil
	// otherwise (Marshal then writes the bytes read, with no encoding).
	// They are what Marshal writes as long as the notebook is not changed,
	// and no one else holds them: a caller that writes the notebook right
	// after healing it is spared a second encoding of the whole notebook.
	Written *[]byte
}

var (
	// Heal is nbformat.Heal with options: nb is an *nbformat.Notebook,
	// repairs a []nbformat.Repair.
	Heal func(nb any, o HealOptions) (repairs any, err error)

	// ReadIDProblems reports, for an *nbformat.Notebook read from bytes,
	// whether every problem of those bytes (validated once, as for
	// nbformat.Validate) is about the id of a cell (missing, invalid, or the id of
	// an earlier cell), and returns the indices of those cells in document
	// order (none for valid bytes), with the size of their JSON and of
	// the whole file, in bytes; ok is false for a notebook not read from
	// bytes and for bytes with other problems.
	ReadIDProblems func(nb any) (cells []int, cellBytes, fileBytes int, ok bool)

	// UpgradedCopy returns a version 2 or 3 *nbformat.Notebook upgraded as
	// nbformat.Upgrade upgrades it (an *nbformat.Notebook), leaving nb as
	// it is, without parsing its bytes again. With ids false its cells are
	// left with the empty ids the upgrade gives them, for a caller that
	// gives every cell an id of its own (convert, which derives them from
	// the messages): Upgrade's own derivation of ids is spared.
	UpgradedCopy func(nb any, ids bool) (any, error)
)
