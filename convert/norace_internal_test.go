//go:build !race

package convert

// raceInternal reports a -race build (for the package's internal tests; see
// raceBuild).
const raceInternal = false
