package textdiff

import "sync/atomic"

// work counts the steps of every comparison the package makes.
var work atomic.Int64

// Work returns the steps of comparison the package's functions have
// made since the program started, summed over all goroutines. A step is
// one element handled — classified, compared, passed by a snake or a
// trim, slid, sorted, counted — and CommonLines also counts the bytes it
// hashes by 64. The count grows as the time does, so tests can check how
// the work of a diff, a merge or an alignment grows with its input
// without timing it. A function adds its steps once, when it returns.
func Work() int64 { return work.Load() }
