// Package stackroom grows the calling goroutine's stack while the call
// chain is still shallow, so that work known to go deep does not grow it
// at its deepest point.
//
// A goroutine's stack grows by copying: the runtime allocates one twice as
// large (or more, to fit the frame that did not fit), copies the frames
// and adjusts every pointer into the stack, frame by frame, so a growth
// costs in proportion to the number of frames then on the stack. A garbage
// collection halves the stack of a goroutine that uses less than a quarter
// of it, so code that runs after a collection (a program reading one
// notebook, then another, collecting in between) grows the stack again,
// each time. A validation of a notebook reaches ~7 KB below its caller,
// ~2-3 frames per JSON level: growing there adjusts dozens of frames. [Ensure],
// called at the entry points, makes room for the whole of the work while
// the stack holds only the caller's few frames.
//
// Ensure is only an optimization: without it the stack grows where it must,
// as always; with it the same growth happens earlier and cheaper. Where
// the stack already has the room, Ensure costs a call and a comparison
// (the prologue of a function with a large frame that is never used).
package stackroom

import "unsafe"

// Notebook is the room nbformat's Unmarshal, Validate, Marshal, MarshalTo
// and Heal and convert's Marshal make (convert's Unmarshal makes it
// through nbformat's). Measured over the corpus of real notebooks (576
// files), below the entry point: the nbformat round trip
// (Unmarshal+Validate+Marshal) needs at most ~5 KB (~9.5 KB before the
// validator's frames were cut); the dialog round trip (convert's
// Unmarshal+Marshal) under ~7 KB for 531 files, up to ~14 KB for the
// others (the deepest: the version 3 upgrade and the heal of invalid
// files, whose frames are large). Called
// shallow, Ensure(Notebook) makes a stack of 16 KiB, ~15 KiB of it free,
// which holds all of them (TestStackRoomCoversTheCorpus in package
// convert; it fails at 4 KiB). Deeper input (values nested deeper than
// the schemas go) grows the stack where it must.
const Notebook = 12 << 10

// Ensure makes sure the calling goroutine's stack has at least n bytes
// free below the caller's frame (up to 64 KiB; larger n get 64 KiB),
// growing it now if it has not.
func Ensure(n int) {
	// Each function has a frame of its size, checked by its prologue
	// (the runtime grows the stack to fit the frame); the frame is never
	// written: the array lives in a branch never taken, so nothing is
	// zeroed.
	switch {
	case n <= 4<<10:
		room4K(false)
	case n <= 8<<10:
		room8K(false)
	case n <= 12<<10:
		room12K(false)
	case n <= 16<<10:
		room16K(false)
	case n <= 32<<10:
		room32K(false)
	default:
		room64K(false)
	}
}

// Grew calls Ensure(n) and reports whether that grew the stack: whether
// the stack had less than n bytes free below the caller's frame (for
// tests: a growth moves the stack, and with it this frame's variable,
// whose address, kept as a number, the runtime does not adjust; the
// number is only compared, never made a pointer again, so nothing can
// reach through it into a stack that moved). A collection may shrink a
// stack, so tests that need a stack to keep its room turn collections off.
func Grew(n int) bool {
	var here byte
	before := uintptr(unsafe.Pointer(&here))
	Ensure(n)
	return uintptr(unsafe.Pointer(&here)) != before
}

// keep takes the address of a room's array, so that the array stays in
// its frame (keep does not let it escape: it stays on the stack).
//
//go:noinline
func keep(p *byte) {}

//go:noinline
func room4K(use bool) {
	if use {
		var b [4<<10 - 64]byte
		keep(&b[0])
	}
}

//go:noinline
func room8K(use bool) {
	if use {
		var b [8<<10 - 64]byte
		keep(&b[0])
	}
}

//go:noinline
func room12K(use bool) {
	if use {
		var b [12<<10 - 64]byte
		keep(&b[0])
	}
}

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
