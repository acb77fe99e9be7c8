// The values inside a lazy node, walked from their bytes for
// pythonFailure's checks (eachInside).
package nbcanon

import (
	"bytes"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// An inside is a container open in a walk of a lazy node (eachInside):
// its kind, where its bytes go on, and its child being visited (the
// index, and the key in an object).
type inside struct {
	object bool
	pos    int
	index  int
	child  jsontree.Node
}

// eachInside calls f, in document order, with each value inside lazy node
// i (not i itself: a container, as ValueAt gives it, with Len 0 when it
// is empty and 1 otherwise, or a scalar) and the containers enclosing it
// inside the walk, i first, until f returns false.
func eachInside(t *jsontree.Tape, i int, f func(n *jsontree.Node, open []inside) bool) {
	root := t.ValueAt(int(t.Nodes[i].Start))
	open := []inside{{object: root.Kind == jsontree.Object, pos: int(root.End), index: -1}}
	var c jsontree.Node
	for len(open) > 0 {
		top := &open[len(open)-1]
		var ok bool
		c, ok = t.NextChild(top.pos, top.object)
		if !ok {
			open = open[:len(open)-1]
			if len(open) > 0 {
				open[len(open)-1].pos = int(c.End)
			}
			continue
		}
		top.index++
		top.child = c
		container := c.Kind == jsontree.Object || c.Kind == jsontree.Array
		if container && !emptyAt(t.Data, int(c.End)) {
			c.Len = 1
		}
		if !f(&c, open) {
			return
		}
		if container {
			open = append(open, inside{object: c.Kind == jsontree.Object, pos: int(c.End), index: -1})
		} else {
			top.pos = int(c.End)
		}
	}
}

// insidePointer is the pointer of lazy node i's value whose enclosing
// containers are open.
func insidePointer(t *jsontree.Tape, i int, open []inside) string {
	p := pointerOf(t, i)
	for _, o := range open {
		if o.object {
			c := o.child
			raw := t.Data[c.Key+1 : c.KeyEnd-1]
			if c.Flags&jsontree.FlagKeyEscaped != 0 {
				raw = jsontree.AppendUnescaped(nil, raw)
			}
			p = jsonpointer.AppendToken(p, string(raw))
		} else {
			p = jsonpointer.AppendIndex(p, o.index)
		}
	}
	return p
}

// emptyAt reports whether the container whose opening bracket is just
// before pos closes at once.
func emptyAt(d []byte, pos int) bool {
	for pos < len(d) && (d[pos] == ' ' || d[pos] == '\n' || d[pos] == '\r' || d[pos] == '\t') {
		pos++
	}
	return pos < len(d) && (d[pos] == ']' || d[pos] == '}')
}

// mayHoldBigInt reports whether raw holds a run of more digits than
// Python reads as an integer: only then is a lazy value walked for one.
func mayHoldBigInt(raw []byte) bool {
	run := 0
	for _, c := range raw {
		if c >= '0' && c <= '9' {
			run++
			if run > pyMaxIntDigits {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// maySurrogate reports whether raw holds a \u escape of a UTF-16
// surrogate (\uD800 to \uDFFF): only then is a lazy value walked for a
// lone one.
func maySurrogate(raw []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(raw[i:], '\\')
		if k < 0 {
			return false
		}
		i += k
		if i+2 < len(raw) && raw[i+1] == 'u' && raw[i+2]|0x20 == 'd' {
			return true
		}
		i++ // (an escaped backslash is not an escape's start)
	}
}
