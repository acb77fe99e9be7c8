package zerocopy

import "reflect"

// Offset returns where the bytes of part lie within those of whole (the
// index of part's first byte in whole), or -1 when they do not (or part is
// empty): for tests of what views whole's memory.
func Offset(part, whole []byte) int {
	return offset(reflect.ValueOf(part).Pointer(), len(part), whole)
}

// In reports whether part is a view of whole's memory (see Offset).
func In(part, whole []byte) bool { return Offset(part, whole) >= 0 }

// StringIn reports whether string s is a view of whole's memory (see
// StringOffset).
func StringIn(s string, whole []byte) bool { return StringOffset(s, whole) >= 0 }

func offset(p uintptr, n int, whole []byte) int {
	lo := reflect.ValueOf(whole).Pointer()
	if n > 0 && len(whole) > 0 && p >= lo && p+uintptr(n) <= lo+uintptr(len(whole)) {
		return int(p - lo)
	}
	return -1
}
