//go:build race

package convert_test

// raceBuild reports a -race build, whose instrumentation allocates (so
// tests measuring allocated bytes skip there).
const raceBuild = true
