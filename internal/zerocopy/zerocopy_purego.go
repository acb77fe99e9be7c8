//go:build purego

package zerocopy

// Views are copies, and Raw declines (see the package documentation).
const Views = false

// String returns a copy of b as a string.
func String(b []byte) string { return string(b) }

// Bytes returns a copy of the bytes of s.
func Bytes(s string) []byte { return []byte(s) }

// Raw returns nil: the caller allocates the bytes it wanted in s's
// memory on their own.
func Raw[T any](s []T) []byte { return nil }

// StringOffset returns -1: no string views bytes (see Offset).
func StringOffset(s string, whole []byte) int { return -1 }
