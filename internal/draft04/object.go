package draft04

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Checks of objects' members: required, properties, patternProperties and
// additionalProperties.
//
// A key may occur more than once; Python's json keeps the last occurrence,
// so only that one is checked. The usual object has no repeated key: one
// pass over its members finds each key's property by index, checks the
// member, and tells so, noting which properties are present (for
// "required"). Should a key that matters repeat, what the pass reported is
// undone and the general path, which keeps the last occurrence of each
// key, serves the object.

// maxPairwise is the most members without a property that the quick pass
// compares with each other for repeats (where their repetition matters);
// objects with more take the general path.
const maxPairwise = 32

// general checks object i against n through its members, the last
// occurrence of each key.
func (v *validator) general(n *node, i int) bool {
	return v.checkMemberList(n, i, v.lastMembers(i))
}

// keyBytes returns the key of member j as written (for unescaped keys,
// its exact text).
func keyBytes(t *jsontree.Tape, j int) ([]byte, bool) {
	n := &t.Nodes[j]
	if n.Flags&jsontree.FlagKeyEscaped != 0 {
		return nil, false
	}
	return t.Data[n.Key+1 : n.KeyEnd-1], true
}

// key returns the decoded key of member j: its bytes in the document, or,
// when it has escapes, its decoding appended to buf.
func (v *validator) key(j int, buf []byte) []byte {
	if kb, plain := keyBytes(v.t, j); plain {
		return kb
	}
	n := &v.t.Nodes[j]
	return jsontree.AppendUnescaped(buf, v.t.Data[n.Key+1:n.KeyEnd-1])
}

// keysEqual reports whether members a and b have the same decoded key.
func (v *validator) keysEqual(a, b int) bool {
	ka, pa := keyBytes(v.t, a)
	kb, pb := keyBytes(v.t, b)
	if pa && pb {
		return string(ka) == string(kb)
	}
	var buf [64]byte
	return v.t.KeyIs(b, string(v.key(a, buf[:0])))
}

// onePass checks object i against n in one pass over its members, each
// checked as its key's property is found. When the object needs the
// general path (a key that n checks occurs twice, or i has too many
// members without a property to compare for that), it undoes what it
// reported and takes it. (Not reporting, it stops checking at the first
// problem but goes on looking for such keys: a later occurrence could make
// the object valid.)
func (v *validator) onePass(n *node, i int) bool {
	t := v.t
	mark := len(v.problems)
	// Members without a property are checked (so their repetition
	// matters) only under these keywords.
	others := n.patProps != nil || n.addl != nil || n.addlFalse
	unmatched := 0
	var seen uint64
	ok := true
	// The tape's slices are held here, and each member's node read once:
	// the checks called below could change t for all the compiler knows,
	// which made it load them again at every use.
	nodes, data := t.Nodes, t.Data
	j, next := t.FirstChild(i), 0
	for c := nodes[i].Len; c > 0; c, j = c-1, next {
		nd := &nodes[j]
		next = int(nd.Skip)
		var key []byte
		if nd.Flags&jsontree.FlagKeyEscaped == 0 {
			key = data[nd.Key+1 : nd.KeyEnd-1]
		} else {
			key = v.key(j, nil) // (a buffer here would escape through Match)
		}
		x := n.props.index(key)
		if x >= 0 {
			if seen&(1<<x) != 0 {
				v.problems = v.problems[:mark]
				return v.general(n, i)
			}
			seen |= 1 << x
		} else if others {
			if unmatched++; unmatched > maxPairwise || v.keyBefore(i, j) {
				v.problems = v.problems[:mark]
				return v.general(n, i)
			}
		}
		if !ok && !v.report {
			continue
		}
		if x >= 0 && n.patProps == nil {
			// The member's property alone applies; a member whose class
			// its schema accepts whole needs no call (see check).
			if ps := n.props.nodes[x]; ps.verdicts[classTable[nd.Kind&7][nd.Flags]] != yes && (j != v.known || ps != v.knownSchema) && !v.check(ps, j) {
				ok = false
			}
			continue
		}
		if !v.member(n, j, x, key) {
			ok = false
		}
	}
	if !ok && !v.report {
		return false
	}
	// "required" (its problems, at node i, sort before those of the
	// members): at once when every name has a property and the object
	// has them all, else name by name.
	if n.reqIndexed && seen&n.reqMask == n.reqMask {
		return ok
	}
	return v.required(n, i, seen, ok)
}

// keyBefore reports whether a member of object i before member j has j's
// key (out of line, as required is: onePass's frame is on the stack at
// every level of the document).
//
//go:noinline
func (v *validator) keyBefore(i, j int) bool {
	t := v.t
	for e := t.FirstChild(i); e != j; e = t.Next(e) {
		if v.keysEqual(e, j) {
			return true
		}
	}
	return false
}

// required is onePass's check of "required" by name (seen: the members
// found, by property index), given the members' verdict ok.
//
//go:noinline
func (v *validator) required(n *node, i int, seen uint64, ok bool) bool {
	for x, r := range n.required {
		found := false
		if y := n.reqIdx[x]; y >= 0 {
			found = seen&(1<<y) != 0
		} else {
			found = v.lookup(i, r) >= 0
		}
		if !found {
			v.missing(i, r)
			if ok = false; !v.report {
				return false
			}
		}
	}
	return ok
}

// checkMemberList checks object i through its members kids, the last
// occurrence of each key.
func (v *validator) checkMemberList(n *node, i int, kids []int) bool {
	t := v.t
	ok := true
	for _, r := range n.required {
		found := false
		for _, j := range kids {
			if t.KeyIs(j, r) {
				found = true
				break
			}
		}
		if !found {
			v.missing(i, r)
			if ok = false; !v.report {
				return false
			}
		}
	}
	for _, k := range kids {
		if !v.member(n, k, -2, v.key(k, nil)) {
			if ok = false; !v.report {
				return false
			}
		}
	}
	return ok
}

// member checks member k, whose decoded key is key, against n's
// properties, patternProperties and additionalProperties, given the index
// x of its property (-1: none; -2: not looked up yet).
func (v *validator) member(n *node, k int, x int, key []byte) bool {
	if x == -2 {
		x = n.props.index(key)
	}
	ok := true
	matched := false
	if x >= 0 {
		matched = true
		if s := n.props.nodes[x]; (k != v.known || s != v.knownSchema) && !v.check(s, k) {
			if ok = false; !v.report {
				return false
			}
		}
	}
	for _, pp := range n.patProps {
		if pp.re.Match(key) {
			matched = true
			if !v.check(pp.n, k) {
				if ok = false; !v.report {
					return false
				}
			}
		}
	}
	switch {
	case matched:
	case n.addlFalse:
		t := v.t
		v.fail(k, "additionalProperties", func() string { return fmt.Sprintf("property %q is not allowed here", t.KeyString(k)) })
		ok = false
	case n.addl != nil:
		ok = v.check(n.addl, k) && ok
	}
	return ok
}

// lastMembers returns the members of object i, keeping of a key that
// occurs more than once only its last occurrence (as Python does).
func (v *validator) lastMembers(i int) []int {
	t := v.t
	kids := t.ChildList(i)
	last := make(map[string]int, len(kids))
	for x, j := range kids {
		last[t.KeyString(j)] = x
	}
	if len(last) == len(kids) {
		return kids
	}
	out := kids[:0:0]
	for x, j := range kids {
		if last[t.KeyString(j)] == x {
			out = append(out, j)
		}
	}
	return out
}
