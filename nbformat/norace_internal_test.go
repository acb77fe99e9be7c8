//go:build !race

package nbformat

// raceInternal reports a -race build, whose instrumentation allocates (so
// tests counting allocations skip there).
const raceInternal = false
