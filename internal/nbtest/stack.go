package nbtest

// Measuring how deep a piece of work takes a goroutine's stack.

import (
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
)

// StackGrewDuring runs f on a new goroutine whose stack collections have
// first shrunk to its least, then grown to have at least n bytes free
// (n up to 64 KiB), with collections off until it returns, and reports
// whether f grew the stack: whether f's work went deeper than the room
// (up to twice n: a stack grows by doubling). A growth moves the stack,
// and with it the goroutine's variables, whose addresses (kept as
// numbers, which the runtime does not adjust, and only compared) tell.
func StackGrewDuring(t testing.TB, n int, f func()) bool {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	grew := make(chan bool)
	go func() {
		for range 8 {
			runtime.GC() // (forced: it runs with collections off)
		}
		room(n)
		var here byte
		before := reflect.ValueOf(&here).Pointer()
		f()
		grew <- reflect.ValueOf(&here).Pointer() != before
	}()
	return <-grew
}

// room grows the calling goroutine's stack to hold n more bytes (at most
// 64 KiB) below the caller: each room function has a frame of its size,
// which its prologue makes the runtime fit; the array lives in a branch
// never taken, so nothing is written.
func room(n int) {
	switch {
	case n <= 16<<10:
		room16K(false)
	case n <= 32<<10:
		room32K(false)
	default:
		room64K(false)
	}
}

//go:noinline
func keep(p *byte) {}

//go:noinline
func room16K(use bool) {
	if use {
		var b [16<<10 - 64]byte
		keep(&b[0])
	}
}

//go:noinline
func room32K(use bool) {
	if use {
		var b [32<<10 - 64]byte
		keep(&b[0])
	}
}

//go:noinline
func room64K(use bool) {
	if use {
		var b [64<<10 - 64]byte
		keep(&b[0])
	}
}
