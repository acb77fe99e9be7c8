package nbformat

import (
	"encoding/binary"
	"math"
	"reflect"
	"unsafe"
)

// The walk of snapshot.go over maps.

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
			if !w.putKey(k) || !w.obj(unsafe.Pointer(&v), vl) {
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

// putKey records a map's key in one word: its length (high half), and
// where its bytes are (low half): in the input (its offset, times 2) or
// kept alive by the snapshot (see snapWalker.strings; its index in
// snapshot.keep, times 2, plus 1). It reports false for a key too long or
// too far for that (never, within the input limits).
func (w *snapWalker) putKey(k string) bool {
	var ref uint64
	if len(k) > 0 {
		d := unsafe.Pointer(unsafe.StringData(k))
		if w.inInput(d, len(k)) {
			ref = uint64(uintptr(d)-w.lo) << 1
		} else {
			w.keep = append(w.keep, d)
			ref = uint64(len(w.keep)-1)<<1 | 1
		}
	}
	if uint64(len(k)) > math.MaxUint32 || ref > math.MaxUint32 {
		return false
	}
	return w.word(uint64(len(k))<<32 | ref)
}

// key returns the next key recorded: the very string recorded (so that
// finding it in the map compares no bytes), its bytes being the input's
// or kept alive by the snapshot.
func (w *snapWalker) key() (string, bool) {
	s := w.span(8)
	if s == nil {
		return "", false
	}
	x := binary.NativeEndian.Uint64(s)
	n, ref := uintptr(x>>32), x&math.MaxUint32
	switch {
	case n == 0:
		return "", true
	case ref&1 == 0:
		off := uintptr(ref >> 1)
		if off > w.hi-w.lo || n > w.hi-w.lo-off {
			return "", false
		}
		return unsafe.String((*byte)(unsafe.Add(w.base, off)), n), true
	case ref>>1 < uint64(len(w.keep)):
		return unsafe.String((*byte)(w.keep[ref>>1]), n), true
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
			s.Elem().SetIterValue(it)
			if !w.putKey(it.Key().String()) || !w.obj(p, vl) {
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
