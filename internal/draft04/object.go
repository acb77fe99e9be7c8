package draft04

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Checks of objects' members: required, properties, patternProperties and
// additionalProperties.
//
// A key may occur more than once; Python's json keeps the last occurrence,
// so only that one is checked. The usual object has no repeated key, and
// one pass over its members, finding each key's property by index, tells
// so while noting which properties are present (for "required"); the
// general path, which keeps the last occurrence of each key, serves the
// rest.

// maxPairwise is the most members without a property that the quick pass
// compares with each other for repeats (where their repetition matters);
// objects with more take the general path.
const maxPairwise = 32

// object checks the members of object i against n.
func (v *validator) object(n *node, i int) bool {
	if !n.readsMembers {
		return true // nothing to check inside (a lazy node need not be expanded)
	}
	var props memberProps
	if seen, ok := v.scanMembers(n, i, &props); ok && !v.exhaustive {
		return v.checkMembers(n, i, seen, &props)
	}
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

// memberProps notes the property index (or -1) of an object's first
// members, so that checking them need not look their keys up again.
type memberProps [16]int8

// scanMembers returns the set of n's properties (by index) that object i
// has, and notes them in props. It reports false when the object needs
// the general path: a key that n checks occurs twice, or n has too many
// properties (or i too many other members) to track this way.
func (v *validator) scanMembers(n *node, i int, props *memberProps) (seen uint64, ok bool) {
	t := v.t
	if len(n.props.names) > maxDispatchProps {
		return 0, false
	}
	// Members without a property are checked (so their repetition
	// matters) only under these keywords.
	others := n.patProps != nil || n.addl != nil || n.addlFalse
	unmatched := 0
	var buf [64]byte
	j := t.FirstChild(i)
	for c := int32(0); c < t.Nodes[i].Len; c, j = c+1, t.Next(j) {
		x := n.props.index(v.key(j, buf[:0]))
		if c < int32(len(props)) {
			props[c] = int8(x)
		}
		if x >= 0 {
			if seen&(1<<x) != 0 {
				return 0, false
			}
			seen |= 1 << x
			continue
		}
		if !others {
			continue
		}
		if unmatched++; unmatched > maxPairwise {
			return 0, false
		}
		for e := t.FirstChild(i); e != j; e = t.Next(e) {
			if v.keysEqual(e, j) {
				return 0, false
			}
		}
	}
	return seen, true
}

// checkMembers checks object i, whose keys are all distinct (or repeated
// only where nothing checks them), which has the properties seen, and
// whose first members have the properties props.
func (v *validator) checkMembers(n *node, i int, seen uint64, props *memberProps) bool {
	t := v.t
	ok := true
	for x, r := range n.required {
		found := false
		if y := n.reqIdx[x]; y >= 0 {
			found = seen&(1<<y) != 0
		} else {
			found = t.Lookup(i, r) >= 0
		}
		if !found {
			v.missing(i, r)
			if ok = false; !v.report {
				return false
			}
		}
	}
	j := t.FirstChild(i)
	for c := int32(0); c < t.Nodes[i].Len; c, j = c+1, t.Next(j) {
		x := -2
		if c < int32(len(props)) {
			x = int(props[c])
		}
		if !v.member(n, j, x) {
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
		if !v.member(n, k, -2) {
			if ok = false; !v.report {
				return false
			}
		}
	}
	return ok
}

// member checks member k against n's properties, patternProperties and
// additionalProperties, given the index x of its property (-1: none; -2:
// not looked up yet).
func (v *validator) member(n *node, k int, x int) bool {
	var key []byte
	if x == -2 || n.patProps != nil {
		key = v.key(k, nil) // (a buffer here would escape through Match)
	}
	if x == -2 {
		x = n.props.index(key)
	}
	ok := true
	matched := false
	if x >= 0 {
		matched = true
		if !v.check(n.props.nodes[x], k) {
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
