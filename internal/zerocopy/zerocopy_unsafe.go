//go:build !purego

package zerocopy

import "unsafe"

// Views are made without copying (see the package documentation).
const Views = true

// String returns b as a string sharing b's memory: b must never change
// afterwards (the string keeps b's array alive).
func String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bytes returns the bytes of s sharing s's memory, for reading only: they
// must never be written.
func Bytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Raw returns the memory of s as bytes (len(s) * the size of T). T must
// hold no pointers: the collector does not scan such memory, which bytes
// may then fill freely; the bytes are ordinary interior pointers into s's
// array, which keep all of it alive.
func Raw[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// StringOffset is Offset for the bytes of string s.
func StringOffset(s string, whole []byte) int {
	return offset(uintptr(unsafe.Pointer(unsafe.StringData(s))), len(s), whole)
}
