// Package zerocopy views memory as another type without copying it: bytes
// as a string, a string as bytes, a slice of pointer-free values as bytes.
// It holds the module's one use of package unsafe (zerocopy_unsafe.go; the
// other two are system calls: cmd/ipynb/tty_unix.go, internal/atomicfile);
// built with the purego tag, its twin (zerocopy_purego.go) copies instead,
// or declines ([Raw] returns nil), and callers take their plain path.
//
// Every view shares memory with what it views, so the rules are those of
// the memory: bytes viewed as a string must never change while the string
// lives; bytes viewed from a string must never be written.
package zerocopy
