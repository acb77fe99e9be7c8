package nbformat

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// The unedited check. Marshal writes, Validate validates and Edited
// reports the bytes a notebook was read from when the notebook is
// unedited (Notebook.unedited); deciding that by comparing every typed
// value with the tape (encoder.equal, the reflective walk) cost an eighth
// of a small file's round trip, twice. Instead, right after decoding, the
// notebook's typed values are snapshot: the memory of every object
// reachable from the Document (the Document itself, each cell and output
// struct, each slice's elements, each pointee, each value boxed in an
// interface) is recorded, in the order of a walk from the Document, into
// a few chunks of plain bytes: a struct as the bitmap of its words that
// are not zero and those words (most are zero), a smaller value as its
// bytes, a map as its number of members and each key (where its bytes
// are) and value. A notebook is unedited when the same walk over its
// memory now finds the same, stopping at the first difference.
//
// A notebook read by Unmarshal is recorded by blocks rather than by this
// walk alone (snapblock.go): the Document and the blocks the decoder
// allocated its values in are recorded as their bytes and compared with
// bytes.Equal, and only what they lead to outside themselves (maps,
// values allocated one by one) is walked. The walk below is what compares
// those, and the whole notebook when there are no blocks.
//
// Why this is exact (a match means the notebook has not changed):
//
//   - The walk compares an object's memory before it follows anything in
//     it. So when the Document's matches, its slice headers, pointers,
//     maps and interface words are the ones recorded, and the objects they
//     lead to are the objects the snapshot recorded next, and so on down:
//     by induction, every reachable object is compared with its own
//     record, and the walk reads only memory the notebook now reaches (a
//     live pointer loaded from a live object, never an address kept in the
//     snapshot, so the collector and freed memory play no part in what is
//     read).
//   - Mutable memory (structs, the elements of slices, maps, values boxed
//     in interfaces, byte slices that are not the input's) is compared by
//     content, so an object replaced by another at the same address after
//     a collection must also have the same content to match, and then it
//     is the same value.
//   - Immutable memory is compared by identity: the bytes of a string (its
//     header matching means the same bytes, as no other string can be at
//     that address: those that are not the input's are kept alive by the
//     snapshot, snapshot.keep, and the input by the notebook's source),
//     and byte slices sharing the input (the json.RawMessage values and
//     text read, which the package documents as never to be modified; the
//     reflective walk likewise took them as equal to the input by
//     identity).
//   - Slices are compared by length and elements, not by where the
//     elements are (a data pointer or capacity differing from the record
//     alone is no change); maps by their members, not by identity (a map
//     changed in place, or replaced by an equal one).
//
// A difference that is not a change of value (padding, a string or cell
// replaced by an equal one, -0 for 0) only makes the check answer
// "different": the caller then asks the reflective walk, which compares
// values with the tape (and is still what matches the parts of an edited
// notebook to the original for the writer). So a wrong "different" is
// slow, never wrong, and "unedited" comes only from a match.
//
// The notebook as decoded is what the reflective walk finds equal to the
// bytes read (the unedited round trip the package promises; see
// TestSnapshotAgreesWithWalk), and the walk's answer depends only on the
// values, the identity of cells and outputs (the interface words compared
// exactly; the source's record of the blocks they were read into keeps
// them alive, so no other can take their place; see origin.go) and the
// structs Heal fills (a notebook with any is always walked). The
// snapshot is written once, while reading or, for a notebook read by
// unmarshalLater, when its owner takes it (source.takeSnapshot, under a
// sync.Once), and only read after (a check reads it only once
// source.taken is set, after it was written): notebooks may be checked
// from several goroutines.

// snapshots counts the snapshots taken (the module's tests read it
// through nbimpl.Snapshots).
var snapshots atomic.Int64

// snapshot is the memory of a notebook's values as decoded (see above).
// It lives in the notebook's source (no allocation of its own).
type snapshot struct {
	ok bool // recorded: doc holds nothing the walk cannot follow
	// The blocks the decoder allocated, by address, each recorded as its
	// bytes, as the Document is (see snapblock.go); nil when recorded by
	// a walk from the Document alone.
	regions []snapRegion
	first   []byte           // the bytes recorded, in walk order, in chunks (no pointers for the collector to scan)
	more    [][]byte         // the chunks after the first (large notebooks)
	size    int              // bytes recorded
	input   []byte           // the bytes read (the source's, kept alive by it too)
	keep    []unsafe.Pointer // the bytes of recorded strings that are not the input's, kept alive
	keep0   [4]unsafe.Pointer
	// regionEdges: where the edges listed for the regions start in a
	// record by blocks, after the Document's (see regionsAsRead).
	regionEdges snapPos
}

// A snapshot is recorded into room the caller gives (the spare bytes of
// the tape's block, sized from its number of nodes by snapRoom), kept at
// the size given; past it, into chunks of its own, each twice the one
// before up to snapChunk bytes (an object larger than that has a chunk of
// its own), so that recording never copies what it recorded, and costs,
// on a heap just collected, no allocation more than the notebook's own
// when the room suffices. (It did cost one of a pooled scratch of 64 KiB,
// zeroed, whenever sync.Pool missed, as it mostly does after a
// collection, plus a copy of what was recorded.) The first chunk of its
// own is half the room (at least snapMinChunk); a chunk of its own that
// ends mostly unused (a quarter, and more than snapMinChunk) is copied at
// its size.
const (
	snapChunk    = 256 << 10
	snapMinChunk = 1 << 10
)

// snapRoom returns the bytes to set aside for the snapshot of a notebook
// whose tape has n nodes. Recorded bytes per node are 38 on the median of
// the corpus's notebooks under 20 KB (the Document and the blocks of
// values, recorded as their bytes, see snapblock.go: a code cell's slot
// is 232 bytes, for 6 to 10 nodes), 45 for 97 in 100 of them, 51 at most,
// down to 1 where most of the file is one value kept as bytes: the room
// suffices for 419 of those 420 notebooks (it is twice what a record by
// the walk alone took: a struct's zero words are recorded too, which is
// what lets the check be one bytes.Equal per block); a notebook needing
// more goes on in chunks of its own (see snapshot).
func snapRoom(n int) int {
	return min(snapChunk, 46*n+128)
}

// take records doc, decoded from input, into room and chunks of its own
// (s.ok false when doc holds a value the walk cannot follow). The
// snapshot keeps room, which must not be used for anything else.
//
// regions, when not nil, are the blocks the decoder allocated the
// notebook's values in (see snapblock.go), which take orders; they and
// the Document are recorded as bytes, unless that is more bytes than
// the input holds, and than a bound. Without regions, the snapshot is recorded by
// a walk from the Document.
func (s *snapshot) take(doc *Document, input, room []byte, regions []snapRegion) {
	snapshots.Add(1)
	w := snapWalker{snap: s, lay: snapCommonLayouts(), keep: s.keep0[:0]}
	w.setInput(input)
	w.cur, w.kept, w.grow = room[:0], true, max(snapMinChunk, cap(room)/2)
	if regions != nil && ptrSize == 8 {
		// By blocks, unless their bytes outweigh the input's and a
		// quarter of snapChunk (notebooks of many nearly empty cells: a
		// cell's slot is 120 to 232 bytes, most of them zero, which the
		// walk records as a bitmap).
		if rs, sorted := sortRegions(regions); sorted && regionBytes(rs, w.lay.doc) <= max(len(input), snapChunk/4) {
			w.regions = rs
		}
	}
	var ok bool
	if w.regions != nil {
		ok = w.recordRegions(doc, w.regions)
	} else {
		ok = w.obj(unsafe.Pointer(doc), w.lay.doc)
	}
	if !ok {
		*s = snapshot{}
		return
	}
	w.endChunk()
	s.ok, s.regions, s.size, s.input, s.keep = true, w.regions, w.size, input, w.keep
}

// endChunk adds the chunk being filled to the record: the room given as
// it is, a chunk of its own copied at its size when mostly unused.
func (w *snapWalker) endChunk() {
	c, kept := w.cur, w.kept
	w.kept = false
	if len(c) == 0 {
		return
	}
	if unused := cap(c) - len(c); !kept && unused > len(c)/4 && unused > snapMinChunk {
		c = bytes.Clone(c)
	}
	if w.snap.first == nil {
		w.snap.first = c
	} else {
		w.snap.more = append(w.snap.more, c)
	}
}

// setInput notes where the input is.
func (w *snapWalker) setInput(input []byte) {
	if len(input) > 0 {
		w.base = unsafe.Pointer(unsafe.SliceData(input))
		w.lo = uintptr(w.base)
		w.hi = w.lo + uintptr(len(input))
	}
}

// matches reports whether doc's memory is the memory recorded.
func (s *snapshot) matches(doc *Document) bool {
	ok, _ := s.match(doc)
	return ok
}

// match is matches, also returning the number of values walked one by
// one (the rest was compared as regions; tests).
func (s *snapshot) match(doc *Document) (bool, int) {
	if !s.ok {
		return false, 0
	}
	w := snapWalker{check: true, cur: s.first, rest: s.more, keep: s.keep, lay: snapCommonLayouts(), regions: s.regions}
	w.setInput(s.input)
	if s.regions != nil {
		if !w.matchRegions(s, doc) {
			return false, w.walked
		}
	} else if !w.obj(unsafe.Pointer(doc), w.lay.doc) {
		return false, w.walked
	}
	// Everything recorded was compared (it always is when all matched).
	return w.size == s.size, w.walked
}

// snapWalker walks a notebook's memory, recording it (check false) or
// comparing it with the record (check true). Both walks make the same
// calls in the same order, so each reads what the other wrote.
type snapWalker struct {
	check  bool
	snap   *snapshot      // recording: the snapshot recorded into
	cur    []byte         // the chunk being filled (recording) or read (checking)
	kept   bool           // recording: cur is the room given, kept as it is
	grow   int            // recording: the size of the next chunk
	rest   [][]byte       // checking: the chunks after cur
	pos    int            // checking: the offset read in cur
	size   int            // bytes recorded or compared
	base   unsafe.Pointer // the input
	lo, hi uintptr        // where the input is
	keep   []unsafe.Pointer
	lay    *snapCommon
	// The regions compared as bytes (see snapblock.go): the walk does not
	// go into the values in them.
	regions []snapRegion
	hint    int // the region inBlock found last
	walked  int // values walked (see snapshot.match)
}

// span returns the next n (> 0) bytes of the record: to be filled when
// recording, to compare with when checking (nil past the end). A chunk
// ends where the next span did not fit in it, when recording and so when
// checking. A span to fill must be filled before the next is asked for
// (a chunk may be copied out when it ends).
func (w *snapWalker) span(n int) []byte {
	w.size += n
	if !w.check {
		if len(w.cur)+n > cap(w.cur) {
			w.endChunk()
			w.cur = make([]byte, 0, max(w.grow, n))
			w.grow = min(snapChunk, 2*w.grow)
		}
		s := w.cur[len(w.cur) : len(w.cur)+n]
		w.cur = w.cur[:len(w.cur)+n]
		return s
	}
	if w.pos+n > len(w.cur) {
		if len(w.rest) == 0 || n > len(w.rest[0]) {
			return nil
		}
		w.cur, w.rest, w.pos = w.rest[0], w.rest[1:], 0
	}
	s := w.cur[w.pos : w.pos+n]
	w.pos += n
	return s
}

// word records or compares a number.
func (w *snapWalker) word(x uint64) bool {
	s := w.span(8)
	if !w.check {
		binary.NativeEndian.PutUint64(s, x)
		return true
	}
	return s != nil && binary.NativeEndian.Uint64(s) == x
}

// inInput reports whether the n bytes at p are the input's.
func (w *snapWalker) inInput(p unsafe.Pointer, n int) bool {
	a := uintptr(p)
	return a >= w.lo && a < w.hi && uintptr(n) <= w.hi-a
}
