package nbformat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"reflect"
	"sync"
	"unsafe"
)

// The unedited check. Marshal writes, and Validate validates, the bytes a
// notebook was read from when the notebook is unedited; deciding that by
// comparing every typed value with the tape (encoder.equal) cost as much
// as a sixth of a small file's round trip, twice. Instead, right after
// decoding, the notebook's typed values are snapshot: the bytes of every
// object reachable from the Document (the Document itself, each cell and
// output struct, each slice's elements, each pointee, each value boxed in
// an interface) are copied, in the order of a walk from the Document, into
// a few chunks of plain bytes, and each map's members (key bytes and value
// bytes) likewise. A notebook is unedited when the same walk over its
// memory now finds the same bytes, stopping at the first difference.
//
// Why this is exact (a match means the notebook has not changed):
//
//   - The walk compares an object's bytes before it follows anything in
//     them. So when the Document's bytes match, its slice headers,
//     pointers, maps and interface words are the ones recorded, and the
//     objects they lead to are the objects (at the addresses) the snapshot
//     recorded next, and so on down: by induction, every reachable object
//     is compared with its own record, and the walk reads only memory the
//     notebook now reaches (a live pointer loaded from a live object, never
//     an address kept in the snapshot, so the garbage collector and
//     freed memory play no part in what is read).
//   - Mutable memory (structs, the elements of slices, maps, values boxed
//     in interfaces) is compared by content, so an object replaced by
//     another at the same address after a collection must also have the
//     same content to match, and then it is the same value.
//   - Immutable memory is compared by identity: the bytes of a string (its
//     header matching means the same bytes, as long as no other string
//     can be at that address: strings that are not the input's are kept
//     alive by the snapshot, snapshot.keep, and the input is kept alive
//     by the notebook's source), and byte slices sharing the input (the
//     json.RawMessage values and text read, which the package documents as
//     never to be modified; the reflective walk likewise took them as
//     equal to the input by identity). Other byte slices are compared by
//     content.
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
// TestSnapshotAgreesWithWalk), and it depends only on the values, the
// identity of cells and outputs (the source's maps keep those alive) and
// the structs Heal fills (a notebook with any is always walked).

// snapshot is the memory of a notebook's values as decoded (see above).
// It lives in the notebook's source (no allocation of its own).
type snapshot struct {
	ok    bool             // recorded: doc holds nothing the walk cannot follow
	first []byte           // the bytes recorded, in walk order, in chunks (no pointers for the collector to scan)
	more  [][]byte         // the chunks after the first (large notebooks)
	size  int              // bytes recorded
	input []byte           // the bytes read (the source's, kept alive by it too)
	keep  []unsafe.Pointer // the bytes of recorded strings that are not the input's, kept alive
	keep0 [4]unsafe.Pointer
}

// A snapshot is recorded into a scratch buffer (snapScratch, reused),
// copied out at its exact size when done; one larger than the scratch
// goes on in chunks of snapChunk bytes (objects larger than that have a
// chunk of their own), so that recording a large notebook never copies
// what it recorded.
const (
	snapScratchSize = 64 << 10
	snapChunk       = 256 << 10
)

var snapScratch = sync.Pool{New: func() any {
	b := make([]byte, 0, snapScratchSize)
	return &b
}}

// take records doc, decoded from input (s.ok false when doc holds a value
// the walk cannot follow).
func (s *snapshot) take(doc *Document, input []byte) {
	w := snapWalker{snap: s, lay: snapCommonLayouts(), keep: s.keep0[:0]}
	w.setInput(input)
	scratch := snapScratch.Get().(*[]byte)
	defer snapScratch.Put(scratch)
	w.cur, w.scratch = (*scratch)[:0], true
	if !w.obj(unsafe.Pointer(doc), w.lay.doc) {
		*s = snapshot{}
		return
	}
	w.endChunk()
	s.ok, s.size, s.input, s.keep = true, w.size, input, w.keep
}

// endChunk adds the chunk being filled to the record: a copy of the
// scratch buffer, or of a chunk mostly unused, at its size.
func (w *snapWalker) endChunk() {
	if len(w.cur) == 0 {
		return
	}
	c := w.cur
	if w.scratch || cap(c)-len(c) > len(c)/4 {
		c = bytes.Clone(c)
	}
	if w.snap.first == nil {
		w.snap.first = c
	} else {
		w.snap.more = append(w.snap.more, c)
	}
	w.scratch = false
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
	if !s.ok {
		return false
	}
	w := snapWalker{check: true, cur: s.first, rest: s.more, keep: s.keep, lay: snapCommonLayouts()}
	w.setInput(s.input)
	if !w.obj(unsafe.Pointer(doc), w.lay.doc) {
		return false
	}
	// Everything recorded was compared (it always is when all matched).
	return w.size == s.size
}

// snapWalker walks a notebook's memory, recording it (check false) or
// comparing it with the record (check true). Both walks make the same
// calls in the same order, so each reads what the other wrote.
type snapWalker struct {
	check   bool
	snap    *snapshot      // recording: the snapshot recorded into
	cur     []byte         // the chunk being filled (recording) or read (checking)
	scratch bool           // recording: cur is the scratch buffer
	rest    [][]byte       // checking: the chunks after cur
	pos     int            // checking: the offset read in cur
	size    int            // bytes recorded or compared
	base    unsafe.Pointer // the input
	lo, hi  uintptr        // where the input is
	keep    []unsafe.Pointer
	lay     *snapCommon
}

// span returns the next n (> 0) bytes of the record: to be filled when
// recording, to compare with when checking (nil past the end). A chunk
// ends where the next span did not fit in it, when recording and so when
// checking. A span to fill must be filled before the next is asked for
// (the scratch buffer is copied out when a chunk ends).
func (w *snapWalker) span(n int) []byte {
	w.size += n
	if !w.check {
		if len(w.cur)+n > cap(w.cur) {
			w.endChunk()
			w.cur = make([]byte, 0, max(snapChunk, n))
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
// a struct's words are zero: this takes half the bytes of a copy.)
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
		q := unsafe.Add(p, e.off)
		ok := true
		switch e.kind {
		case edgePtr:
			if c := *(*unsafe.Pointer)(q); c != nil {
				ok = w.obj(c, e.elem)
			}
		case edgeSlice:
			if n := (*[3]int)(q)[1]; n > 0 {
				ok = w.array(*(*unsafe.Pointer)(q), n, e.elem)
			}
		case edgeBytes:
			ok = w.bytes(*(*[]byte)(q))
		case edgeMap:
			ok = w.mapAt(q, e)
		case edgeAny:
			ok = w.dynamic(*(*any)(q))
		case edgeCell:
			ok = w.dynamic(*(*Cell)(q))
		case edgeOutput:
			ok = w.dynamic(*(*Output)(q))
		}
		if !ok {
			return false
		}
	}
	return true
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

// mapAt records or compares the members of the map at q.
func (w *snapWalker) mapAt(q unsafe.Pointer, e *snapEdge) bool {
	if *(*unsafe.Pointer)(q) == nil {
		return true // and was nil (see sameMasked)
	}
	switch e.mapKind {
	case mapAny:
		return walkMap(w, *(*map[string]any)(q), e.elem)
	case mapBundle:
		return walkMap(w, *(*map[string]MimeBundle)(q), e.elem)
	case mapInt:
		return walkMap(w, *(*map[string]int)(q), e.elem)
	}
	// (A copy of the map's pointer, so that q does not escape for the
	// common cases above.)
	mp := *(*unsafe.Pointer)(q)
	return w.reflectMap(reflect.NewAt(e.typ, unsafe.Pointer(&mp)).Elem(), e.elem)
}

// walkMap records the members of m (their number, then each key's bytes
// and value, in the map's order), or compares m with them (the same
// number, and each key recorded holding the value recorded).
func walkMap[V any](w *snapWalker, m map[string]V, vl *snapLayout) bool {
	if !w.word(uint64(len(m))) {
		return false
	}
	if len(m) == 0 {
		return true
	}
	if !w.check {
		for k, v := range m {
			w.putKey(k)
			if !w.obj(unsafe.Pointer(&v), vl) {
				return false
			}
		}
		return true
	}
	for range len(m) {
		k, ok := w.key()
		if !ok {
			return false
		}
		v, in := m[k]
		if !in || !w.obj(unsafe.Pointer(&v), vl) {
			return false
		}
	}
	return true
}

// putKey records a map's key: its length and where its bytes are, in
// the input or kept alive by the snapshot (see snapWalker.strings).
func (w *snapWalker) putKey(k string) {
	w.word(uint64(len(k)))
	if len(k) == 0 {
		return
	}
	d := unsafe.Pointer(unsafe.StringData(k))
	if w.inInput(d, len(k)) {
		w.word(uint64(uintptr(d)-w.lo) << 1)
		return
	}
	w.keep = append(w.keep, d)
	w.word(uint64(len(w.keep)-1)<<1 | 1)
}

// key returns the next key recorded: the very string recorded (so that
// finding it in the map compares no bytes), its bytes being the input's
// or kept alive by the snapshot.
func (w *snapWalker) key() (string, bool) {
	s := w.span(8)
	if s == nil {
		return "", false
	}
	n := binary.NativeEndian.Uint64(s)
	if n == 0 {
		return "", true
	}
	if s = w.span(8); s == nil {
		return "", false
	}
	ref := binary.NativeEndian.Uint64(s)
	if ref&1 == 0 {
		off := uintptr(ref >> 1)
		if off > w.hi-w.lo || uintptr(n) > w.hi-w.lo-off {
			return "", false
		}
		return unsafe.String((*byte)(unsafe.Add(w.base, off)), int(n)), true
	}
	if i := ref >> 1; i < uint64(len(w.keep)) {
		return unsafe.String((*byte)(w.keep[i]), int(n)), true
	}
	return "", false
}

// reflectMap is walkMap for other string-keyed map types (values the
// decoder does not make), by reflection.
func (w *snapWalker) reflectMap(m reflect.Value, vl *snapLayout) bool {
	if !w.word(uint64(m.Len())) {
		return false
	}
	s := reflect.New(m.Type().Elem())
	p := s.UnsafePointer()
	if !w.check {
		it := m.MapRange()
		for it.Next() {
			w.putKey(it.Key().String())
			s.Elem().SetIterValue(it)
			if !w.obj(p, vl) {
				return false
			}
		}
		return true
	}
	for range m.Len() {
		k, ok := w.key()
		if !ok {
			return false
		}
		v := m.MapIndex(reflect.ValueOf(k).Convert(m.Type().Key()))
		if !v.IsValid() {
			return false
		}
		s.Elem().Set(v)
		if !w.obj(p, vl) {
			return false
		}
	}
	return true
}
