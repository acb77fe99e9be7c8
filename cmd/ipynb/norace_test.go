//go:build !race

package main

// raceBuild reports a -race build, whose instrumentation allocates (so
// tests bounding allocated bytes per byte of input skip there).
const raceBuild = false
