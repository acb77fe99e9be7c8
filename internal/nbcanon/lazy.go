// Writing a lazy value (one with no nodes inside) from its bytes, token by
// token, by json.dumps's rules.
package nbcanon

import (
	"bytes"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// maxLazyObjects is how many objects deep, inside a lazy value, lazy
// writes: an object's members are found by scanning their bytes, so each
// byte is scanned once per object enclosing it in the value. Deeper, the
// writer asks for a full parse (a *jsontree.LazyError).
const maxLazyObjects = 32

// A lazyMember is a member of an object of a lazy value: its decoded key
// (of the tape's data when it has no escapes) and its value.
type lazyMember struct {
	key []byte
	val jsontree.Node
}

// lazy writes value n, inside lazy node j (or j itself), from its bytes by
// the plain rules, as value writes a node, and returns the offset just
// past it. The members of the objects open are held in w.lazyMembers, a
// slice per depth, reused: memory follows the widest object and the
// depth, not the number of values.
func (w *canon) lazy(j int, n jsontree.Node, ind string, objects int) int {
	t := w.t
	switch n.Kind {
	case jsontree.Array:
		inner := ind + " "
		pos, count := int(n.End), 0
		for {
			c, ok := t.NextChild(pos, false)
			if !ok {
				pos = int(c.End)
				break
			}
			w.item(count == 0, inner)
			pos = w.lazy(j, c, inner, objects)
			count++
		}
		if count == 0 {
			w.buf = append(w.buf, "[]"...)
			return pos
		}
		w.buf = append(w.buf, '\n')
		w.buf = append(w.buf, ind...)
		w.buf = append(w.buf, ']')
		return pos
	case jsontree.Object:
		if objects >= maxLazyObjects {
			panic(&jsontree.LazyError{Node: j})
		}
		for len(w.lazyMembers) <= objects {
			w.lazyMembers = append(w.lazyMembers, nil)
		}
		ms := w.lazyMembers[objects][:0]
		pos := int(n.End)
		for {
			c, ok := t.NextChild(pos, true)
			if !ok {
				pos = int(c.End)
				break
			}
			key := t.Data[c.Key+1 : c.KeyEnd-1]
			if c.Flags&jsontree.FlagKeyEscaped != 0 {
				key = jsontree.AppendUnescaped(nil, key)
			}
			ms = append(ms, lazyMember{key, c})
			pos = t.ValueEnd(c)
		}
		// Python's order (code points: the bytes' order, surrogates'
		// WTF-8 included), the last of equal keys winning.
		slices.SortStableFunc(ms, func(a, b lazyMember) int { return bytes.Compare(a.key, b.key) })
		k := 0
		for i := range ms {
			if i+1 < len(ms) && bytes.Equal(ms[i].key, ms[i+1].key) {
				continue
			}
			ms[k] = ms[i]
			k++
		}
		ms = ms[:k]
		w.lazyMembers[objects] = ms
		w.container('{', '}', len(ms), func(i int, inner string) {
			w.str(zerocopy.String(ms[i].key))
			w.buf = append(w.buf, ": "...)
			w.lazy(j, ms[i].val, inner, objects+1)
		}, ind)
		return pos
	}
	w.scalar(&n)
	return int(n.End)
}
