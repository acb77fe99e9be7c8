//go:build race

package draft04

// raceBuild reports a -race build, whose instrumentation allocates.
const raceBuild = true
