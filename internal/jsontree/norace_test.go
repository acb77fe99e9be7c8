//go:build !race

package jsontree

// raceBuild reports a -race build, whose instrumentation allocates and
// whose sync.Pool drops items at random (so tests counting allocations
// skip there).
const raceBuild = false
