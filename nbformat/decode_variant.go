package nbformat

// Decoding cells and outputs: each node's variant from its type member, the
// variants allocated in slabs by kind.

import (
	"encoding/json"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// variant is the Go type a cell or output is decoded as.
type variant uint8

const (
	unknownVariant variant = iota
	codeVariant
	markdownVariant
	rawVariant
	executeResultVariant
	displayDataVariant
	streamVariant
	errorVariant
	variantCount
)

// lastMember returns the member of object node j with key k (the last
// one, as Python's json module reads repeated keys), or -1.
func lastMember(t *jsontree.Tape, j int, k string) int {
	found := -1
	c := t.FirstChild(j)
	for range t.Nodes[j].Len {
		n := &t.Nodes[c]
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			if int(n.KeyEnd-n.Key) == len(k)+2 && string(t.Data[n.Key+1:n.KeyEnd-1]) == k {
				found = c
			}
		} else if t.KeyIs(c, k) {
			found = c
		}
		c = int(n.Skip)
	}
	return found
}

// cellVariant returns the variant node j is decoded as, a cell.
func (d *decoder) cellVariant(j int) variant {
	v, _ := d.cellFacts(j)
	return v
}

// outputVariant returns the variant node j is decoded as, an output.
func (d *decoder) outputVariant(j int) variant {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return unknownVariant
	}
	k := lastMember(t, j, "output_type")
	switch {
	case k < 0:
	case t.StrIs(k, "execute_result"):
		return executeResultVariant
	case t.StrIs(k, "display_data"):
		return displayDataVariant
	case t.StrIs(k, "stream"):
		return streamVariant
	case t.StrIs(k, "error"):
		return errorVariant
	}
	return unknownVariant
}

// decodeCells decodes the elements of array node j into s (of its
// length). It counts the cells of each variant, and the outputs of the
// code cells, first, so that they are allocated in one block per variant.
func (d *decoder) decodeCells(s []Cell, j int) {
	decodeElems(d, s, j, d.countCells(len(s), j), (*decoder).cell)
}

// decodeOutputs decodes the elements of array node j into s (of its
// length), counted first as decodeCells' are.
func (d *decoder) decodeOutputs(s []Output, j int) {
	decodeElems(d, s, j, d.countOutputs(len(s), j), (*decoder).output)
}

// decodeElems decodes the elements of array node j into s with elem,
// given each one's variant, d.variants[base+i] (appended by countCells or
// countOutputs), which it then drops.
func decodeElems[T any](d *decoder, s []T, j, base int, elem func(*decoder, int, variant) T) {
	t := d.t
	k := t.FirstChild(j)
	for i := range s {
		s[i] = elem(d, k, d.variants[base+i])
		k = t.Next(k)
	}
	d.variants = d.variants[:base]
}

// countCells appends the variants of the n cells of array node j to
// d.variants (from base, returned) and reserves their blocks and those of
// the code cells' outputs. (Out of decodeCells' frame, which is on the
// stack while the cells are decoded.)
//
//go:noinline
func (d *decoder) countCells(n, j int) (base int) {
	t := d.t
	base = len(d.variants)
	var counts [variantCount]int
	outputs := 0
	k := t.FirstChild(j)
	for range n {
		v, o := d.cellFacts(k)
		d.variants = append(d.variants, v)
		counts[v]++
		if v == codeVariant && o >= 0 && t.Nodes[o].Kind == jsontree.Array && !t.Lazy(o) {
			outputs += int(t.Nodes[o].Len)
			c := t.FirstChild(o)
			for range t.Nodes[o].Len {
				counts[d.outputVariant(c)]++
				c = t.Next(c)
			}
		}
		k = t.Next(k)
	}
	d.reserve(&counts)
	d.outputSlices.reserve(outputs)
	return base
}

// cellFacts returns the variant of cell node j and its outputs member (or
// -1), in one pass over its members.
func (d *decoder) cellFacts(j int) (v variant, outputs int) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return unknownVariant, -1
	}
	typ, outputs := -1, -1
	k := t.FirstChild(j)
	for range t.Nodes[j].Len {
		n := &t.Nodes[k]
		switch {
		case n.Flags&jsontree.FlagKeyEscaped != 0:
			if t.KeyIs(k, "cell_type") {
				typ = k
			} else if t.KeyIs(k, "outputs") {
				outputs = k
			}
		case n.KeyEnd-n.Key == int32(len(`"cell_type"`)):
			if string(t.Data[n.Key+1:n.KeyEnd-1]) == "cell_type" {
				typ = k
			}
		case n.KeyEnd-n.Key == int32(len(`"outputs"`)):
			if string(t.Data[n.Key+1:n.KeyEnd-1]) == "outputs" {
				outputs = k
			}
		}
		k = int(n.Skip)
	}
	switch {
	case typ < 0:
	case t.StrIs(typ, "code"):
		v = codeVariant
	case t.StrIs(typ, "markdown"):
		v = markdownVariant
	case t.StrIs(typ, "raw"):
		v = rawVariant
	}
	return v, outputs
}

// countOutputs appends the variants of the n outputs of array node j to
// d.variants (from base, returned) and reserves their blocks (out of
// decodeOutputs' frame, as countCells is).
//
//go:noinline
func (d *decoder) countOutputs(n, j int) (base int) {
	t := d.t
	base = len(d.variants)
	var counts [variantCount]int
	k := t.FirstChild(j)
	for range n {
		v := d.outputVariant(k)
		d.variants = append(d.variants, v)
		counts[v]++
		k = t.Next(k)
	}
	d.reserve(&counts)
	return base
}

// cell decodes node j as a cell of variant v.
func (d *decoder) cell(j int, v variant) Cell {
	switch v {
	case codeVariant:
		return decodeVariant(d, d.code.next(), j)
	case markdownVariant:
		return decodeVariant(d, d.markdown.next(), j)
	case rawVariant:
		return decodeVariant(d, d.raw.next(), j)
	}
	u := d.unknownCell.next()
	u.Raw, u.src = d.unknownAt(j)
	return u
}

// output decodes node j as an output of variant v.
func (d *decoder) output(j int, v variant) Output {
	switch v {
	case executeResultVariant:
		return decodeVariant(d, d.executeResult.next(), j)
	case displayDataVariant:
		return decodeVariant(d, d.displayData.next(), j)
	case streamVariant:
		return decodeVariant(d, d.stream.next(), j)
	case errorVariant:
		return decodeVariant(d, d.errorOutput.next(), j)
	}
	u := d.unknownOutput.next()
	u.Raw, u.src = d.unknownAt(j)
	return u
}

// decodeVariant decodes node j into x, a cell's or output's zero struct,
// which then refers to j as the node it was read from.
func decodeVariant[T interface {
	codecStruct
	variantRef
}](d *decoder, x T, j int) T {
	d.decStruct(x, j)
	*x.ref() = nodeRef{d.src, int32(j)}
	return x
}

// unknownAt returns what an unknown cell or output read from node j
// holds: a copy of the node's bytes, and j as the node it was read from.
func (d *decoder) unknownAt(j int) (json.RawMessage, nodeRef) {
	return append(json.RawMessage{}, d.t.Raw(j)...), nodeRef{d.src, int32(j)}
}

// slabs hands out the values a decoder allocates most, from blocks: the
// cells and outputs of a notebook (a block per variant, sized by counting
// first), and the targets of the optional scalar fields (*string, *int,
// *bool). A value handed out keeps its whole block alive; the blocks hold
// what one notebook read, as its tape does.
type slabs struct {
	code          slab[CodeCell]
	markdown      slab[MarkdownCell]
	raw           slab[RawCell]
	unknownCell   slab[UnknownCell]
	executeResult slab[ExecuteResult]
	displayData   slab[DisplayData]
	stream        slab[Stream]
	errorOutput   slab[ErrorOutput]
	unknownOutput slab[UnknownOutput]
	strs          slab[string]
	ints          slab[int]
	bools         slab[bool]
	outputSlices  slab[Output] // the elements of the code cells' outputs
	cellSlices    slab[Cell]   // the elements of the lists of cells
	bundles       slab[bundle]
	entries       slab[mimeEntry]
}

// reserve makes room for counts[v] more values of each variant v, and for
// the execution counts of the code cells and execute results among them.
// (Unknown cells and outputs, rare, are not counted ahead.)
func (s *slabs) reserve(counts *[variantCount]int) {
	s.code.reserve(counts[codeVariant])
	s.markdown.reserve(counts[markdownVariant])
	s.raw.reserve(counts[rawVariant])
	s.executeResult.reserve(counts[executeResultVariant])
	s.displayData.reserve(counts[displayDataVariant])
	s.stream.reserve(counts[streamVariant])
	s.errorOutput.reserve(counts[errorVariant])
	s.ints.reserve(counts[codeVariant] + counts[executeResultVariant])
	s.bundles.reserve(counts[executeResultVariant] + counts[displayDataVariant])
}

// slab hands out zero Ts from blocks.
type slab[T any] struct {
	free []T
	last int // the size of the last block
}

// reserve makes room for n more values (counted) in the current block.
func (s *slab[T]) reserve(n int) {
	if n > len(s.free) {
		s.alloc(n)
	}
}

// alloc starts a block of at least n values: more when blocks were used
// up before, so that a notebook of many values not counted ahead needs
// few blocks.
func (s *slab[T]) alloc(n int) {
	s.last = max(n, min(2*s.last, 256))
	s.start(make([]T, s.last))
}

// seed makes block, zero values in memory of the caller's (the notebook's
// block: see notebookBlock), s's first block.
func (s *slab[T]) seed(block []T) {
	s.last = len(block)
	s.start(block)
}

// start makes block (zero values, none handed out) s's current block.
func (s *slab[T]) start(block []T) { s.free = block }

// take returns n new zero Ts, as a slice whose capacity is n (appending
// to it copies it, never reaching into the block's other values).
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return []T{}
	}
	s.reserve(n)
	x := s.free[:n:n]
	s.free = s.free[n:]
	return x
}

// next returns a new zero T.
func (s *slab[T]) next() *T {
	if len(s.free) == 0 {
		s.alloc(4)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
