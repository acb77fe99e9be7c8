package main

import (
	"math"
	"os"
	"runtime/debug"
)

// Memory of one merge: merge and fix hold the sides of a merge, its
// result and what reading them needs at once, and at the runtime's
// default pace (GOGC 100: the heap may grow to twice what is live before
// a collection) peaked at about twice that. mergeMemory makes the
// runtime collect before the heap passes a soft limit proportional to the
// merge's largest input, so that the peak is what is live (see
// TestMergeMemoryScales).

// mergeMemoryPerByte and mergeMemoryBase make the soft limit: this many
// bytes per byte of the largest input, plus the runtime's own.
const (
	mergeMemoryPerByte = 2.5
	mergeMemoryBase    = 24 << 20
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
