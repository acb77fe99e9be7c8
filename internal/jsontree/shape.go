package jsontree

import (
	"bytes"
	"fmt"
	"sync/atomic"
)

// A Shape tells [ParseShaped] which containers' interiors to record on the
// tape. A container whose shape is nil is recorded as one lazy node
// ([FlagLazy]): its bytes are checked against the grammar and the limits
// and its children are counted (Len), but they get no nodes of their own;
// [Tape.Expand] parses them when a caller needs them. Keeping the
// interiors nobody reads lazy is what bounds memory on files dense in small
// values (a tape node is 28 bytes; a value can be 2).
//
// A Shape is read-only once built (its Members must not change once it
// has been used) and may be shared by concurrent parses.
type Shape struct {
	all bool
	// Members gives the shapes of an object's members by key.
	Members map[string]*Shape
	// Other gives the shape of a member not in Members (nil: lazy). The
	// key it is given may share memory with the input being parsed: it is
	// valid only during the call, and Other must not keep it (nor
	// anything holding it) — copy it to keep it.
	Other func(key string) *Shape
	// Elem is the shape of an array's elements (nil: lazy).
	Elem *Shape
	// Flat keeps an array here lazy when its elements are all numbers,
	// strings, booleans or nulls (with FlagStrings when all are strings):
	// for consumers that read such arrays from their bytes (lines of
	// text). Objects, and arrays holding containers, follow the other
	// fields.
	Flat bool

	index atomic.Pointer[memberIndex] // of Members, built at first use
}

// All records every node: the shape of a full parse.
var All = &Shape{all: true}

// IsAll reports whether s records every node below it.
func (s *Shape) IsAll() bool { return s != nil && s.all }

// member returns the shape of the member with the (unquoted, unescaped)
// key k.
func (s *Shape) member(k string) *Shape {
	if s.all {
		return s
	}
	if m, ok := s.lookup(k); ok {
		return m
	}
	if s.Other != nil {
		return s.Other(k)
	}
	return nil
}

// A LazyError is the panic of a tape accessor asked for the children of a
// lazy node: a program error (the shape given to ParseShaped left out an
// interior the caller reads), never a property of the input.
type LazyError struct{ Node int }

func (e *LazyError) Error() string {
	return fmt.Sprintf("jsontree: the children of lazy node %d were not recorded (use Expand)", e.Node)
}

func (t *Tape) mustExpanded(i int) {
	if t.Nodes[i].Flags&FlagLazy != 0 {
		panic(&LazyError{Node: i})
	}
}

// Lazy reports whether node i is a lazy container (see [Shape]).
func (t *Tape) Lazy(i int) bool { return t.Nodes[i].Flags&FlagLazy != 0 }

// HasLazy reports whether the tape has any lazy node.
func (t *Tape) HasLazy() bool { return t.lazy > 0 }

// Expand parses lazy node i fully: the result is a tape over the same data
// (offsets are those of t) whose root, node 0, is node i (without its key).
// It parses again each time it is called. For a node that is not lazy it
// parses the node's bytes all the same.
func (t *Tape) Expand(i int) (*Tape, error) {
	n := &t.Nodes[i]
	p := parser{data: t.Data[:n.End], pos: int(n.Start), shape: All}
	nodes, err := p.run()
	if err != nil {
		return nil, err
	}
	return &Tape{Data: t.Data, Nodes: nodes, BOM: t.BOM}, nil
}

// Full returns t if it has no lazy node, else a full parse of its data
// (with t's BOM, which a caller may have cleared).
func (t *Tape) Full() (*Tape, error) {
	if t.lazy == 0 {
		return t, nil
	}
	full, err := Parse(t.Data, Limits{})
	if err != nil {
		return nil, err
	}
	full.BOM = t.BOM
	return full, nil
}

// LazyStyle summarizes, for the style detection of a writer, what lazy
// interiors hold (their strings and objects have no nodes to look at).
type LazyStyle struct {
	RawNonASCII     bool     // a string value holds raw non-ASCII
	EscapedNonASCII bool     // a string value holds a \u escape of non-ASCII
	Escaping        Escaping // what its \u escapes show (ScanEscapes)
	Unsorted        bool     // an object's keys are not in code-point order
}

// ScanEscapes notes what the \u escapes in the string token s tell about
// the writer: escaped non-ASCII (ensure_ascii), hex digit case, HTML-safe
// and line-separator escapes.
func ScanEscapes(s []byte, esc *Escaping, nonASCII *bool) {
	for i := 0; i+5 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++
			continue
		}
		h := s[i+2 : i+6]
		lower := [4]byte{}
		for k, c := range h {
			if c >= 'A' && c <= 'F' {
				esc.Upper = true
				c += 'a' - 'A'
			}
			lower[k] = c
		}
		switch string(lower[:]) {
		case "003c", "003e", "0026":
			esc.HTML = true
		case "2028", "2029":
			esc.LineSep = true
		}
		if h[0] != '0' || h[1] != '0' || h[2] >= '8' {
			*nonASCII = true
		}
		i += 5
	}
}

// lazyString adds the string token at start (not recorded), with the
// flags scanStr gave it, to the style summary of lazy interiors.
func (p *parser) lazyString(start int, flags uint8) {
	if flags&(FlagASCII|flagUEscape) == FlagASCII {
		return // nothing to note: the usual string, kept inline
	}
	p.noteString(start, flags)
}

// noteString is lazyString for a string with non-ASCII or a \u escape.
func (p *parser) noteString(start int, flags uint8) {
	if flags&FlagASCII == 0 {
		p.style.RawNonASCII = true
	}
	if flags&flagUEscape != 0 {
		ScanEscapes(p.data[start:p.pos], &p.style.Escaping, &p.style.EscapedNonASCII)
	}
}

// lazyKey checks the order of the keys of an object inside a lazy node,
// for the style summary.
func (p *parser) lazyKey(f *frame, k, kEnd int32, esc bool) {
	if f.prevKey >= 0 {
		a, b := p.data[f.prevKey+1:f.prevKeyEnd-1], p.data[k+1:kEnd-1]
		if f.prevEsc || esc {
			a, b = AppendUnescaped(nil, a), AppendUnescaped(nil, b)
		}
		if bytes.Compare(a, b) > 0 {
			p.style.Unsorted = true
		}
	}
	f.prevKey, f.prevKeyEnd, f.prevEsc = k, kEnd, esc
}
