//go:build !race

package testtier

// Race reports a -race build (see race.go).
const Race = false
