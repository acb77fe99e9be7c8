package draft04

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Checks of objects and arrays, and the explanation of oneOf/anyOf failures.

func (v *validator) number(i int) float64 {
	f, err := strconv.ParseFloat(string(v.t.Raw(i)), 64)
	if err != nil {
		switch string(v.t.Raw(i)) {
		case "NaN":
			return math.NaN()
		case "-Infinity":
			return math.Inf(-1)
		case "Infinity":
			return math.Inf(1)
		}
	}
	return f
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

// members returns the members of object i to check: all of them, or, when
// a key occurs more than once, only its last occurrence (as Python keeps).
func (v *validator) members(i int) []int {
	t := v.t
	kids := make([]int, 0, t.Nodes[i].Len)
	t.Children(i, func(j int) bool {
		kids = append(kids, j)
		return true
	})
	dup := false
	escaped := false
	for _, j := range kids {
		if t.Nodes[j].Flags&jsontree.FlagKeyEscaped != 0 {
			escaped = true
		}
	}
	if !escaped && len(kids) <= 32 {
		for a := 0; a < len(kids) && !dup; a++ {
			ka, _ := keyBytes(t, kids[a])
			for b := a + 1; b < len(kids); b++ {
				if kb, _ := keyBytes(t, kids[b]); string(ka) == string(kb) {
					dup = true
					break
				}
			}
		}
		if !dup {
			return kids
		}
	}
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

func (v *validator) object(n *node, i int) bool {
	t := v.t
	if t.Lazy(i) && n.props == nil && n.patProps == nil && n.addl == nil && !n.addlFalse && n.required == nil {
		return true // nothing to check inside: a lazy node need not be expanded
	}
	ok := true
	kids := v.members(i)
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
			ok = false
			if !v.report {
				return false
			}
		}
	}
	for _, k := range kids {
		var s *node
		var has bool
		var key string
		if kb, plain := keyBytes(t, k); plain {
			s, has = n.props[string(kb)]
		} else {
			key = t.KeyString(k)
			s, has = n.props[key]
		}
		matched := false
		if has {
			matched = true
			if !v.check(s, k) {
				ok = false
				if !v.report {
					return false
				}
			}
		}
		if len(n.patProps) > 0 {
			if key == "" {
				key = t.KeyString(k)
			}
			for _, pp := range n.patProps {
				if pp.re.MatchString(key) {
					matched = true
					if !v.check(pp.n, k) {
						ok = false
						if !v.report {
							return false
						}
					}
				}
			}
		}
		if matched {
			continue
		}
		if n.addlFalse {
			v.fail(k, "additionalProperties", func() string { return fmt.Sprintf("property %q is not allowed here", t.KeyString(k)) })
			ok = false
			if !v.report {
				return false
			}
		} else if n.addl != nil && !v.check(n.addl, k) {
			ok = false
			if !v.report {
				return false
			}
		}
	}
	return ok
}

// stringOnly reports whether schema n accepts exactly the strings.
func stringOnly(n *node) bool {
	for n.refNode != nil {
		n = n.refNode
	}
	return n.types == tString && n.enum == nil && n.props == nil && n.patProps == nil && n.addl == nil &&
		!n.addlFalse && n.required == nil && n.items == nil && n.itemsList == nil && n.min == nil && n.max == nil &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.unique && n.oneOf == nil && n.anyOf == nil &&
		n.allOf == nil && n.not == nil
}

func (v *validator) array(n *node, i int) bool {
	t := v.t
	if t.Lazy(i) && n.items == nil && n.itemsList == nil && !n.unique {
		return true // nothing to check inside: a lazy node need not be expanded
	}
	if t.Lazy(i) && n.itemsList == nil && !n.unique && (n.items.trueSchema || stringOnly(n.items) && t.Nodes[i].Flags&jsontree.FlagStrings != 0) {
		return true // a lazy array of strings (lines of text): every item fits
	}
	ok := true
	x := 0
	t.Children(i, func(k int) bool {
		var s *node
		switch {
		case n.items != nil:
			s = n.items
		case x < len(n.itemsList):
			s = n.itemsList[x]
		}
		x++
		if s != nil && !v.check(s, k) {
			ok = false
			return v.report
		}
		return true
	})
	if !ok && !v.report {
		return false
	}
	if n.unique && t.Nodes[i].Len > 1 {
		seen := make(map[string]int, t.Nodes[i].Len)
		x := 0
		t.Children(i, func(k int) bool {
			key := canonicalKey(t, k)
			if y, dup := seen[key]; dup {
				xx := x
				v.fail(k, "uniqueItems", func() string { return fmt.Sprintf("item %d equals item %d", xx, y) })
				ok = false
				if !v.report {
					return false
				}
			} else {
				seen[key] = x
			}
			x++
			return true
		})
	}
	return ok
}

// explain reports why no branch of a oneOf/anyOf matched node i, through
// the branch the value was meant for.
func (v *validator) explain(branches []*node, i int, keyword string) {
	t := v.t
	if !v.report {
		return
	}
	if t.Nodes[i].Kind == jsontree.Object {
		// A discriminating property: one that the branches constrain with
		// an enum (cell_type, output_type).
		if key, enums := discriminator(branches); key != "" {
			k := t.Lookup(i, key)
			if k < 0 {
				v.missing(i, key)
				return
			}
			for b, e := range enums {
				if e != nil && v.inEnum(k, e) {
					_, probs := v.sub(branches[b], i, true)
					v.absorb(probs, i, keyword)
					return
				}
			}
			// A branch that takes the other values (unrecognized_cell).
			for b, e := range enums {
				if e == nil {
					_, probs := v.sub(branches[b], i, true)
					v.absorb(probs, i, keyword)
					return
				}
			}
			var all []any
			for _, e := range enums {
				all = append(all, e...)
			}
			v.fail(k, "enum", func() string { return short(t.Raw(k)) + " is not one of " + enumList(all) })
			return
		}
	}
	// Otherwise the branch of the value's type, if exactly one has it.
	bits := v.kindBits(i)
	var cands []int
	var types uint8
	for b, s := range branches {
		s = deref(s)
		types |= s.types
		if s.types == 0 || s.types&bits != 0 {
			cands = append(cands, b)
		}
	}
	if len(cands) == 1 {
		_, probs := v.sub(branches[cands[0]], i, true)
		v.absorb(probs, i, keyword)
		return
	}
	if len(cands) == 0 && types != 0 {
		v.fail(i, "type", func() string { return "is " + v.kindName(i) + ", expected " + typeNames(types) })
		return
	}
	v.fail(i, keyword, func() string { return short(t.Raw(i)) + " matches none of the allowed schemas" })
}

// absorb adds a branch's problems (there is at least one: the branch
// failed).
func (v *validator) absorb(probs []Problem, i int, keyword string) {
	if len(probs) == 0 {
		v.fail(i, keyword, func() string { return "matches none of the allowed schemas" })
		return
	}
	v.problems = append(v.problems, probs...)
}

func deref(s *node) *node {
	for s.refNode != nil {
		s = s.refNode
	}
	return s
}

// discriminator finds a property that every branch constrains with an enum
// (directly or through a $ref); it returns the property and each branch's
// enum (nil for branches that constrain it otherwise, such as
// unrecognized_cell's "not").
func discriminator(branches []*node) (string, [][]any) {
	first := deref(branches[0])
	keys := make([]string, 0, len(first.props))
	for key := range first.props {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		enums := make([][]any, len(branches))
		found := 0
		for b, s := range branches {
			s = deref(s)
			ps, has := s.props[key]
			if !has {
				found = -1
				break
			}
			ps = deref(ps)
			if ps.enum != nil {
				enums[b] = ps.enum
				found++
			}
		}
		if found >= 2 {
			return key, enums
		}
	}
	return "", nil
}
