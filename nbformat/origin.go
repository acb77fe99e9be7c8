package nbformat

import (
	"slices"
	"unsafe"
)

// Finding the node a cell or output was decoded from (its original, for
// the writer's matching and edit locality; see match.go and
// encoder.enter), without a map from every value read.
//
// The decoder hands out the cells and outputs of a notebook from blocks,
// one kind of value per block (see variantSlab), and each value handed out
// sits in a slot that also holds the node it was decoded from. The source
// records every block (its address range, what it holds), sorted by
// address. A cell or output is an original of this source exactly when it
// is a pointer into one of these blocks, of the block's type, at a slot's
// start, and then its slot says its node:
//
//   - the source's record holds each block's address as a pointer, so the
//     blocks live as long as the source: no other value can be allocated
//     where a block is, so a pointer into a block is one of the values the
//     decoder handed out, never a value made later (a cell the user
//     created, a copy of a cell by value, a cell of another notebook,
//     even one read from the same bytes: each is allocated elsewhere);
//   - blocks are made by one decoder for one source only (never pooled,
//     never shared), so a cell moved from another notebook lies in none
//     of this source's blocks;
//   - Go's collector does not move heap objects, so the addresses are
//     stable; blocks are distinct live objects, so their ranges do not
//     overlap and one binary search finds the only block that can hold a
//     pointer.
//
// TestOriginExact checks these (a new cell, a copy, a cell of another
// notebook of the same bytes, every cell and output read).

// slot is a cell or output of a block, with the node it was decoded from.
type slot[T any] struct {
	v    T
	node int32 // 1 + the node; 0: not handed out
}

// originKind tells what a block holds: a variant (cells and outputs of
// known types, UnknownCell for unknownVariant), or unknownOutputKind.
type originKind = variant

// unknownOutputKind is the kind of the blocks of UnknownOutput values.
const unknownOutputKind = variantCount

// origin is a block of cells or outputs handed out by the decoder.
type origin struct {
	base    unsafe.Pointer // the block's first slot (keeping the block alive)
	end     uintptr        // the address past its last slot
	stride  uintptr        // the size of a slot
	nodeOff uintptr        // the offset of slot.node in a slot
	kind    originKind
}

// variantSlab hands out values of one cell or output type from blocks, as
// slab does, each in a slot that records its node; every block it makes is
// recorded in the source.
type variantSlab[T any] struct {
	slab[slot[T]]
}

// reserve makes room for n more values in the current block.
func (s *variantSlab[T]) reserve(n int, src *source, k originKind) {
	if n > len(s.free) {
		s.alloc(n)
		addBlock(src, s.free, k)
	}
}

// next returns a new zero value, recorded as decoded from node j.
func (s *variantSlab[T]) next(src *source, k originKind, j int) *T {
	if len(s.free) == 0 {
		s.alloc(4)
		addBlock(src, s.free, k)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	p.node = int32(j) + 1
	return &p.v
}

// addBlock records block, a new block of values of kind k, in src.
func addBlock[T any](src *source, block []slot[T], k originKind) {
	if len(block) == 0 {
		return
	}
	var z slot[T]
	base := unsafe.Pointer(unsafe.SliceData(block))
	o := origin{
		base:    base,
		end:     uintptr(base) + uintptr(len(block))*unsafe.Sizeof(z),
		stride:  unsafe.Sizeof(z),
		nodeOff: unsafe.Offsetof(z.node),
		kind:    k,
	}
	i, _ := slices.BinarySearchFunc(src.blocks, uintptr(base), func(b origin, a uintptr) int {
		return cmpAddr(uintptr(b.base), a)
	})
	src.blocks = slices.Insert(src.blocks, i, o)
}

func cmpAddr(a, b uintptr) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// originOf returns the node cell or output x (a Cell or an Output) was
// decoded from, if it is one the source's decoder handed out.
func (s *source) originOf(x any) (int32, bool) {
	var p unsafe.Pointer
	var k originKind
	switch x := x.(type) {
	case *CodeCell:
		p, k = unsafe.Pointer(x), codeVariant
	case *MarkdownCell:
		p, k = unsafe.Pointer(x), markdownVariant
	case *RawCell:
		p, k = unsafe.Pointer(x), rawVariant
	case *UnknownCell:
		p, k = unsafe.Pointer(x), unknownVariant
	case *ExecuteResult:
		p, k = unsafe.Pointer(x), executeResultVariant
	case *DisplayData:
		p, k = unsafe.Pointer(x), displayDataVariant
	case *Stream:
		p, k = unsafe.Pointer(x), streamVariant
	case *ErrorOutput:
		p, k = unsafe.Pointer(x), errorVariant
	case *UnknownOutput:
		p, k = unsafe.Pointer(x), unknownOutputKind
	}
	if p == nil || s == nil {
		return 0, false
	}
	a := uintptr(p)
	// The last block starting at or before a.
	i, found := slices.BinarySearchFunc(s.blocks, a, func(b origin, a uintptr) int {
		return cmpAddr(uintptr(b.base), a)
	})
	if !found {
		i--
	}
	if i < 0 {
		return 0, false
	}
	b := &s.blocks[i]
	if a >= b.end || b.kind != k || (a-uintptr(b.base))%b.stride != 0 {
		return 0, false
	}
	// p is the first field of a live slot of the block (a is inside it,
	// at a slot's start), whose node field is at nodeOff.
	node := *(*int32)(unsafe.Add(p, b.nodeOff))
	if node <= 0 {
		return 0, false
	}
	return node - 1, true
}
