package jsontree

// Reading the values inside a lazy node from their bytes, token by token,
// without nodes: for writers that visit every value (package nbcanon's)
// and keep no more than one container's children at a time.

import "bytes"

// ValueAt returns the node of the value at offset pos of t.Data, which
// must be the first byte of a value of the tape (inside a lazy node or
// not): Start, Kind and Flags, and for a scalar its End. A container's End
// is just past its opening bracket (see [Tape.ValueEnd]); Len is not
// counted, and Key is -1.
func (t *Tape) ValueAt(pos int) Node {
	d := t.Data
	n := Node{Start: int32(pos), End: int32(pos + 1), Key: -1, KeyEnd: -1, Skip: -1}
	switch c := d[pos]; {
	case c == '{':
		n.Kind = Object
	case c == '[':
		n.Kind = Array
	case c == '"':
		end, flags, _ := scanStr(d, pos)
		n.Kind, n.Flags, n.End = String, flags&^flagUEscape, int32(end)
	default:
		end := pos
		for end < len(d) && !scalarStop(d[end]) {
			end++
		}
		n.Kind, n.Flags = scalarKind(d[pos:end])
		n.End = int32(end)
	}
	return n
}

// scalarStop reports whether c ends a number or literal token.
func scalarStop(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\n', '\r', '\t':
		return true
	}
	return false
}

// NextChild reads what follows pos in a container of t.Data: pos is just
// past the container's opening bracket or just past one of its children's
// values, object telling the container's kind. It returns the next child's node (as ValueAt; a member's with
// Key, KeyEnd and FlagKeyEscaped set) and true, or, after the last child,
// the offset just past the closing bracket in End and false.
func (t *Tape) NextChild(pos int, object bool) (Node, bool) {
	d := t.Data
	pos = skipWS(d, pos)
	if d[pos] == ',' {
		pos = skipWS(d, pos+1)
	}
	if c := d[pos]; c == ']' || c == '}' {
		return Node{End: int32(pos + 1)}, false
	}
	if !object {
		return t.ValueAt(pos), true
	}
	key := pos
	keyEnd := stringEnd(d, pos)
	v := skipWS(d, keyEnd)
	v = skipWS(d, v+1) // past the colon
	n := t.ValueAt(v)
	n.Key, n.KeyEnd = int32(key), int32(keyEnd)
	if bytes.IndexByte(d[key+1:keyEnd-1], '\\') >= 0 {
		n.Flags |= FlagKeyEscaped
	}
	return n, true
}

// ValueEnd returns the offset just past value n (of ValueAt or NextChild):
// for a container, past its closing bracket, found by scanning its bytes.
func (t *Tape) ValueEnd(n Node) int {
	end, _ := t.container(n)
	return end
}

// Nesting returns how deep containers nest in value n (of ValueAt,
// NextChild or the tape): 0 for a scalar, 1 for a container holding none.
func (t *Tape) Nesting(n Node) int {
	_, deepest := t.container(n)
	return deepest
}

// container returns the offset past value n and how deep containers nest
// in it.
func (t *Tape) container(n Node) (end, deepest int) {
	if n.Kind != Object && n.Kind != Array {
		return int(n.End), 0
	}
	d := t.Data
	depth := 0
	for i := int(n.Start); i < len(d); i++ {
		switch d[i] {
		case '"':
			i, _, _ = scanStr(d, i)
			i--
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, deepest
			}
		}
	}
	return len(d), deepest
}
