package nbformat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// The snapshot by blocks (see snapshot.go). Most of a notebook's memory
// is a few blocks the decoder allocates (its slabs: the cells and outputs
// of each variant, the strings and numbers optional fields point to, the
// elements of string lists and output lists, bundles and their entries,
// the strings and raw values boxed in interfaces) and the Document. The
// snapshot records each of these regions as a copy of its bytes, and
// compares them with bytes.Equal: no walk over their values. What the
// regions lead to outside themselves (the frontier: maps, values the
// decoder allocated one by one, bytes that are not the input's, values
// boxed by the runtime) is found once, when recording, by going over the
// edges of every value in the regions; the record lists these edges, and
// each is walked as before (snapWalker.edge), in both directions.
//
// Why this is exact, in addition to the argument of snapshot.go:
//
//   - The snapshot keeps every region alive (snapRegion.base), so no
//     other value can be allocated where one is: a pointer into a region
//     that equals its record points to the value recorded there.
//   - When every region's bytes equal their record, every pointer, slice
//     header, map and interface word in them is the one recorded. So the
//     edges that lead out of the regions are the ones listed when
//     recording (which edges lead out depends only on those words, the
//     regions and where the input is), and what they lead to is compared
//     by the walk, which reads them from the live regions.
//   - An edge counts as leading into a region (and is not walked) only
//     when all the values it leads to lie in the handed-out part of one
//     region whose values are of the edge's type, each at a value's start
//     (snapWalker.inBlock): so their memory is compared with the region's
//     and their own edges are listed with the region's. The walk, too,
//     stops at such edges (a cell in a slice the decoder made one by one).
//   - The strings in the regions that are not the input's are kept alive
//     by the snapshot (snapshot.keep), as the walk keeps those it records.
//   - The part of a block not handed out is not recorded: no value of the
//     notebook reaches it (a slice handed out has its length as capacity;
//     Go cannot reach a value's neighbours from a pointer to it).
//
// Comparing the bytes is stricter than the walk (a slice's capacity, a
// map replaced by an equal one, a slice's elements moved now count):
// such a notebook is only "different", and the reflective walk decides.

// snapRegion is a block of values the decoder allocated, or the Document.
type snapRegion struct {
	base   unsafe.Pointer // the first value (keeping the block alive)
	slot   *snapLayout    // the layout of an element of the block
	val    *snapLayout    // the layout of the value at an element's start (slot's own but for a variant's slot)
	stride uintptr        // the size of an element
	n      int            // the elements in the block
	used   int            // the elements handed out
	lo, hi uintptr        // where the elements handed out are (set by sortRegions)
}

// slotted is implemented by the elements of variant blocks (see slot):
// the value at their start is of valueType.
type slotted interface{ valueType() reflect.Type }

func (*slot[T]) valueType() reflect.Type { return reflect.TypeFor[T]() }

// slabLayouts are the layouts of a slab's regions: of an element, and of
// the value at an element's start.
type slabLayouts struct{ slot, val *snapLayout }

// layoutsOf returns the layouts of the regions of a slab[T].
func layoutsOf[T any]() slabLayouts {
	l := snapLayoutOf(reflect.TypeFor[T]())
	val := l
	if v, ok := any((*T)(nil)).(slotted); ok {
		val = snapLayoutOf(v.valueType())
	}
	return slabLayouts{l, val}
}

// slabLayoutSet holds the layouts of the regions of each of the slabs,
// found once.
type slabLayoutSet struct {
	code, markdown, raw, unknownCell, executeResult, displayData, stream, errorOutput, unknownOutput slabLayouts
	strs, ints, bools, outputSlices, cellSlices, bundles, entries, boxedStrs, raws                   slabLayouts
}

var slabLayoutsOnce = sync.OnceValue(func() *slabLayoutSet {
	return &slabLayoutSet{
		code: layoutsOf[slot[CodeCell]](), markdown: layoutsOf[slot[MarkdownCell]](), raw: layoutsOf[slot[RawCell]](),
		unknownCell: layoutsOf[slot[UnknownCell]](), executeResult: layoutsOf[slot[ExecuteResult]](),
		displayData: layoutsOf[slot[DisplayData]](), stream: layoutsOf[slot[Stream]](),
		errorOutput: layoutsOf[slot[ErrorOutput]](), unknownOutput: layoutsOf[slot[UnknownOutput]](),
		strs: layoutsOf[string](), ints: layoutsOf[int](), bools: layoutsOf[bool](),
		outputSlices: layoutsOf[Output](), cellSlices: layoutsOf[Cell](), bundles: layoutsOf[bundle](),
		entries: layoutsOf[mimeEntry](), boxedStrs: layoutsOf[string](), raws: layoutsOf[json.RawMessage](),
	}
})

// trackIn makes s list the blocks it allocates in regs, as regions of
// layouts l.
func (s *slab[T]) trackIn(regs *[]snapRegion, l *slabLayouts) { s.regs, s.lay = regs, l }

// region returns the region of block, a new block of s, none of it
// handed out yet.
func (s *slab[T]) region(block []T) snapRegion {
	var z T
	return snapRegion{base: unsafe.Pointer(unsafe.SliceData(block)), slot: s.lay.slot, val: s.lay.val, stride: unsafe.Sizeof(z), n: len(block)}
}

// track makes the slabs list the blocks they allocate in regs.
func (s *slabs) track(regs *[]snapRegion) {
	l := slabLayoutsOnce()
	s.code.trackIn(regs, &l.code)
	s.markdown.trackIn(regs, &l.markdown)
	s.raw.trackIn(regs, &l.raw)
	s.unknownCell.trackIn(regs, &l.unknownCell)
	s.executeResult.trackIn(regs, &l.executeResult)
	s.displayData.trackIn(regs, &l.displayData)
	s.stream.trackIn(regs, &l.stream)
	s.errorOutput.trackIn(regs, &l.errorOutput)
	s.unknownOutput.trackIn(regs, &l.unknownOutput)
	s.strs.trackIn(regs, &l.strs)
	s.ints.trackIn(regs, &l.ints)
	s.bools.trackIn(regs, &l.bools)
	s.outputSlices.trackIn(regs, &l.outputSlices)
	s.cellSlices.trackIn(regs, &l.cellSlices)
	s.bundles.trackIn(regs, &l.bundles)
	s.entries.trackIn(regs, &l.entries)
	s.boxedStrs.trackIn(regs, &l.boxedStrs)
	s.raws.trackIn(regs, &l.raws)
}

// close notes, for the current block of each slab, how many of its
// values were handed out.
func (s *slabs) close() {
	s.code.close()
	s.markdown.close()
	s.raw.close()
	s.unknownCell.close()
	s.executeResult.close()
	s.displayData.close()
	s.stream.close()
	s.errorOutput.close()
	s.unknownOutput.close()
	s.strs.close()
	s.ints.close()
	s.bools.close()
	s.outputSlices.close()
	s.cellSlices.close()
	s.bundles.close()
	s.entries.close()
	s.boxedStrs.close()
	s.raws.close()
}

// Limits of a frontier edge's place in the record (see frontierID).
const (
	maxRegions      = 1 << 16
	maxRegionValues = 1 << 32
	maxEdges        = 1 << 16
)

// frontierID is the word recording edge k of value i of region r.
func frontierID(r, i, k int) uint64 { return uint64(r)<<48 | uint64(i)<<16 | uint64(k) }

// sortRegions orders regs by address (for inBlock), dropping those with
// nothing handed out. It reports false when two overlap (never: they are
// distinct live objects) or there are too many to record.
func sortRegions(regs []snapRegion) ([]snapRegion, bool) {
	regs = slices.DeleteFunc(regs, func(r snapRegion) bool { return r.used == 0 })
	if len(regs) <= 32 {
		// By insertion (few, and mostly in order already).
		for i := 1; i < len(regs); i++ {
			for j := i; j > 0 && uintptr(regs[j].base) < uintptr(regs[j-1].base); j-- {
				regs[j], regs[j-1] = regs[j-1], regs[j]
			}
		}
	} else {
		slices.SortFunc(regs, func(a, b snapRegion) int { return cmpAddr(uintptr(a.base), uintptr(b.base)) })
	}
	for i := range regs {
		r := &regs[i]
		r.lo = uintptr(r.base)
		r.hi = r.lo + uintptr(r.used)*r.stride
		if !r.slot.ok || r.used > maxRegionValues-1 || len(r.slot.edges) > maxEdges {
			return nil, false
		}
		if i > 0 && uintptr(regs[i-1].base)+uintptr(regs[i-1].used)*regs[i-1].stride > uintptr(r.base) {
			return nil, false
		}
	}
	return regs, len(regs) < docRegion
}

// regionBytes returns the bytes a record by blocks holds before the
// edges it lists: the Document's and the regions'.
func regionBytes(regs []snapRegion, doc *snapLayout) int {
	n := int(doc.size)
	for i := range regs {
		n += regs[i].used * int(regs[i].stride)
	}
	return n
}

// inBlock reports whether the n values of layout l at p are handed-out
// values of one region, of that layout, each at an element's start (n >
// 1: the region's elements are values of l, contiguous).
func (w *snapWalker) inBlock(p unsafe.Pointer, n int, l *snapLayout) bool {
	return w.inBlockAt(uintptr(p), n, l)
}

// inBlockAt is inBlock for values at address a (a number only: never
// followed).
func (w *snapWalker) inBlockAt(a uintptr, n int, l *snapLayout) bool {
	_, _, ok := w.blockIndex(a, n, l)
	return ok
}

// blockIndex returns the region and the element in it where the n
// values of layout l at address a are, when inBlock holds for them.
func (w *snapWalker) blockIndex(a uintptr, n int, l *snapLayout) (ri, k int, ok bool) {
	rs := w.regions
	// The region holding a: most often the one found last (the same
	// edge of consecutive values leads to the same block; see
	// recordEdges), else the last one starting at or before a.
	h := w.hint
	if h >= len(rs) || a < rs[h].lo || a >= rs[h].hi {
		i, j := 0, len(rs)
		for i < j {
			m := int(uint(i+j) >> 1)
			if rs[m].lo <= a {
				i = m + 1
			} else {
				j = m
			}
		}
		if i == 0 || a >= rs[i-1].hi {
			return 0, 0, false
		}
		h = i - 1
		w.hint = h
	}
	r := &rs[h]
	if r.val != l || n > 1 && r.stride != l.size {
		return 0, 0, false
	}
	off := a - r.lo
	e := off / r.stride
	if off != e*r.stride || uintptr(n) > uintptr(r.used)-e {
		return 0, 0, false
	}
	return h, int(e), true
}

// covered reports whether the edge e at q leads nowhere the regions do
// not cover: nothing, values in a region (see inBlock), the input's
// bytes.
func (w *snapWalker) covered(q unsafe.Pointer, e *snapEdge) bool {
	switch e.kind {
	case edgePtr:
		c := *(*unsafe.Pointer)(q)
		return c == nil || w.inBlock(c, 1, e.elem)
	case edgeSlice:
		n := (*[3]int)(q)[1]
		return n == 0 || w.inBlock(*(*unsafe.Pointer)(q), n, e.elem)
	case edgeBytes:
		b := *(*[]byte)(q)
		return len(b) == 0 || w.inInput(unsafe.Pointer(unsafe.SliceData(b)), len(b))
	case edgeMap:
		return *(*unsafe.Pointer)(q) == nil
	case edgeAny:
		return w.dynamicCovered(*(*any)(q))
	case edgeCell:
		return w.dynamicCovered(*(*Cell)(q))
	case edgeOutput:
		return w.dynamicCovered(*(*Output)(q))
	}
	return false
}

// dynamicCovered reports whether the value in an interface is nothing,
// or in a region: a cell or output the decoder handed out, a string or
// raw value it boxed (see box).
func (w *snapWalker) dynamicCovered(x any) bool {
	c := w.lay
	switch v := x.(type) {
	case nil:
		return true
	case *CodeCell:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.code)
	case *MarkdownCell:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.markdown)
	case *RawCell:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.raw)
	case *UnknownCell:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.unknownCell)
	case *ExecuteResult:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.execResult)
	case *DisplayData:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.display)
	case *Stream:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.stream)
	case *ErrorOutput:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.errorOut)
	case *UnknownOutput:
		return v != nil && w.inBlock(unsafe.Pointer(v), 1, c.unknownOut)
	case string:
		return w.inBlock((*eface)(unsafe.Pointer(&x)).data, 1, c.str)
	case json.RawMessage:
		return w.inBlock((*eface)(unsafe.Pointer(&x)).data, 1, c.bytes)
	}
	return false
}

// docRegion is the region index that names the Document in the record.
const docRegion = maxRegions - 1

// recordRegions records the Document's bytes and the regions', keeps
// their strings that are not the input's alive, then lists and walks the
// edges leading out of them (the Document's, then those of the regions in
// order, by value, in their layout's order).
func (w *snapWalker) recordRegions(doc *Document, regs []snapRegion) bool {
	dr := w.docRegion(doc)
	w.recordBytes(&dr)
	for i := range regs {
		w.recordBytes(&regs[i])
	}
	if !w.recordEdges(&dr, docRegion) {
		return false
	}
	w.snap.regionEdges = w.position() // (see regionsAsRead)
	for ri := range regs {
		if !w.recordEdges(&regs[ri], ri) {
			return false
		}
	}
	return true
}

// recordBytes records r's bytes, and keeps its strings that are not the
// input's alive.
func (w *snapWalker) recordBytes(r *snapRegion) {
	size := r.used * int(r.stride)
	copy(w.span(size), unsafe.Slice((*byte)(r.base), size))
	if len(r.slot.strs) > 0 {
		w.strings(r.base, r.used, r.slot)
	}
}

// docRegion is doc as a region.
func (w *snapWalker) docRegion(doc *Document) snapRegion {
	l := w.lay.doc
	return snapRegion{base: unsafe.Pointer(doc), slot: l, val: l, stride: l.size, n: 1, used: 1}
}

// recordEdges lists and walks the edges of region r (number ri) that
// lead out of the regions: edge by edge of its layout, over its values
// (the same edge of consecutive values leads into the same block, which
// inBlock then finds first).
func (w *snapWalker) recordEdges(r *snapRegion, ri int) bool {
	for k := range r.slot.edges {
		e := &r.slot.edges[k]
		for i := range r.used {
			q := unsafe.Add(r.base, uintptr(i)*r.stride+e.off)
			// Most edges lead nowhere (nil, empty) or into a region.
			switch e.kind {
			case edgeSlice, edgeBytes:
				if (*[3]int)(q)[1] == 0 {
					continue
				}
			default: // a pointer, a map, an interface's type word
				if *(*unsafe.Pointer)(q) == nil {
					continue
				}
			}
			if e.kind != edgeMap && w.covered(q, e) {
				continue
			}
			w.word(frontierID(ri, i, k))
			if !w.edge(q, e) {
				return false
			}
		}
	}
	return true
}

// matchRegions compares doc's bytes and the regions' with their record,
// then walks the edges the record lists. Regions that differ from their
// record are compared again loosely (see loosely), from s's record.
func (w *snapWalker) matchRegions(s *snapshot, doc *Document) bool {
	regs := s.regions
	dr := w.docRegion(doc)
	loose := false
	for i := -1; i < len(regs); i++ {
		r := &dr
		if i >= 0 {
			r = &regs[i]
		}
		n := r.used * int(r.stride)
		rec := w.span(n)
		if rec == nil {
			return false
		}
		if !loose && !bytes.Equal(unsafe.Slice((*byte)(r.base), n), rec) {
			loose = true
		}
	}
	if loose && !w.looseRegions(s, &dr) {
		return false
	}
	for w.size < s.size {
		b := w.span(8)
		if b == nil {
			return false
		}
		id := binary.NativeEndian.Uint64(b)
		ri, i, k := int(id>>48), int(id>>16&(maxRegionValues-1)), int(id&(maxEdges-1))
		r := &dr
		if ri != docRegion {
			if ri >= len(regs) {
				return false
			}
			r = &regs[ri]
		}
		if i >= r.used || k >= len(r.slot.edges) {
			return false
		}
		e := &r.slot.edges[k]
		if !w.edge(unsafe.Add(r.base, uintptr(i)*r.stride+e.off), e) {
			return false
		}
	}
	return true
}
