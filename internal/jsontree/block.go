package jsontree

import (
	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// A Block asks [ParseBlock] to allocate, with the tape's nodes, what the
// caller would allocate next to them: a copy of the input, and spare
// bytes. Reading a small notebook on a heap just collected, each
// allocation of a kilobyte or more takes a span of its own, so three
// allocations of pointer-free bytes (the input's copy, the nodes, the
// reader's own record) cost three times what one does; one block of
// their total costs one.
type Block struct {
	// Copy makes the tape refer to a copy of the input, made after the
	// parse (the input may change once ParseBlock returns), instead of
	// to the input itself.
	Copy bool
	// Spare returns the number of spare bytes wanted for a tape of n
	// nodes (nil: none).
	Spare func(n int) int
	// Tape, when not nil, is where the tape is made (what it held is
	// overwritten) and the *Tape returned: a caller that allocates a
	// block of its own for what it builds from the tape puts the tape in
	// it, saving the tape's own allocation. Nothing is written to it
	// when ParseBlock fails.
	Tape *Tape
}

// blockCopyMax is the largest input whose copy ParseBlock puts in the
// nodes' block. The block is zeroed when allocated (as any make is); a
// copy of its own (append) is not: zeroing the bytes of the copy costs
// about what a span costs at 32 KiB (where the allocator's size classes
// end and each object takes a span of its own anyway).
const blockCopyMax = 32 << 10

// nodeSize is the size of a Node (28 bytes: six int32 and two bytes,
// padded to a multiple of 4; TestNodeSize checks it).
const nodeSize = 28

// ParseBlock is [ParseShaped] with the nodes of the tape allocated in one
// block with the spare bytes b asks for (returned, of that length and
// capacity) and, with b.Copy, the copy of data the tape refers to
// (inputs up to 32 KiB; a larger one is copied on its own). The spare
// bytes are zero. The tape and the spare bytes keep each other's memory
// alive: a caller keeping only the spare bytes (or only a string sharing
// the copy) keeps the whole block.
//
// The block is a []Node whose end is used as bytes (zerocopy.Raw over
// the same memory). That is sound because a Node holds no pointers (see
// TestNodeHoldsNoPointers): the block is allocated as memory the
// collector does not scan, which bytes may then fill freely, and the
// slices of bytes into it are ordinary interior pointers, which keep the
// whole allocation alive; bytes need no alignment. Built with purego,
// the nodes, the spare bytes and the copy are allocated apart.
func ParseBlock(data []byte, lim Limits, shape *Shape, b Block) (*Tape, []byte, error) {
	p := parser{lim: lim, shape: shape}
	if err := p.begin(data); err != nil {
		return nil, nil, err
	}
	var nodes []Node
	var spare, data2 []byte
	err := p.record(func(n int) {
		spareLen := 0
		if b.Spare != nil {
			spareLen = max(0, b.Spare(n))
		}
		if !zerocopy.Views {
			nodes = make([]Node, n)
			p.copyNodes(nodes)
			if spareLen > 0 {
				spare = make([]byte, spareLen)
			}
			return
		}
		inBlock := 0
		if b.Copy && len(data) <= blockCopyMax {
			inBlock = len(data)
		}
		// The spare bytes start at a multiple of 8 past the nodes.
		off := (n*nodeSize + 7) &^ 7
		total := off + spareLen + inBlock
		block := make([]Node, (total+nodeSize-1)/nodeSize)
		nodes = block[:n:n]
		p.copyNodes(nodes)
		if spareLen+inBlock == 0 {
			return
		}
		raw := zerocopy.Raw(block)
		spare = raw[off : off+spareLen : off+spareLen]
		if inBlock > 0 {
			data2 = raw[off+spareLen : total : total]
			copy(data2, data)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	t := b.Tape
	if t == nil {
		t = p.tape(nodes)
	} else {
		*t = *p.tape(nodes) // (p.tape inlined: its Tape does not escape)
	}
	if b.Copy {
		if data2 == nil {
			data2 = append([]byte(nil), data...)
		}
		t.Data = data2
	}
	return t, spare, nil
}
