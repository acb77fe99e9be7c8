package stackroom_test

import (
	"fmt"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/stackroom"
)

// TestEnsureMakesRoom: after Ensure(n), a goroutine whose stack was at
// its least has n bytes free (less a margin for the frame of Grew, which
// probes it): work of that depth no longer grows the stack. Without the
// call (the control that StackRoomAfter runs) the same probe grows it.
func TestEnsureMakesRoom(t *testing.T) {
	for _, n := range []int{3 << 10, 4 << 10, 6 << 10, 8 << 10, 12 << 10, 16 << 10, 20 << 10, 32 << 10, 64 << 10, stackroom.Notebook} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if !nbtest.StackRoomAfter(t, n-256, func() { stackroom.Ensure(n) }) {
				t.Errorf("Ensure(%d) left less than %d bytes free", n, n-256)
			}
		})
	}
}

// TestGrewSeesAGrowth: Grew reports the growth of a small stack, and none
// once the room is there.
func TestGrewSeesAGrowth(t *testing.T) {
	if nbtest.StackRoomAfter(t, 32<<10, func() {}) {
		t.Fatal("a shrunk stack has room for 32 KiB")
	}
	if !nbtest.StackRoomAfter(t, 32<<10, func() {
		if !stackroom.Grew(32 << 10) {
			t.Error("Grew(32 KiB) on a shrunk stack reports no growth")
		}
	}) {
		t.Error("after Grew(32 KiB), 32 KiB more grows the stack again")
	}
}

// BenchmarkEnsureWithRoom is the cost of Ensure where the stack already has
// the room: a call and a comparison.
func BenchmarkEnsureWithRoom(b *testing.B) {
	stackroom.Ensure(stackroom.Notebook)
	for b.Loop() {
		stackroom.Ensure(stackroom.Notebook)
	}
}
