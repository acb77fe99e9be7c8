package main

import (
	"math"
	"os"
	"runtime/debug"
)

// Memory of one merge: merge and fix hold two of a merge's inputs at
// once, with what reading them needs (the base is reduced to what the
// merge needs of it before theirs is read, and the result is written as
// it is made: see convert.MergeTo), three when the base cannot be
// reduced; at the runtime's default pace (GOGC 100: the heap may grow to
// twice what is live before a collection) the peak would be about twice
// that. mergeMemory makes the runtime collect before the heap passes a
// soft limit proportional to the merge's largest input, so that the peak
// stays near what is live (see TestMergePeakMemoryLong).

// mergeMemoryPerByte and mergeMemoryBase make the soft limit: this many
// bytes per byte of the largest input, plus the runtime's own. What a
// merge holds live at its peak is about 2.2 bytes per byte (ours' and
// theirs' texts, and what reading them made; where both sides re-ran
// every cell too, as base's outputs neither side holds are read one at a
// time and theirs' are decoded into the result a cell at a time), so the
// limit leaves the collector a little room above it, rather than the
// heap growing to twice it (lower, the collector runs nearly all the
// time: at 2.0 bytes per byte and 12 MiB, a 32 MB merge of notebooks
// whose cells both sides re-ran took 65% more CPU time for 3% less
// memory).
const (
	mergeMemoryPerByte = 2.25
	mergeMemoryBase    = 12 << 20
)

// mergeMemory sets the runtime's soft memory limit for a merge whose
// largest input has size bytes (a user's GOGC or GOMEMLIMIT is left
// alone), and returns a function restoring the previous limit.
func mergeMemory(size int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := int64(math.Min(float64(math.MaxInt64/2), mergeMemoryPerByte*float64(size))) + mergeMemoryBase
	prev := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// fileMemoryPerByte and fileMemoryBase make the soft limit of a command
// reading one notebook (check, fmt, strip): what it holds at once is the
// file, its tape and the output, which at the default pace peaked at
// about twice that.
const (
	fileMemoryPerByte = 1.5
	fileMemoryBase    = 8 << 20
)

// fileMemory sets the runtime's soft memory limit for a run over one
// notebook of size bytes, as mergeMemory does for a merge.
func fileMemory(size int64) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := int64(math.Min(float64(math.MaxInt64/2), fileMemoryPerByte*float64(size))) + fileMemoryBase
	prev := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}
