//go:build !race

package nbvalid

// raceInternal reports a -race build (for the package's tests).
const raceInternal = false
