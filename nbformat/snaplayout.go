package nbformat

import (
	"encoding/json"
	"reflect"
	"sync"
)

// How the snapshot (snapshot.go) sees a value of one Go type in memory:
// its bytes, and the places inside them that lead to other memory whose
// content counts. Layouts are built once per type, by reflection, for any
// type the decoder may put in a notebook (and most others); a type the
// walk cannot follow (channels, functions, unsafe pointers, maps keyed by
// anything but strings) is not ok, and a notebook holding one simply has
// no snapshot.

// snapLayout describes the memory of a value of one type.
type snapLayout struct {
	size  uintptr
	ok    bool        // the walk can follow values of this type
	edges []snapEdge  // places leading to memory whose content counts, in field order
	strs  []uintptr   // offsets of string headers (their bytes are immutable; see snapWalker.strings)
	masks []snapMask  // words compared loosely (see sameMasked), in offset order
	elem  *snapLayout // for a pointer type: the pointee
	// For a layout recorded sparsely (see snapWalker.sparse; words > 0):
	// the number of 8-byte words of a value, and by bit, those that
	// count by value (plain) and those that count at all (care: plain,
	// and the words of which only whether they are zero counts; see
	// snapMask).
	words       int
	plain, care uint64
}

// sparseMin is the smallest value recorded sparsely: structs (of at most
// 64 words), most of whose words are zero (nil pointers, empty maps and
// strings, unset optional members); not interface words, strings,
// pointers, numbers.
const sparseMin = 32

// snapMask is a word of a value compared loosely: only whether it is zero
// counts (nilOnly: a slice's data pointer, a map; their contents are
// compared through the edge), or it does not count at all (a slice's
// capacity).
type snapMask struct {
	off     uintptr
	nilOnly bool
}

type edgeKind uint8

const (
	edgePtr    edgeKind = iota // a pointer: the pointee's content
	edgeSlice                  // a slice: its elements' content
	edgeBytes                  // a byte slice: its bytes, or its place in the input
	edgeMap                    // a string-keyed map: its members' content
	edgeAny                    // an empty interface: its dynamic value's content
	edgeCell                   // a Cell
	edgeOutput                 // an Output
)

// Map types walked without reflection.
const (
	mapReflect uint8 = iota
	mapAny
	mapBundle
	mapInt
)

// snapEdge is a place inside a value that leads to other memory.
type snapEdge struct {
	off     uintptr
	kind    edgeKind
	mapKind uint8        // edgeMap: how the map is walked
	elem    *snapLayout  // edgePtr: the pointee; edgeSlice: an element; edgeMap: a value
	typ     reflect.Type // edgeMap: the map type
}

var (
	snapLayouts sync.Map   // reflect.Type → *snapLayout, complete
	snapBuildMu sync.Mutex // serializes building
)

// snapLayoutOf returns the layout of t, building it (and those it refers
// to) once. Layouts are published only when complete.
func snapLayoutOf(t reflect.Type) *snapLayout {
	if l, ok := snapLayouts.Load(t); ok {
		return l.(*snapLayout)
	}
	snapBuildMu.Lock()
	defer snapBuildMu.Unlock()
	building := map[reflect.Type]*snapLayout{}
	l := buildSnapLayout(t, building)
	for k, v := range building {
		snapLayouts.Store(k, v)
	}
	return l
}

func buildSnapLayout(t reflect.Type, building map[reflect.Type]*snapLayout) *snapLayout {
	if l, ok := snapLayouts.Load(t); ok {
		return l.(*snapLayout)
	}
	if l, ok := building[t]; ok {
		return l // a recursive type, through a pointer, slice or map: completed up the stack
	}
	l := &snapLayout{size: t.Size(), ok: true}
	building[t] = l
	l.add(t, 0, building)
	if ptrSize == 8 && l.size >= sparseMin && l.size <= 64*8 && l.size%8 == 0 && l.ok {
		l.words = int(l.size / 8)
		l.care = ^uint64(0) >> (64 - l.words)
		l.plain = l.care
		for _, m := range l.masks {
			l.plain &^= 1 << (m.off / 8)
			if !m.nilOnly {
				l.care &^= 1 << (m.off / 8)
			}
		}
	}
	if t.Kind() == reflect.Pointer {
		l.elem = l.edges[0].elem
	}
	return l
}

// maxArrayEdges bounds the edges an array type's elements add (arrays of
// pointers are not something the decoder makes).
const maxArrayEdges = 64

// add adds to l the edges, strings and masks of a value of type t at
// offset off.
func (l *snapLayout) add(t reflect.Type, off uintptr, building map[reflect.Type]*snapLayout) {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
	case reflect.String:
		l.strs = append(l.strs, off)
	case reflect.Pointer:
		l.edges = append(l.edges, snapEdge{off: off, kind: edgePtr, elem: buildSnapLayout(t.Elem(), building)})
	case reflect.Slice:
		l.masks = append(l.masks, snapMask{off, true}, snapMask{off + 2*ptrSize, false})
		if t.Elem().Kind() == reflect.Uint8 {
			l.edges = append(l.edges, snapEdge{off: off, kind: edgeBytes})
			return
		}
		l.edges = append(l.edges, snapEdge{off: off, kind: edgeSlice, elem: buildSnapLayout(t.Elem(), building)})
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			l.ok = false
			return
		}
		l.masks = append(l.masks, snapMask{off, true})
		mk := mapReflect
		switch t {
		case genericMapType:
			mk = mapAny
		case reflect.TypeFor[map[string]MimeBundle]():
			mk = mapBundle
		case reflect.TypeFor[map[string]int]():
			mk = mapInt
		}
		l.edges = append(l.edges, snapEdge{off: off, kind: edgeMap, mapKind: mk, typ: t, elem: buildSnapLayout(t.Elem(), building)})
	case reflect.Interface:
		var k edgeKind
		switch t {
		case anyType:
			k = edgeAny
		case cellType:
			k = edgeCell
		case outputType:
			k = edgeOutput
		default: // no other interface is in a notebook
			l.ok = false
			return
		}
		l.edges = append(l.edges, snapEdge{off: off, kind: k})
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			l.add(f.Type, off+f.Offset, building)
		}
	case reflect.Array:
		el := buildSnapLayout(t.Elem(), building)
		if !el.ok || t.Len()*(len(el.edges)+len(el.strs)+len(el.masks)) > maxArrayEdges {
			l.ok = false
			return
		}
		for i := range t.Len() {
			l.add(t.Elem(), off+uintptr(i)*t.Elem().Size(), building)
		}
	default: // channels, functions, unsafe pointers
		l.ok = false
	}
}

const ptrSize = 4 << (^uintptr(0) >> 63)

// snapCommon holds the layouts the walk uses most, found once.
type snapCommon struct {
	doc, any, str, bytes, boolean, integer, float, number, anys *snapLayout
	code, markdown, raw, unknownCell                            *snapLayout
	execResult, display, stream, errorOut, unknownOut           *snapLayout
}

var snapCommonLayouts = sync.OnceValue(func() *snapCommon {
	of := func(t reflect.Type) *snapLayout { return snapLayoutOf(t) }
	return &snapCommon{
		doc:         of(reflect.TypeFor[Document]()),
		any:         of(anyType),
		str:         of(reflect.TypeFor[string]()),
		bytes:       of(reflect.TypeFor[json.RawMessage]()),
		boolean:     of(reflect.TypeFor[bool]()),
		integer:     of(reflect.TypeFor[int]()),
		float:       of(reflect.TypeFor[float64]()),
		number:      of(reflect.TypeFor[json.Number]()),
		anys:        of(reflect.TypeFor[[]any]()),
		code:        of(reflect.TypeFor[CodeCell]()),
		markdown:    of(reflect.TypeFor[MarkdownCell]()),
		raw:         of(reflect.TypeFor[RawCell]()),
		unknownCell: of(reflect.TypeFor[UnknownCell]()),
		execResult:  of(reflect.TypeFor[ExecuteResult]()),
		display:     of(reflect.TypeFor[DisplayData]()),
		stream:      of(reflect.TypeFor[Stream]()),
		errorOut:    of(reflect.TypeFor[ErrorOutput]()),
		unknownOut:  of(reflect.TypeFor[UnknownOutput]()),
	}
})
