package nbtest

import (
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/stackroom"
)

// StackRoomAfter runs f on a new goroutine whose stack collections have
// first shrunk to its least (a collection halves the stack of a
// goroutine using little of it), with collections then off until it
// returns (they would shrink it again), and reports whether, once f has
// returned, the goroutine's stack has n bytes free below the frame that
// called f without growing (see stackroom.Grew). A stack grown only as
// far as f's work needed has less room than one f made room in up front
// (stackroom.Ensure). It fails t when the goroutine's stack had the room
// before f ran (the test could not tell).
func StackRoomAfter(t testing.TB, n int, f func()) bool {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	run := func(f func()) bool {
		room := make(chan bool)
		go func() {
			for range 8 {
				runtime.GC() // (forced: it runs with collections off)
			}
			f()
			room <- !stackroom.Grew(n)
		}()
		return <-room
	}
	if run(func() {}) {
		t.Fatalf("a new goroutine's shrunk stack already has %d bytes free: the test cannot tell whether the work made room", n)
	}
	return run(f)
}

// StackGrewDuring runs f on a new goroutine whose stack collections have
// first shrunk to its least, then grown to have n bytes free
// (stackroom.Ensure), with collections off until it returns, and reports
// whether f grew the stack: whether f's work went deeper than the room
// (up to twice n: a stack grows by doubling). A growth moves the stack,
// and with it the goroutine's variables, whose addresses (kept as numbers,
// which the runtime does not adjust, and only compared: never made
// pointers again) tell.
func StackGrewDuring(t testing.TB, n int, f func()) bool {
	t.Helper()
	return len(StackGrowths(t, n, []func(){f})) > 0
}

// StackGrowths is StackGrewDuring for each work of fs in turn, on the same
// goroutine: it returns the indexes of those that grew the stack (each
// growth doubles it or more, so the work after one has more room).
func StackGrowths(t testing.TB, n int, fs []func()) []int {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	grew := make(chan []int)
	go func() {
		for range 8 {
			runtime.GC() // (forced: it runs with collections off)
		}
		stackroom.Ensure(n)
		var here byte
		var out []int
		for k, f := range fs {
			before := uintptr(unsafe.Pointer(&here))
			f()
			if uintptr(unsafe.Pointer(&here)) != before {
				out = append(out, k)
			}
		}
		grew <- out
	}()
	return <-grew
}
