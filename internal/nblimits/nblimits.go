// Package nblimits holds package nbformat's default reading limits and the
// format version it writes, as constants for the module's packages that
// read notebooks or size their buffers alike (convert, the ipynb command,
// internal/v3write, internal/jsonsize).
package nblimits

// The default limits of nbformat.UnmarshalOptions (a field left 0 means
// the default). They are far beyond real notebooks (the largest seen are a
// few hundred megabytes, a few thousand cells, nesting below 50) and keep
// hostile input cheap to refuse.
const (
	DefaultMaxBytes  = 1 << 30 // 1 GiB
	DefaultMaxDepth  = 10000
	DefaultMaxCells  = 100000
	DefaultMaxString = 512 << 20 // 512 MiB
	DefaultMaxValues = 1 << 26   // 67,108,864 JSON values
)

// The format version nbformat writes for new notebooks, upgrades to and
// gives cell ids from (4.5). MinorVersion follows the newest schema in
// package schema (schema.latestV4Minor), checked by a test.
const (
	MajorVersion = 4
	MinorVersion = 5
)
