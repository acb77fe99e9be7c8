package jsontree

import "sync/atomic"

// scanned counts the bytes handed to the parser (see Scanned).
var scanned atomic.Int64

// Scanned returns the number of bytes the parser has been given to read in
// the process so far: for every Parse, ParseShaped and Expand,
// from where it starts to the end of what it may read. It costs one
// addition per parse. Tests use it to show that the work of reading,
// validating and writing is linear in the input (a value parsed again at
// every level or element it holds makes it grow faster).
func Scanned() int64 { return scanned.Load() }
