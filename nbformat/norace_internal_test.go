//go:build !race

package nbformat

// raceInternal reports a -race build (for the package's internal tests; see
// raceBuild).
const raceInternal = false
