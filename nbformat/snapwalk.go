package nbformat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"reflect"
	"unsafe"
)

// The walk of snapshot.go over a notebook's memory: objects, their
// edges, values in interfaces.

// obj records or compares the value at p, of layout l, then what it
// leads to.
func (w *snapWalker) obj(p unsafe.Pointer, l *snapLayout) bool {
	return w.array(p, 1, l)
}

// array records or compares the n values at p, of layout l, then what
// they lead to.
func (w *snapWalker) array(p unsafe.Pointer, n int, l *snapLayout) bool {
	if !l.ok {
		return false
	}
	w.walked += n
	if size := int(l.size) * n; size > 0 {
		switch {
		case l.words > 0:
			if !w.sparse(p, n, l) {
				return false
			}
		case !w.check:
			copy(w.span(size), unsafe.Slice((*byte)(p), size))
		default:
			rec := w.span(size)
			if rec == nil || !sameMasked(unsafe.Slice((*byte)(p), size), rec, n, l) {
				return false
			}
		}
		if !w.check && len(l.strs) > 0 {
			w.strings(p, n, l)
		}
	}
	if len(l.edges) == 0 {
		return true
	}
	for i := range n {
		if !w.edges(unsafe.Add(p, uintptr(i)*l.size), l) {
			return false
		}
	}
	return true
}

// sparse records or compares the n values at p, of a layout recorded
// sparsely: for each value a bitmap (8 bytes) of its words that count and
// are not zero, then the words among those that count by value. (Most of
// a struct's words are zero: this takes half the bytes of a copy.) The n
// values at p are live values of l's type, so their words can be read.
func (w *snapWalker) sparse(p unsafe.Pointer, n int, l *snapLayout) bool {
	per := l.words
	live := unsafe.Slice((*uint64)(p), per*n)
	heads := w.span(8 * n)
	if heads == nil {
		return false
	}
	kept := 0
	if !w.check {
		// The bitmaps are filled before the words are asked for (a span
		// may start a chunk, leaving the scratch buffer behind).
		for i := range n {
			nz := nonZero(live[i*per : (i+1)*per])
			binary.NativeEndian.PutUint64(heads[8*i:], nz&l.care)
			kept += bits.OnesCount64(nz & l.plain)
		}
		if kept == 0 {
			return true
		}
		vals := w.span(8 * kept)
		j := 0
		for i := range n {
			row := live[i*per : (i+1)*per]
			for m := binary.NativeEndian.Uint64(heads[8*i:]) & l.plain; m != 0; m &= m - 1 {
				binary.NativeEndian.PutUint64(vals[8*j:], row[bits.TrailingZeros64(m)])
				j++
			}
		}
		return true
	}
	for i := range n {
		nz := nonZero(live[i*per:(i+1)*per]) & l.care
		if nz != binary.NativeEndian.Uint64(heads[8*i:]) {
			return false
		}
		kept += bits.OnesCount64(nz & l.plain)
	}
	if kept == 0 {
		return true
	}
	vals := w.span(8 * kept)
	if vals == nil {
		return false
	}
	j := 0
	for i := range n {
		row := live[i*per : (i+1)*per]
		for m := binary.NativeEndian.Uint64(heads[8*i:]) & l.plain; m != 0; m &= m - 1 {
			if row[bits.TrailingZeros64(m)] != binary.NativeEndian.Uint64(vals[8*j:]) {
				return false
			}
			j++
		}
	}
	return true
}

// nonZero returns the bitmap of the words of row (at most 64) that are
// not zero.
func nonZero(row []uint64) uint64 {
	var nz uint64
	for k, v := range row {
		if v != 0 {
			nz |= 1 << k
		}
	}
	return nz
}

// strings keeps alive the bytes of the strings recorded in the n values
// at p (of layout l) that are not the input's: while the snapshot lives,
// no other string can be where one of them is, so a string header that
// matches its record holds the same bytes.
func (w *snapWalker) strings(p unsafe.Pointer, n int, l *snapLayout) {
	for i := range n {
		base := unsafe.Add(p, uintptr(i)*l.size)
		for _, off := range l.strs {
			s := *(*string)(unsafe.Add(base, off))
			if len(s) > 0 {
				if d := unsafe.Pointer(unsafe.StringData(s)); !w.inInput(d, len(s)) {
					w.keep = append(w.keep, d)
				}
			}
		}
	}
}

// sameMasked reports whether the memory of n values of layout l equals
// its record, a masked word counting only as l's mask says.
func sameMasked(live, rec []byte, n int, l *snapLayout) bool {
	if bytes.Equal(live, rec) {
		return true
	}
	if len(l.masks) == 0 {
		return false
	}
	size := int(l.size)
	for i := range n {
		a, b := live[i*size:(i+1)*size], rec[i*size:(i+1)*size]
		prev := 0
		for _, m := range l.masks {
			off := int(m.off)
			if !bytes.Equal(a[prev:off], b[prev:off]) {
				return false
			}
			if m.nilOnly && isZeroWord(a[off:off+ptrSize]) != isZeroWord(b[off:off+ptrSize]) {
				return false
			}
			prev = off + ptrSize
		}
		if !bytes.Equal(a[prev:], b[prev:]) {
			return false
		}
	}
	return true
}

func isZeroWord(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// edges follows the edges of the value at p, of layout l, whose own bytes
// were just recorded or matched.
func (w *snapWalker) edges(p unsafe.Pointer, l *snapLayout) bool {
	for i := range l.edges {
		e := &l.edges[i]
		if !w.edge(unsafe.Add(p, e.off), e) {
			return false
		}
	}
	return true
}

// edge follows edge e, at q: what it leads to is recorded or compared,
// but for values in the snapshot's regions (see snapblock.go), which are
// compared as regions.
func (w *snapWalker) edge(q unsafe.Pointer, e *snapEdge) bool {
	switch e.kind {
	case edgePtr:
		if c := *(*unsafe.Pointer)(q); c != nil && !w.inBlock(c, 1, e.elem) {
			return w.obj(c, e.elem)
		}
	case edgeSlice:
		n := (*[3]int)(q)[1]
		if n == 0 {
			return true
		}
		data := *(*unsafe.Pointer)(q)
		if len(w.regions) == 0 {
			return w.array(data, n, e.elem)
		}
		return w.sliceIn(data, n, e.elem)
	case edgeBytes:
		return w.bytes(*(*[]byte)(q))
	case edgeMap:
		return w.mapAt(q, e)
	case edgeAny:
		return w.dynamic(*(*any)(q))
	case edgeCell:
		return w.dynamic(*(*Cell)(q))
	case edgeOutput:
		return w.dynamic(*(*Output)(q))
	}
	return true
}

// sliceIn records or compares the n elements at data, of layout l, of a
// slice whose data pointer was compared only as being nil or not (see
// snapMask): so whether they lie in a region is recorded, as their
// address (they are compared as the region; they must be the same
// elements) or as 0 (they are walked, wherever they are now).
func (w *snapWalker) sliceIn(data unsafe.Pointer, n int, l *snapLayout) bool {
	in := w.inBlock(data, n, l)
	var at uint64
	if in {
		at = uint64(uintptr(data))
	}
	if !w.word(at) {
		return false
	}
	return in || w.array(data, n, l)
}

// bytes records or compares a byte slice's bytes: by their place when
// they are the input's (immutable, and kept alive by the source), by
// content otherwise.
func (w *snapWalker) bytes(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	tag := w.span(1)
	if !w.check {
		if w.inInput(p, len(b)) {
			tag[0] = 0
			return w.word(uint64(uintptr(p) - w.lo))
		}
		tag[0] = 1
		copy(w.span(len(b)), b)
		return true
	}
	if tag == nil {
		return false
	}
	if tag[0] == 0 {
		return w.inInput(p, len(b)) && w.word(uint64(uintptr(p)-w.lo))
	}
	rec := w.span(len(b))
	return rec != nil && bytes.Equal(b, rec)
}

// dynamic records or compares the value in an interface, whose words were
// just recorded or matched: a pointer's pointee, a map's members, a boxed
// value's bytes (copied out of the box here) and what they lead to.
func (w *snapWalker) dynamic(x any) bool {
	if len(w.regions) > 0 && w.dynamicCovered(x) {
		return true
	}
	c := w.lay
	switch v := x.(type) {
	case nil:
		return true
	case *CodeCell:
		return v == nil || w.obj(unsafe.Pointer(v), c.code)
	case *MarkdownCell:
		return v == nil || w.obj(unsafe.Pointer(v), c.markdown)
	case *RawCell:
		return v == nil || w.obj(unsafe.Pointer(v), c.raw)
	case *UnknownCell:
		return v == nil || w.obj(unsafe.Pointer(v), c.unknownCell)
	case *ExecuteResult:
		return v == nil || w.obj(unsafe.Pointer(v), c.execResult)
	case *DisplayData:
		return v == nil || w.obj(unsafe.Pointer(v), c.display)
	case *Stream:
		return v == nil || w.obj(unsafe.Pointer(v), c.stream)
	case *ErrorOutput:
		return v == nil || w.obj(unsafe.Pointer(v), c.errorOut)
	case *UnknownOutput:
		return v == nil || w.obj(unsafe.Pointer(v), c.unknownOut)
	case map[string]any:
		return v == nil || walkMap(w, v, c.any)
	case string:
		return w.obj(unsafe.Pointer(&v), c.str)
	case json.RawMessage:
		return w.obj(unsafe.Pointer(&v), c.bytes)
	case bool:
		return w.obj(unsafe.Pointer(&v), c.boolean)
	case int:
		return w.obj(unsafe.Pointer(&v), c.integer)
	case float64:
		return w.obj(unsafe.Pointer(&v), c.float)
	case json.Number:
		return w.obj(unsafe.Pointer(&v), c.number)
	case []any:
		return w.obj(unsafe.Pointer(&v), c.anys)
	}
	// Any other type: its value copied out by reflection (values the
	// decoder does not make; an allocation each).
	t := reflect.TypeOf(x)
	l := snapLayoutOf(t)
	if !l.ok {
		return false
	}
	s := reflect.New(t)
	s.Elem().Set(reflect.ValueOf(x))
	return w.obj(s.UnsafePointer(), l)
}
