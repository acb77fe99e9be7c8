package draft04

import (
	"encoding/binary"
	"math/bits"
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
	words []keyWord // of each name of at most 16 bytes (see keyWords)
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
	p.words = make([]keyWord, len(p.names))
	for x, name := range p.names {
		if len(name) <= maxWordKey {
			a, b := keyWords([]byte(name))
			p.words[x] = keyWord{a, b}
		}
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
	if r.lo == r.hi {
		return -1 // no name of its length
	}
	if len(key) <= maxWordKey {
		a, b := keyWords(key)
		for x := int(r.lo); x < int(r.hi); x++ {
			if w := &p.words[x]; w.a == a && w.b == b {
				return x
			}
		}
		return -1
	}
	for x := int(r.lo); x < int(r.hi); x++ {
		if p.names[x] == string(key) {
			return x
		}
	}
	return -1
}

// A keyWord is what keyWords gives a name.
type keyWord struct{ a, b uint64 }

// maxWordKey is the longest key keyWords holds whole.
const maxWordKey = 16

// keyWords packs a key of at most 16 bytes into two words such that two
// keys of the same length are equal exactly when their words are: the
// first and the last 8 bytes (which overlap or meet, so cover every byte)
// for 8 to 16 bytes, the first and last 4 for 4 to 7, and the bytes at 0,
// n/2 and n-1 (every byte) for 1 to 3. Comparing them takes two word
// loads instead of a call to compare memory. (Two results rather than an
// array: an array is stored word by word and read back whole, which
// stalls the processor.)
func keyWords(b []byte) (uint64, uint64) {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
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
	objKey string
	// objKeyA and objKeyB are objKey's keyWords (when it has at most
	// maxWordKey bytes), worked out once.
	objKeyA, objKeyB uint64
	objEnums         []*node
	// byString lists, for each string in an objEnums enum, the branches
	// whose enum holds it: for a string member, the branches with an
	// enum that remain candidates (see stringDispatch).
	byString []stringBranches
	// onlyTypes of each branch: its type alone decides it.
	onlyTypes []bool
	// objEnumOnly of each branch: its objEnums schema, given a string,
	// checks only that the string is in its enum.
	objEnumOnly []bool
	// For choices of at most 64 branches (bit b: branch b; byClass nil
	// for more): byClass the branches whose type admits each class of
	// values, noEnum those with no objEnums schema, knownEnum those whose
	// objEnumOnly is set, onlyType those whose onlyTypes is. A set of
	// candidates is then worked out in a few operations (see matches).
	byClass                     []uint64
	noEnum, knownEnum, onlyType uint64
}

// stringBranches is a string and a set of branches (bit b: branch b),
// with the string's keyWords when it has at most maxWordKey bytes.
type stringBranches struct {
	s        string
	branches uint64
	a, b     uint64
}

// finish completes n and every node below it once references are
// resolved. A schema reached through a $ref is put in the reference's
// place (in draft-04 a $ref replaces its siblings, so the two are the same
// schema): validating then takes no step through references.
func finish(n *node, done map[*node]bool) {
	if n == nil || done[n] {
		return
	}
	done[n] = true
	derefAll(n)
	n.readsMembers = !n.props.none() || n.patProps != nil || n.addl != nil || n.addlFalse || n.required != nil
	n.readsStrings = n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil
	n.combines = n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.not != nil
	n.itemsStrings = n.items != nil && stringOnly(n.items)
	n.onlyTypes = n.types != 0 && n.refNode == nil && !n.trueSchema && onlyTypes(n)
	n.accepts = n.trueSchema || n.types == 0 && n.refNode == nil && onlyTypes(n)
	if len(n.props.names) > maxDispatchProps {
		n.reqIdx = nil
	} else {
		n.reqIdx = make([]int, len(n.required))
		n.reqIndexed = true
		for x, r := range n.required {
			n.reqIdx[x] = n.props.index([]byte(r))
			if y := n.reqIdx[x]; y >= 0 {
				n.reqMask |= 1 << y
			} else {
				n.reqIndexed = false
			}
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
		c.objKeyA, c.objKeyB = keyWords([]byte(c.objKey))
		c.byString = stringDispatch(c.objEnums)
		c.objEnumOnly = make([]bool, len(c.branches))
		for b, e := range c.objEnums {
			c.objEnumOnly[b] = e != nil && enumOnlyForStrings(e)
		}
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
	// (Flags of the schemas below are set now.)
	for _, c := range []*choice{n.oneOf, n.anyOf} {
		if c != nil {
			c.onlyTypes = make([]bool, len(c.branches))
			for b, s := range c.branches {
				c.onlyTypes[b] = s.onlyTypes
			}
			c.setMasks()
		}
	}
}

// derefAll puts in place of every schema below n that is a $ref the
// schema it leads to.
func derefAll(n *node) {
	for x, s := range n.props.nodes {
		n.props.nodes[x] = deref(s)
	}
	for k := range n.patProps {
		n.patProps[k].n = deref(n.patProps[k].n)
	}
	for _, list := range [][]*node{n.itemsList, n.allOf} {
		for x, s := range list {
			list[x] = deref(s)
		}
	}
	for _, c := range []*choice{n.oneOf, n.anyOf} {
		if c != nil {
			for x, s := range c.branches {
				c.branches[x] = deref(s)
			}
		}
	}
	for _, p := range []**node{&n.addl, &n.items, &n.not} {
		if *p != nil {
			*p = deref(*p)
		}
	}
}

// enumOnlyForStrings reports whether enum is the only keyword of n that
// checks a string: a string is valid against n exactly when it is in n's
// enum.
func enumOnlyForStrings(n *node) bool {
	return n.enum != nil && (n.types == 0 || n.types&tString != 0) && n.refNode == nil && !n.trueSchema &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil &&
		n.oneOf == nil && n.anyOf == nil && n.allOf == nil && n.not == nil
}

// onlyTypes reports whether "type" is the only keyword of n that checks
// anything: a value is valid against n exactly when it has one of n's
// types.
func onlyTypes(n *node) bool {
	return n.enum == nil && n.props.none() && n.patProps == nil && n.addl == nil &&
		!n.addlFalse && n.required == nil && n.items == nil && n.itemsList == nil && n.min == nil && n.max == nil &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.unique && n.oneOf == nil && n.anyOf == nil &&
		n.allOf == nil && n.not == nil
}

// stringDispatch returns, for each string some branch's enum for the
// discriminating member holds, the set of those branches (nil when there
// are too many branches for a bit set, or none has such an enum).
func stringDispatch(enums []*node) []stringBranches {
	if len(enums) > 64 {
		return nil
	}
	var out []stringBranches
	for b, e := range enums {
		if e == nil {
			continue
		}
		for _, x := range e.enum {
			s, ok := x.(string)
			if !ok {
				continue
			}
			found := false
			for k := range out {
				if out[k].s == s {
					out[k].branches |= 1 << b
					found = true
				}
			}
			if !found {
				e := stringBranches{s: s, branches: 1 << b}
				if len(s) <= maxWordKey {
					e.a, e.b = keyWords([]byte(s))
				}
				out = append(out, e)
			}
		}
	}
	return out
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
// absent or not looked up), and for which byString gave the branches
// strs (when k is a string: all else). A branch that cannot match is one
// whose type excludes the value, or one whose enum for the discriminating
// member excludes that member's value (the member is checked against the
// branch's property schema, which holds that enum, and fails).
func (v *validator) candidate(c *choice, b int, bits uint8, k int, strs uint64) bool {
	if v.exhaustive {
		return true
	}
	if ty := c.types[b]; ty != 0 && ty&bits == 0 {
		return false
	}
	if k >= 0 && c.objEnums[b] != nil {
		if b < 64 && strs&(1<<b) == 0 {
			return false // a string member: byString lists every branch whose enum holds it
		}
		if strs == allBranches && !v.inEnum(k, c.objEnums[b]) {
			return false
		}
	}
	return true
}

const allBranches = ^uint64(0)

// discriminant returns the member of object i that decides between the
// branches of c, or -1, and the branches whose enum for it holds its
// value when it is a string (allBranches otherwise).
func (v *validator) discriminant(c *choice, i int) (int, uint64) {
	t := v.t
	if c.objKey == "" || t.Nodes[i].Kind != jsontree.Object || t.Lazy(i) {
		return -1, allBranches // (a lazy object's branches are tried in full, as before)
	}
	k := v.lookupWords(i, c.objKey, c.objKeyA, c.objKeyB)
	if k < 0 || t.Nodes[k].Kind != jsontree.String || c.byString == nil {
		return k, allBranches
	}
	strs := uint64(0)
	if nd := &t.Nodes[k]; nd.Flags&jsontree.FlagEscaped == 0 && nd.End-nd.Start-2 <= maxWordKey {
		// Its text is its bytes: compare words.
		raw := t.Data[nd.Start+1 : nd.End-1]
		a, b := keyWords(raw)
		for x := range c.byString {
			if e := &c.byString[x]; len(e.s) == len(raw) && e.a == a && e.b == b {
				strs |= e.branches
			}
		}
		return k, strs
	}
	for _, e := range c.byString {
		if t.StrIs(k, e.s) {
			strs |= e.branches
		}
	}
	return k, strs
}

// lookup returns the member of object i (not lazy) with key, or -1; when a
// key occurs more than once the last occurrence wins (as t.Lookup).
func (v *validator) lookup(i int, key string) int {
	var wa, wb uint64
	if len(key) <= maxWordKey {
		wa, wb = keyWords([]byte(key))
	}
	return v.lookupWords(i, key, wa, wb)
}

// lookupWords is lookup given key's keyWords wa and wb (when it has at
// most maxWordKey bytes).
func (v *validator) lookupWords(i int, key string, wa, wb uint64) int {
	t := v.t
	found := -1
	j := i + 1
	short := len(key) <= maxWordKey
	for c := t.Nodes[i].Len; c > 0; c-- {
		nd := &t.Nodes[j]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			if t.KeyIs(j, key) {
				found = j
			}
		} else if int(nd.KeyEnd-nd.Key-2) == len(key) {
			kb := t.Data[nd.Key+1 : nd.KeyEnd-1]
			if short {
				if a, b := keyWords(kb); a == wa && b == wb {
					found = j
				}
			} else if string(kb) == key {
				found = j
			}
		}
		j = int(nd.Skip)
	}
	return found
}

// setMasks sets c's bit sets of branches (once its branches are
// finished).
func (c *choice) setMasks() {
	if len(c.branches) > 64 {
		return
	}
	c.byClass = make([]uint64, nClasses)
	for b := range c.branches {
		bit := uint64(1) << b
		for cl := range class(nClasses) {
			if ty := c.types[b]; ty == 0 || ty&classBits[cl] != 0 {
				c.byClass[cl] |= bit
			}
		}
		if c.objEnums == nil || c.objEnums[b] == nil {
			c.noEnum |= bit
		}
		if c.objEnumOnly[b] {
			c.knownEnum |= bit
		}
		if c.onlyTypes[b] {
			c.onlyType |= bit
		}
	}
}

// matches counts the branches of c node i is valid against, stopping at
// limit (0: counting them all).
func (v *validator) matches(c *choice, i int, limit int) int {
	cl := v.classOf(i)
	k, strs := v.discriminant(c, i)
	// Branches are tried quietly (see quietly, written out here: one frame
	// fewer per level of the recursion).
	report := v.report
	v.report = false
	var n int
	if c.byClass != nil && !v.exhaustive && (k < 0 || strs != allBranches) {
		n = v.matchSet(c, i, limit, k, strs, c.byClass[cl])
	} else {
		n = v.matchEach(c, i, limit, classBits[cl], k, strs)
	}
	v.report = report
	return n
}

// matchSet is matches by bit sets, when c has at most 64 branches and k
// is absent (-1) or a string member whose branches byString found
// (strs): the candidates are the branches whose type admits i (typed)
// and, when k is present, whose enum holds k's string or that have none,
// which is what candidate decides one by one.
func (v *validator) matchSet(c *choice, i, limit, k int, strs, typed uint64) int {
	cand, known := typed, uint64(0)
	if k >= 0 {
		cand &= strs | c.noEnum
		known = strs & c.knownEnum
	}
	n := 0
	for ; cand != 0; cand &= cand - 1 {
		b := bits.TrailingZeros64(cand)
		bit := uint64(1) << b
		if known&bit != 0 {
			// byString found k's string in the enum of the branch's
			// schema for it, which checks nothing else of a string.
			v.known, v.knownSchema = k, c.objEnums[b]
		}
		// A branch whose type alone decides it matches: its type
		// admits i.
		if c.onlyType&bit != 0 || v.check(c.branches[b], i) {
			if n++; n == limit {
				break
			}
		}
	}
	return n
}

// matchEach is matches trying the branches one by one (see candidate).
func (v *validator) matchEach(c *choice, i, limit int, bits uint8, k int, strs uint64) int {
	n := 0
	for b, s := range c.branches {
		if !v.candidate(c, b, bits, k, strs) {
			continue
		}
		if k >= 0 && b < 64 && strs&(1<<b) != 0 && strs != allBranches && c.objEnumOnly[b] && !v.exhaustive {
			// byString found k's string in the enum of the branch's
			// schema for it, which checks nothing else of a string.
			v.known, v.knownSchema = k, c.objEnums[b]
		}
		// A branch whose type alone decides it matches: candidate
		// checked the type.
		if c.onlyTypes[b] && !v.exhaustive || v.check(s, i) {
			if n++; n == limit {
				break
			}
		}
	}
	return n
}
