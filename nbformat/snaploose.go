package nbformat

import (
	"bytes"
	"encoding/binary"
	"unsafe"
)

// The check by blocks (snapblock.go) when a block's bytes differ from
// their record: differences that are no change of value, as the walk from
// the Document tolerates them.

// looseRegions reports whether the Document (dr) and every region equal
// their record, or differ from it loosely. (Only when one differs; it
// allocates only for notebooks of more than 32 regions.)
func (w *snapWalker) looseRegions(s *snapshot, dr *snapRegion) bool {
	var room [32][]byte
	recs := room[:0]
	rw := snapWalker{check: true, cur: s.first, rest: s.more}
	docRec := rw.span(dr.used * int(dr.stride))
	if docRec == nil {
		return false
	}
	for i := range s.regions {
		rec := rw.span(s.regions[i].used * int(s.regions[i].stride))
		if rec == nil {
			return false
		}
		recs = append(recs, rec)
	}
	for i := -1; i < len(s.regions); i++ {
		r, rec := dr, docRec
		if i >= 0 {
			r, rec = &s.regions[i], recs[i]
		}
		live := unsafe.Slice((*byte)(r.base), r.used*int(r.stride))
		if !bytes.Equal(live, rec) && !w.loosely(live, rec, r, recs) {
			return false
		}
	}
	return true
}

// loosely reports whether the values of region r, live, differ from
// their record, rec, only in words whose content the walk of the listed
// edges compares, or in what is compared here, as the walk from the
// Document tolerates them (see sameMasked): a map replaced by another,
// whose members the walk compares; a slice's capacity; a slice's elements
// moved: when the slice recorded led out of the regions, the walk
// compares its elements wherever they are now; when it led into a region,
// its elements now must hold the bytes recorded for those it had then
// (which the edges listed for them lead on from); when it was the input's
// bytes, it must not have moved. recs are the regions' records.
func (w *snapWalker) loosely(live, rec []byte, r *snapRegion, recs [][]byte) bool {
	l := r.slot
	if len(l.masks) == 0 {
		return false
	}
	size := int(r.stride)
	for i := range r.used {
		a, b := live[i*size:(i+1)*size], rec[i*size:(i+1)*size]
		prev := 0
		for _, m := range l.masks {
			off := int(m.off)
			if !bytes.Equal(a[prev:off], b[prev:off]) {
				return false
			}
			prev = off + ptrSize
			x, y := a[off:prev], b[off:prev]
			if !m.nilOnly || bytes.Equal(x, y) {
				continue // a capacity, or the same
			}
			if isZeroWord(x) != isZeroWord(y) || !w.movedAsRecorded(a, b, m.off, l, recs) {
				return false
			}
		}
		if !bytes.Equal(a[prev:], b[prev:]) {
			return false
		}
	}
	return true
}

// movedAsRecorded reports whether the map or slice whose word is at
// offset off of a value of layout l (live: a, as recorded: b; their words
// before off are equal) holds what was recorded, as loosely says.
func (w *snapWalker) movedAsRecorded(a, b []byte, off uintptr, l *snapLayout, recs [][]byte) bool {
	for k := range l.edges {
		e := &l.edges[k]
		if e.off != off {
			continue
		}
		word := func(i uintptr) uintptr {
			return uintptr(binary.NativeEndian.Uint64(b[off+i*ptrSize:]))
		}
		switch e.kind {
		case edgeMap:
			return true // never covered when not nil: the walk compares its members
		case edgeSlice:
			n := int(word(1))
			if !bytes.Equal(a[off+ptrSize:off+2*ptrSize], b[off+ptrSize:off+2*ptrSize]) {
				return false // another length (compared after, but read here)
			}
			ri, at, in := w.blockIndex(word(0), n, e.elem)
			if n == 0 || !in {
				return true // no element, or elements the walk compares
			}
			// The elements now, at a live pointer read from live memory,
			// against the record of those it had.
			r, size := &w.regions[ri], int(e.elem.size)
			now := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&a[off]))), n*size)
			for j := range n {
				from := (at + j) * int(r.stride)
				if !bytes.Equal(now[j*size:(j+1)*size], recs[ri][from:from+size]) {
					return false
				}
			}
			return true
		case edgeBytes:
			n := int(word(1))
			return n == 0 || word(0) < w.lo || word(0) >= w.hi || uintptr(n) > w.hi-word(0)
		}
		return false
	}
	return false
}
