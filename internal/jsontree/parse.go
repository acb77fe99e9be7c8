package jsontree

// The parser: Parse and ParseShaped scan one JSON value into a tape of nodes,
// within Limits, or give a SyntaxError at its place.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// Limits bound the work Parse does on hostile input. Zero fields mean no
// limit.
type Limits struct {
	MaxDepth  int // deepest nesting of arrays and objects
	MaxNodes  int // most values in the document
	MaxString int // longest string, in bytes as written (escapes included)
}

// A SyntaxError reports malformed JSON at a byte offset.
type SyntaxError struct {
	Offset int64  // byte offset of the problem
	Msg    string // what is wrong
	Limit  bool   // the input broke a limit rather than the grammar
}

func (e *SyntaxError) Error() string { return e.Msg }

// Position converts a byte offset in data to a 1-based line and column
// (columns count bytes).
func Position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

const maxOffset = math.MaxInt32

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse scans data, which must hold exactly one JSON value surrounded by
// optional whitespace (and an optional UTF-8 byte-order mark before it), and
// returns its tape, with a node for every value. The tape refers to data,
// which must not be modified while the tape is in use.
func Parse(data []byte, lim Limits) (*Tape, error) { return ParseShaped(data, lim, All) }

// ParseShaped is Parse recording only the interiors shape asks for: a
// container whose shape is nil becomes one lazy node (see [Shape]). The
// whole input is checked all the same, limits included (MaxNodes counts
// the values inside lazy nodes too). A nil shape makes the root itself
// lazy when it is a container.
func ParseShaped(data []byte, lim Limits, shape *Shape) (*Tape, error) {
	return parseWith(parser{lim: lim, shape: shape}, data)
}

func parseWith(p parser, data []byte) (*Tape, error) {
	if err := p.begin(data); err != nil {
		return nil, err
	}
	nodes, err := p.run()
	if err != nil {
		return nil, err
	}
	return p.tape(nodes), nil
}

// begin readies p to parse data: it checks its size and skips a
// byte-order mark.
func (p *parser) begin(data []byte) error {
	if len(data) > maxOffset {
		return &SyntaxError{Offset: maxOffset, Msg: fmt.Sprintf("input of %d bytes is larger than %d bytes", len(data), maxOffset), Limit: true}
	}
	p.data = data
	if len(data) >= 3 && data[0] == bom[0] && data[1] == bom[1] && data[2] == bom[2] {
		p.bom = true
		p.pos = 3
	}
	return nil
}

// tape returns the tape of p's parse, done, with the given nodes.
func (p *parser) tape(nodes []Node) *Tape {
	return &Tape{Data: p.data, Nodes: nodes, BOM: p.bom, lazy: p.lazy, LazyStyle: p.style}
}

type parser struct {
	data   []byte
	pos    int
	start  int      // where the value parsed starts
	nodes  []Node   // the chunk being filled, from node base on (its capacity the chunk's)
	chunks [][]Node // chunks[cur] holds nodes; the earlier ones are full, of chunkLen
	base   int      // cur * chunkLen
	cur    int
	stack  []frame // open containers
	lim    Limits
	// lim's MaxNodes and MaxString, math.MaxInt for no limit (one
	// comparison per value, set by record)
	maxValues, maxString int
	shape                *Shape // of the root value
	bom                  bool   // data starts with a byte-order mark (skipped)
	values               int    // values seen, recorded or not
	lazy                 int    // lazy nodes recorded
	style                LazyStyle
	// the member key of the value about to be read (Key -1 for none)
	key, keyEnd int32
	keyFlags    uint8
}

// A frame is an open container.
type frame struct {
	idx  int32 // its node, or -1 inside a lazy node
	kind Kind  // Array or Object
	lazy bool  // its children get no nodes
	len  int32 // its children so far
	// inside lazy nodes, for the style summary: the previous key
	prevKey, prevKeyEnd int32
	prevEsc             bool
}

func (p *parser) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) unexpected(what string) error {
	if p.pos >= len(p.data) {
		return p.errorf(p.pos, "unexpected end of input, expecting %s", what)
	}
	c := p.data[p.pos]
	if c >= 0x20 && c < 0x7f {
		return p.errorf(p.pos, "invalid character %q, expecting %s", c, what)
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	if r == utf8.RuneError {
		return p.errorf(p.pos, "invalid byte 0x%02x, expecting %s", c, what)
	}
	return p.errorf(p.pos, "invalid character %U, expecting %s", r, what)
}

func (p *parser) skipSpace() { p.pos = skipSpace(p.data, p.pos) }

// skipSpace returns the offset of the first byte from i on that is not
// JSON whitespace. A byte above ' ' (what follows most tokens) ends it at
// the first comparison; the indentation after a newline is skipped 8
// bytes at a time.
func skipSpace(d []byte, i int) int {
	for i < len(d) {
		c := d[i]
		if c > ' ' {
			return i
		}
		switch c {
		case ' ', '\r', '\t':
			i++
		case '\n':
			i++
			for ; i < len(d)-7; i += 8 {
				if x := binary.LittleEndian.Uint64(d[i:]) ^ lsb*' '; x != 0 {
					i += bits.TrailingZeros64(x) >> 3
					break
				}
			}
		default:
			return i
		}
	}
	return i
}

// over counts one more value, and reports whether it breaks MaxNodes
// ([parser.tooMany] is the error).
func (p *parser) over() bool {
	p.values++
	return p.values > p.maxValues
}

func (p *parser) tooMany(start int) error {
	return &SyntaxError{Offset: int64(start), Msg: fmt.Sprintf("more than %d JSON values", p.lim.MaxNodes), Limit: true}
}

// childShape returns the shape of the container about to be parsed, a
// recorded one, in the innermost open container, whose shape is in. (Only
// containers have a shape that matters: a scalar's is never looked up.)
func (p *parser) childShape(in *Shape, key, keyEnd int32, keyFlags uint8) *Shape {
	if len(p.stack) == 0 {
		return p.shape
	}
	if in.all {
		return All
	}
	if p.stack[len(p.stack)-1].kind == Array {
		return in.Elem
	}
	raw := p.data[key+1 : keyEnd-1]
	if keyFlags&FlagKeyEscaped == 0 {
		if m, ok := in.lookup(zerocopy.String(raw)); ok {
			return m
		}
		if in.Other == nil {
			return nil
		}
		return in.Other(zerocopy.String(raw))
	}
	return in.member(UnescapeString(raw))
}

// parse is an iterative recursive-descent parser: the stack holds the open
// containers, so hostile nesting cannot exhaust the goroutine stack. Each
// turn reads one value; a container's values follow its opening, and the
// punctuation after a value (commas, closing brackets) is read by next.
//
// The shapes of the open containers are a stack of their own, beside
// p.stack, held here: on the goroutine's stack (while notebooks' handful
// of levels fit), where pointers are written without the collector's
// write barriers (they were a twentieth of a parse, in append's copies of
// frames holding them).
func (p *parser) parse() error {
	var buf [16]*Shape
	shapes := buf[:0]
	p.skipSpace()
	p.key, p.keyEnd, p.keyFlags = -1, -1, 0
	for {
		var in *Shape
		if len(shapes) > 0 {
			in = shapes[len(shapes)-1]
		}
		opened, shape, err := p.value(in)
		if err != nil {
			return err
		}
		if opened {
			shapes = append(shapes, shape)
			continue // the container's first value is next
		}
		done, err := p.next()
		if done || err != nil {
			return err
		}
		shapes = shapes[:len(p.stack)]
	}
}

// value reads the value at p.pos (a member's, if p.key is set) in the
// innermost open container, whose shape is in: a scalar whole, a
// container's opening bracket. It reports whether it opened a container
// whose values follow (an empty one, or a flat array, is read whole), and
// the shape of that container's recorded children.
func (p *parser) value(in *Shape) (opened bool, shape *Shape, err error) {
	if p.pos >= len(p.data) {
		return false, nil, p.unexpected("a value")
	}
	start := p.pos
	if p.over() {
		return false, nil, p.tooMany(start)
	}
	// The innermost open container counts the value (its node's Len,
	// written when it closes) and tells whether it is recorded.
	record := true
	if k := len(p.stack); k > 0 {
		top := &p.stack[k-1]
		top.len++
		record = !top.lazy && top.idx >= 0
	}
	var kind Kind
	var flags uint8
	switch c := p.data[p.pos]; c {
	case '{', '[':
		if p.lim.MaxDepth > 0 && len(p.stack) >= p.lim.MaxDepth {
			return false, nil, &SyntaxError{Offset: int64(start), Msg: fmt.Sprintf("nesting deeper than %d levels", p.lim.MaxDepth), Limit: true}
		}
		var shape *Shape
		if record {
			shape = p.childShape(in, p.key, p.keyEnd, p.keyFlags)
		}
		kind = Array
		if c == '{' {
			kind = Object
		}
		p.pos++
		return p.open(start, kind, record, shape)
	case '"':
		end, sflags, bad := scanStr(p.data, start)
		if p.badString(end) {
			return false, nil, p.stringError(end, bad)
		}
		p.pos = end
		kind, flags = String, sflags&^flagUEscape
		if !record {
			p.lazyString(start, sflags)
		}
	default:
		kind, flags, err = p.scalar(c)
		if err != nil {
			return false, nil, err
		}
	}
	if record {
		p.push(int32(start), int32(p.pos), p.key, p.keyEnd, kind, p.keyFlags|flags)
	}
	return false, nil, nil
}

// push records a node (Len 0, Skip past itself) and returns its index.
// Its fields are written in place, not built aside and copied whole (the
// copy's wide loads can wait on the narrow stores that built it).
func (p *parser) push(start, end, key, keyEnd int32, kind Kind, flags uint8) int32 {
	i := len(p.nodes)
	if i == cap(p.nodes) {
		i = p.nextChunk()
	}
	p.nodes = p.nodes[:i+1]
	n := &p.nodes[i]
	g := p.base + i
	n.Start, n.End, n.Key, n.KeyEnd = start, end, key, keyEnd
	n.Skip, n.Len = int32(g+1), 0
	n.Kind, n.Flags = kind, flags
	return int32(g)
}

// node returns recorded node i (in the chunk being filled, p.nodes shares
// its array).
func (p *parser) node(i int32) *Node { return &p.chunks[i>>chunkBits][i&(chunkLen-1)] }

// open records the container of the given kind at start (its opening
// bracket just read; the member key, if any, in p.key) as its shape says,
// and enters it: an empty one is closed at once, else p.pos is left at
// its first value (after the key, for an object) and inner is the shape
// of its recorded children (nil when lazy). A flat array (see [Shape]
// Flat) of scalars is read whole.
func (p *parser) open(start int, kind Kind, record bool, shape *Shape) (opened bool, inner *Shape, err error) {
	flags := p.keyFlags
	if record {
		if kind == Array && shape != nil && shape.Flat {
			n := Node{Start: int32(start), End: int32(start + 1), Key: p.key, KeyEnd: p.keyEnd, Kind: kind, Flags: flags}
			isFlat, err := p.flatElems(&n)
			if err != nil {
				return false, nil, err
			}
			if isFlat {
				p.lazy++
				i := p.push(n.Start, n.End, n.Key, n.KeyEnd, n.Kind, n.Flags)
				p.node(i).Len = n.Len
				return false, nil, nil
			}
		}
		if shape == nil {
			flags |= FlagLazy
			p.lazy++
		}
	}
	idx := int32(-1)
	if record {
		idx = p.push(int32(start), int32(start+1), p.key, p.keyEnd, kind, flags)
	}
	// The frame too is written in place (see push).
	k := len(p.stack)
	if k == cap(p.stack) {
		p.stack = slices.Grow(p.stack, 1)
	}
	p.stack = p.stack[:k+1]
	f := &p.stack[k]
	f.idx, f.kind, f.lazy, f.len = idx, kind, record && shape == nil, 0
	f.prevKey, f.prevKeyEnd, f.prevEsc = -1, 0, false
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == closer(kind) {
		p.close()
		return false, nil, nil
	}
	if kind == Object {
		return true, shape, p.member(f)
	}
	p.key, p.keyEnd, p.keyFlags = -1, -1, 0
	return true, shape, nil
}

// closer returns the closing bracket of a container kind.
func closer(k Kind) byte {
	if k == Object {
		return '}'
	}
	return ']'
}

// next reads what follows a complete value: a comma (and, in an object,
// the next key), closing brackets, or the end of the input. It reports
// whether the top-level value is complete.
func (p *parser) next() (done bool, err error) {
	// The offset read is held in i, and stored to p.pos for what reads it
	// there (errors, close, member).
	d, i := p.data, p.pos
	for {
		i = skipSpace(d, i)
		p.pos = i
		if len(p.stack) == 0 {
			if i != len(d) {
				return true, p.errorf(i, "invalid character %q after the top-level value", d[i])
			}
			return true, nil
		}
		if i >= len(d) {
			return true, p.unexpected("',' or a closing bracket")
		}
		top := &p.stack[len(p.stack)-1]
		switch c := d[i]; {
		case c == ',':
			p.pos = skipSpace(d, i+1)
			if top.kind == Object {
				return false, p.member(top)
			}
			p.key, p.keyEnd, p.keyFlags = -1, -1, 0
			return false, nil
		case c == closer(top.kind):
			p.close()
			i++
		case top.kind == Object:
			return true, p.unexpected("',' or '}' after an object member")
		default:
			return true, p.unexpected("',' or ']' after an array element")
		}
	}
}

// close ends the innermost container at p.pos (its closing bracket),
// leaving p.pos past it.
func (p *parser) close() {
	f := &p.stack[len(p.stack)-1]
	p.pos++
	if i := f.idx; i >= 0 {
		n := p.node(i)
		n.Len = f.len
		n.End = int32(p.pos)
		n.Skip = int32(p.base + len(p.nodes))
	}
	p.stack = p.stack[:len(p.stack)-1]
}

// member scans an object key and its colon into p.key, leaving p.pos at
// the value; top is the object's frame.
func (p *parser) member(top *frame) error {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return p.unexpected("a string key")
	}
	k := p.pos
	end, flags, bad := scanStr(p.data, k)
	if p.badString(end) {
		return p.stringError(end, bad)
	}
	p.pos = end
	p.key, p.keyEnd = int32(k), int32(end)
	p.keyFlags = 0
	if flags&FlagEscaped != 0 {
		p.keyFlags = FlagKeyEscaped
	}
	if (top.lazy || top.idx < 0) && !p.style.Unsorted {
		p.lazyKey(top, p.key, p.keyEnd, flags&FlagEscaped != 0)
	}
	// The colon, and the space after it, are where writers put them
	// (`"key": value`) far more often than not: looked for first.
	d, i := p.data, end
	if i+2 < len(d) && d[i] == ':' && d[i+1] == ' ' && d[i+2] > ' ' {
		p.pos = i + 2
		return nil
	}
	i = skipSpace(d, i)
	if i >= len(d) || d[i] != ':' {
		p.pos = i
		return p.unexpected("':' after an object key")
	}
	p.pos = skipSpace(d, i+1)
	return nil
}
