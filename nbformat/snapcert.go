package nbformat

import (
	"bytes"
	"encoding/binary"
	"unsafe"
)

// Cells and outputs as read, for the writer. Writing an edited notebook
// compares each cell and output with its original node (encoder.equal, a
// walk over its values and the tape), to copy the bytes of those that are
// unchanged: for a notebook that is mostly as read (a few cells edited, or
// repaired by Heal, which puts new values in their place) that walk over
// the unchanged ones is most of the work, at every level where the writer
// compares (the notebook, its cell list, each cell). The snapshot by
// blocks (snapblock.go) answers it for all of them at once: when every
// region equals its record, byte for byte, and the edges listed for the
// regions compare equal, every value the decoder handed out, with all it
// leads to, is as decoded (the argument of snapblock.go, for the regions
// without the Document, which may have changed: a new cell list, a new
// version). A cell or output among them compared with the node it was
// decoded from is then equal to it, as the walk found the notebook as
// decoded equal to the bytes read (TestSnapshotAgreesWithWalk), provided
// the writer sees it as the walk did then: it holds no struct Heal filled
// (see fillMissing; filledIn). (The version does not matter: whether a
// cell's empty id is written depends on it only for values not decoded
// from the original compared with, or filled; see encoder.field.)

// snapPos is a place in a snapshot's record: chunk (0 the first, i the
// more[i-1]), the offset in it, and the bytes recorded before it.
type snapPos struct{ chunk, off, size int }

// position returns where the next span of the record being recorded
// starts (in the chunk being filled, or in the next one if it does not
// fit: span moves on by itself when checking).
func (w *snapWalker) position() snapPos {
	n := 0
	if w.snap.first != nil {
		n = 1 + len(w.snap.more)
	}
	return snapPos{chunk: n, off: len(w.cur), size: w.size}
}

// regionsAsRead reports whether every region (the blocks of values the
// decoder handed out, not the Document) is byte for byte as recorded, and
// the edges listed for them compare equal: every value in them, with
// everything it leads to, is as decoded. False for a snapshot recorded
// by a walk alone (no regions) or not recorded.
func (s *snapshot) regionsAsRead() bool {
	if !s.ok || s.regions == nil {
		return false
	}
	lay := snapCommonLayouts()
	rw := snapWalker{check: true, cur: s.first, rest: s.more}
	if rw.span(int(lay.doc.size)) == nil {
		return false
	}
	for i := range s.regions {
		r := &s.regions[i]
		n := r.used * int(r.stride)
		rec := rw.span(n)
		if rec == nil || !bytes.Equal(unsafe.Slice((*byte)(r.base), n), rec) {
			return false
		}
	}
	w := snapWalker{check: true, keep: s.keep, lay: lay, regions: s.regions}
	w.setInput(s.input)
	at := s.regionEdges
	switch {
	case at.chunk == 0:
		w.cur, w.rest = s.first, s.more
	case at.chunk <= len(s.more):
		w.cur, w.rest = s.more[at.chunk-1], s.more[at.chunk:]
	}
	w.pos, w.size = at.off, at.size
	for w.size < s.size {
		b := w.span(8)
		if b == nil {
			return false
		}
		id := binary.NativeEndian.Uint64(b)
		ri, i, k := int(id>>48), int(id>>16&(maxRegionValues-1)), int(id&(maxEdges-1))
		if ri >= len(s.regions) {
			return false // (the Document's edges come before at)
		}
		r := &s.regions[ri]
		if i >= r.used || k >= len(r.slot.edges) {
			return false
		}
		e := &r.slot.edges[k]
		if !w.edge(unsafe.Add(r.base, uintptr(i)*r.stride+e.off), e) {
			return false
		}
	}
	return w.size == s.size
}

// cellAsRead reports whether the cell or output x, compared with node o,
// is one the decoder handed out, decoded from o, in a region of the
// snapshot, and the regions are as read (regionsAsRead, asked once per
// encoder), and the writer sees it as the walk did when it was read (see
// above): equal would then find it equal to o.
func (e *encoder) cellAsRead(x any, o int) bool {
	src := e.src
	if src == nil || !src.taken.Load() || len(e.filledIn) > 0 && e.filledIn[valueAddr(x)] {
		return false
	}
	if node, ok := src.originOf(x); !ok || int(node) != o {
		return false
	}
	s := &src.snap
	w := snapWalker{lay: snapCommonLayouts(), regions: s.regions}
	if s.regions == nil || !w.dynamicCovered(x) {
		return false
	}
	if e.asRead == 0 {
		e.asRead = -1
		if !writeAsBefore && s.regionsAsRead() {
			e.asRead = 1
		}
	}
	return e.asRead > 0
}

// writeAsBefore, set by tests only, writes edited notebooks as before
// cells were found as read by the snapshot (cellAsRead) and before Heal's
// later rounds and tape skipped asking whether the notebook is as read
// (encodedTape): the old code, kept for the differential tests.
var writeAsBefore = false
