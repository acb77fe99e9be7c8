//go:build !linux

package testtier

// memTempFits elsewhere: never (TMPDIR stays the system's).

// memTempFits reports false: only Linux's tmpfs is recognized.
func memTempFits(dir string, room uint64) bool { return false }
