package draft04

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Checks of arrays: items (one schema or a list) and uniqueItems.

// stringOnly reports whether schema n accepts exactly the strings.
func stringOnly(n *node) bool {
	n = deref(n)
	return n.types == tString && n.enum == nil && n.props.none() && n.patProps == nil && n.addl == nil &&
		!n.addlFalse && n.required == nil && n.items == nil && n.itemsList == nil && n.min == nil && n.max == nil &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.unique && n.oneOf == nil && n.anyOf == nil &&
		n.allOf == nil && n.not == nil
}

func (v *validator) array(n *node, i int) bool {
	t := v.t
	if t.Lazy(i) && n.items == nil && n.itemsList == nil && !n.unique {
		return true // nothing to check inside: a lazy node need not be expanded
	}
	if t.Lazy(i) && n.itemsList == nil && !n.unique && (n.items.accepts || n.itemsStrings && t.Nodes[i].Flags&jsontree.FlagStrings != 0) {
		return true // a lazy array of strings (lines of text): every item fits
	}
	ok := true
	length := int(t.Nodes[i].Len)
	if n.items != nil || n.itemsList != nil {
		k := t.FirstChild(i)
		for x := 0; x < length; x, k = x+1, t.Next(k) {
			s := n.items
			if s == nil {
				if x >= len(n.itemsList) {
					break
				}
				s = n.itemsList[x]
			}
			if !v.check(s, k) {
				if ok = false; !v.report {
					return false
				}
			}
		}
	}
	if n.unique && length > 1 && !v.unique(i) {
		ok = false
	}
	return ok
}

// maxPairwiseItems is the longest array of strings whose items
// uniqueItems compares with each other; longer ones, and arrays holding
// other values, are compared through canonical keys.
const maxPairwiseItems = 32

// unique checks uniqueItems on array i, reporting each item that equals
// an earlier one (the first it equals).
func (v *validator) unique(i int) bool {
	t := v.t
	length := int(t.Nodes[i].Len)
	strs := length <= maxPairwiseItems && !v.exhaustive
	for x, k := 0, t.FirstChild(i); x < length && strs; x, k = x+1, t.Next(k) {
		strs = t.Nodes[k].Kind == jsontree.String
	}
	ok := true
	if strs {
		// Strings are equal exactly when their decoded texts are.
		for x, k := 0, t.FirstChild(i); x < length; x, k = x+1, t.Next(k) {
			for y, e := 0, t.FirstChild(i); y < x; y, e = y+1, t.Next(e) {
				if v.sameString(e, k) {
					xx, yy := x, y
					v.fail(k, "uniqueItems", func() string { return fmt.Sprintf("item %d equals item %d", xx, yy) })
					if ok = false; !v.report {
						return false
					}
					break
				}
			}
		}
		return ok
	}
	seen := make(map[string]int, length)
	for x, k := 0, t.FirstChild(i); x < length; x, k = x+1, t.Next(k) {
		key := canonicalKey(t, k)
		if y, dup := seen[key]; dup {
			xx := x
			v.fail(k, "uniqueItems", func() string { return fmt.Sprintf("item %d equals item %d", xx, y) })
			if ok = false; !v.report {
				return false
			}
		} else {
			seen[key] = x
		}
	}
	return ok
}

// sameString reports whether string nodes a and b decode to the same
// text.
func (v *validator) sameString(a, b int) bool {
	t := v.t
	na, nb := &t.Nodes[a], &t.Nodes[b]
	if na.Flags&jsontree.FlagEscaped == 0 && nb.Flags&jsontree.FlagEscaped == 0 {
		return string(t.Data[na.Start+1:na.End-1]) == string(t.Data[nb.Start+1:nb.End-1])
	}
	return t.StrIs(b, t.Str(a))
}
