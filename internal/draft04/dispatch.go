package draft04

import (
	"sort"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// What compiling adds so that validating a typical notebook does little
// more than visit its values: properties found without hashing, required
// members checked off by property index, and oneOf/anyOf branches that
// cannot match skipped before they are tried. Every shortcut is exact: it
// skips only work whose outcome is already known, so verdicts, problems
// and messages are those of trying everything.

// A propTable holds the schemas of a "properties" keyword, found by name
// without hashing: names are sorted by length, then bytes, and byLen[l]
// is the range of the names of l bytes, so a lookup compares the key with
// the one or two names of its length.
type propTable struct {
	names []string // nil: no "properties" keyword
	nodes []*node
	byLen []propRange
}

type propRange struct{ lo, hi uint16 }

func newPropTable(m map[string]*node) propTable {
	p := propTable{names: make([]string, 0, len(m)), nodes: make([]*node, 0, len(m))}
	for name := range m {
		p.names = append(p.names, name)
	}
	sort.Slice(p.names, func(a, b int) bool {
		x, y := p.names[a], p.names[b]
		if len(x) != len(y) {
			return len(x) < len(y)
		}
		return x < y
	})
	maxLen := 0
	for _, name := range p.names {
		p.nodes = append(p.nodes, m[name])
		maxLen = max(maxLen, len(name))
	}
	if len(m) > 0 {
		p.byLen = make([]propRange, maxLen+1)
	}
	for x, name := range p.names {
		r := &p.byLen[len(name)]
		if r.hi == 0 {
			r.lo = uint16(x)
		}
		r.hi = uint16(x + 1)
	}
	return p
}

// none reports whether there was no "properties" keyword.
func (p *propTable) none() bool { return p.names == nil }

// index returns the index of property key, or -1.
func (p *propTable) index(key []byte) int {
	if len(key) >= len(p.byLen) {
		return -1
	}
	r := p.byLen[len(key)]
	for x := int(r.lo); x < int(r.hi); x++ {
		if p.names[x] == string(key) {
			return x
		}
	}
	return -1
}

// lookup returns the schema of property name, or nil.
func (p *propTable) lookup(name string) *node {
	if x := p.index([]byte(name)); x >= 0 {
		return p.nodes[x]
	}
	return nil
}

// maxDispatchProps is the most properties whose presence a uint64 bit set
// can track; objects of schemas with more take the general path.
const maxDispatchProps = 64

// A choice is the list of schemas of a oneOf or anyOf, with what decides
// quickly that a branch cannot match a value.
type choice struct {
	branches []*node
	// types of each branch (after references): a value of another type
	// fails the branch's "type" keyword (0: any type).
	types []uint8
	// key is a member every branch constrains, at least two of them with
	// an enum (cell_type, output_type), and enums each branch's schema
	// for it that has an enum (nil: constrained otherwise, as
	// unrecognized_cell's "not" does): what explains a failure.
	key   string
	enums []*node
	// objKey and objEnums are the same among the branches that may hold
	// an object (others fail an object by their type): an object whose
	// objKey member is outside a branch's enum fails that branch.
	objKey   string
	objEnums []*node
}

// finish completes n and every node below it once references are
// resolved.
func finish(n *node, done map[*node]bool) {
	if n == nil || done[n] {
		return
	}
	done[n] = true
	n.readsMembers = !n.props.none() || n.patProps != nil || n.addl != nil || n.addlFalse || n.required != nil
	n.combines = n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.not != nil
	if len(n.props.names) > maxDispatchProps {
		n.reqIdx = nil
	} else {
		n.reqIdx = make([]int, len(n.required))
		for x, r := range n.required {
			n.reqIdx[x] = n.props.index([]byte(r))
		}
	}
	for _, c := range []*choice{n.oneOf, n.anyOf} {
		if c == nil {
			continue
		}
		c.types = make([]uint8, len(c.branches))
		for b, s := range c.branches {
			c.types[b] = deref(s).types
		}
		c.key, c.enums = discriminator(c.branches, nil)
		c.objKey, c.objEnums = discriminator(c.branches, c.types)
	}
	for _, s := range n.props.nodes {
		finish(s, done)
	}
	for _, pp := range n.patProps {
		finish(pp.n, done)
	}
	for _, s := range n.itemsList {
		finish(s, done)
	}
	for _, s := range n.allOf {
		finish(s, done)
	}
	for _, c := range []*choice{n.oneOf, n.anyOf} {
		if c != nil {
			for _, s := range c.branches {
				finish(s, done)
			}
		}
	}
	finish(n.addl, done)
	finish(n.items, done)
	finish(n.not, done)
	finish(n.refNode, done)
}

func deref(s *node) *node {
	for s.refNode != nil {
		s = s.refNode
	}
	return s
}

// discriminator finds a property that every branch constrains with an enum
// (directly or through a $ref); it returns the property and each branch's
// schema for it with the enum (nil for branches that constrain it
// otherwise, such as unrecognized_cell's "not"). Given the branches'
// types, it looks only at the branches that may hold an object.
func discriminator(branches []*node, types []uint8) (string, []*node) {
	objects := func(b int) bool { return types == nil || types[b] == 0 || types[b]&tObject != 0 }
	first := -1
	for b := range branches {
		if objects(b) {
			first = b
			break
		}
	}
	if first < 0 {
		return "", nil
	}
	keys := append([]string(nil), deref(branches[first]).props.names...)
	sort.Strings(keys)
	for _, key := range keys {
		enums := make([]*node, len(branches))
		found := 0
		for b, s := range branches {
			if !objects(b) {
				continue
			}
			ps := deref(s).props.lookup(key)
			if ps == nil {
				found = -1
				break
			}
			if ps = deref(ps); ps.enum != nil {
				enums[b] = ps
				found++
			}
		}
		if found >= 2 {
			return key, enums
		}
	}
	return "", nil
}

// candidate reports whether branch b of c may match node i, whose type
// bits are bits and whose member c.objKey (for an object) is node k (-1 when
// absent or not looked up). A branch that cannot match is one whose type
// excludes the value, or one whose enum for the discriminating member
// excludes that member's value (the member is checked against the
// branch's property schema, which holds that enum, and fails).
func (v *validator) candidate(c *choice, b int, bits uint8, k int) bool {
	if v.exhaustive {
		return true
	}
	if ty := c.types[b]; ty != 0 && ty&bits == 0 {
		return false
	}
	if k >= 0 && c.objEnums[b] != nil && !v.inEnum(k, c.objEnums[b]) {
		return false
	}
	return true
}

// discriminant returns the member of object i that decides between the
// branches of c, or -1.
func (v *validator) discriminant(c *choice, i int) int {
	if c.objKey == "" || v.t.Nodes[i].Kind != jsontree.Object || v.t.Lazy(i) {
		return -1 // (a lazy object's branches are tried in full, as before)
	}
	return v.t.Lookup(i, c.objKey)
}

// matches counts the branches of c node i is valid against, stopping at
// limit (0: counting them all).
func (v *validator) matches(c *choice, i int, limit int) int {
	bits := v.kindBits(i)
	k := v.discriminant(c, i)
	n := 0
	for b, s := range c.branches {
		if v.candidate(c, b, bits, k) && v.quietly(s, i) {
			if n++; n == limit {
				break
			}
		}
	}
	return n
}
