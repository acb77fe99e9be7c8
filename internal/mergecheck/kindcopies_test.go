package mergecheck

// The reading of git's file telling a token's copies apart by their kind
// (tokenKeysKindCopies), tried on seed 65004752.

import (
	"encoding/json"
	"slices"
	"testing"
)

// tokenKeysKindCopies is tokenKeys reading a side's copies of a token it
// holds more than once by their kind: a copy of the kind of base's copy
// is that copy (base's copies of that kind in order), the others take the
// next keys free, a new cell's where base's is taken (git's hunks gave
// one cell's kind line to a cell the side added with the other's text,
// or the other's lines to a cell of the side's). A result's copy of a
// token it holds more than once that equals a side's new copy of it is
// that copy, its others base's in order.
func tokenKeysKindCopies(vs [4]*nbView) { tokenKeysBy(vs, kindCopies) }

// kindCopyKeys gives each result cell of a token the result holds more
// than once, equal to a side's cell of that token keyed by no base cell
// (the sides are keyed), that side cell's key, where keys (the result's)
// has none yet and used has not that key.
func kindCopyKeys(vs [4]*nbView, toks [4][]string, baseKeys, keys []string, used map[string]bool) {
	held := map[string]int{}
	for _, tok := range toks[3] {
		held[tok]++
	}
	for j, c := range vs[3].cells {
		if keys[j] != "" || held[toks[3][j]] < 2 {
			continue
		}
	sides:
		for s := 1; s < 3; s++ {
			for n, sc := range vs[s].cells {
				if toks[s][n] == toks[3][j] && !slices.Contains(baseKeys, sc.key) && !used[sc.key] && equal(sc.c, c.c) {
					keys[j], used[sc.key] = sc.key, true
					break sides
				}
			}
		}
	}
}

// Seed 65004752 (fix path): base is one code cell b0; ours set b0's
// count and added a markdown cell o4 before it; theirs deleted b0 and
// added the same o4. git's line merge gave b0's lines after its kind
// line to o4's metadata and text: read back, base is a code cell of o4's
// token, ours o4 and that code cell with ours' count, theirs o4 alone.
// Ours' code copy is base's cell (its kind), its markdown copy the cell
// it added; the repair (o4, then base's cell kept with ours' count in a
// record, the kind theirs' as theirs' o4 is read base's edited, the merge
// of git's own sides) is accepted, and not with either cell dropped, the
// record dropped, base's cell code and unmarked, or a value of the added
// cell dropped.
func TestRepairReadsCopiesByKind(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-kindcopies", "65004752")
	sides, _ := readBack(out.marked)
	if kinds := cellKinds(t, sides[1]); !slices.Equal(kinds, []string{"markdown", "code"}) {
		t.Fatalf("ours' side is not o4 then the code copy: %v", kinds)
	}
	if fails := check(defaulted(sides[0]), defaulted(sides[1]), defaulted(sides[2]), out.result, false, checkOptions{keys: tokenKeys, uniqueLines: true}); len(fails) == 0 {
		t.Fatal("the repair is judged right with the copies read in order: the case is not the one described")
	}
	cells := resultCells(t, out)
	if len(cells) != 2 {
		t.Fatalf("the repair has %d cells, not o4 and base's cell: %s", len(cells), out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	meta := func(c any) *obj { return c.(*obj).sub("metadata", false) }
	judgedWith("without o4", func(cs []any) []any { return cs[1:] })
	judgedWith("without base's cell", func(cs []any) []any { return cs[:1] })
	judgedWith("without the record of ours' count", func(cs []any) []any {
		meta(cs[1]).del("ipynb_conflicts")
		return cs
	})
	judgedWith("with base's cell code of ours' count, unmarked", func(cs []any) []any {
		c := cs[1].(*obj)
		meta(c).del("ipynb_conflicts")
		c.del("attachments")
		c.set("cell_type", "code")
		c.set("execution_count", json.Number("33"))
		c.set("outputs", []any{})
		return cs
	})
	judgedWith("without o4's attachments", func(cs []any) []any {
		cs[0].(*obj).del("attachments")
		return cs
	})
	judgedWith("without o4's note", func(cs []any) []any {
		meta(cs[0]).del("note")
		return cs
	})
}

// cellKinds is the cell types of notebook data, in order.
func cellKinds(t *testing.T, data []byte) []string {
	t.Helper()
	v, err := viewOf(data)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range v.cells {
		kinds = append(kinds, str(c.c.vals["cell_type"]))
	}
	return kinds
}
