package draft04

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Explanations of oneOf and anyOf failures.

// explain reports why no branch of a oneOf/anyOf matched node i, through
// the branch the value was meant for.
func (v *validator) explain(c *choice, i int, keyword string) {
	t := v.t
	if !v.report {
		return
	}
	if t.Nodes[i].Kind == jsontree.Object {
		// A discriminating property: one that the branches constrain with
		// an enum (cell_type, output_type).
		if c.key != "" {
			k := t.Lookup(i, c.key)
			if k < 0 {
				v.missing(i, c.key)
				return
			}
			for b, e := range c.enums {
				if e != nil && v.inEnum(k, e) {
					v.explainBy(c.branches[b], i, keyword)
					return
				}
			}
			// A branch that takes the other values (unrecognized_cell).
			for b, e := range c.enums {
				if e == nil {
					v.explainBy(c.branches[b], i, keyword)
					return
				}
			}
			v.discriminantFailed(c, k)
			return
		}
	}
	// Otherwise the branch of the value's type, if exactly one has it.
	bits := v.kindBits(i)
	var cands []int
	var types uint8
	for b, ty := range c.types {
		types |= ty
		if ty == 0 || ty&bits != 0 {
			cands = append(cands, b)
		}
	}
	if len(cands) == 1 {
		v.explainBy(c.branches[cands[0]], i, keyword)
		return
	}
	if len(cands) == 0 && types != 0 {
		v.typeFailed(types, i)
		return
	}
	v.noneMatched(i, keyword)
}

// discriminantFailed records that the discriminating member k of c is in
// none of its branches' enums.
//
//go:noinline
func (v *validator) discriminantFailed(c *choice, k int) {
	var all []any
	for _, e := range c.enums {
		if e != nil {
			all = append(all, e.enum...)
		}
	}
	v.fail(k, "enum", func() string { return short(v.t.Raw(k)) + " is not one of " + enumList(all) })
}

// noneMatched records that node i matches none of the branches of its
// oneOf or anyOf (keyword).
//
//go:noinline
func (v *validator) noneMatched(i int, keyword string) {
	v.fail(i, keyword, func() string { return short(v.t.Raw(i)) + " matches none of the allowed schemas" })
}

// explainBy reports the problems of node i against branch s, which it
// fails (or, should s report none, that i matches no branch).
func (v *validator) explainBy(s *node, i int, keyword string) {
	before := len(v.problems)
	v.check(s, i)
	if len(v.problems) == before {
		v.matchesNone(i, keyword)
	}
}

// matchesNone records that node i matches none of the branches of its
// oneOf or anyOf (keyword), though the branch it was meant for reports
// nothing.
//
//go:noinline
func (v *validator) matchesNone(i int, keyword string) {
	v.fail(i, keyword, func() string { return "matches none of the allowed schemas" })
}
