//go:build race

package nbv3

// raceInternal reports a -race build (for the package's tests).
const raceInternal = true
