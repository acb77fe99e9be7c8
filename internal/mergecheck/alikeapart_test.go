package mergecheck

// The reading of git's file taking each side's copy of alike copies base
// holds (without ids) as a different one of them (alikeApartReadings),
// tried on seed 65001228.

import (
	"slices"
	"strings"
	"testing"
)

// alikeApartReadings are tokenKeys with one side's cells aligned with
// base's as late as they can be where base's cell is one of copies of a
// token alike (and neither cell has an id), the other side's and the
// result's as early: where git's file gives base a cell twice alike side
// by side and each side one copy there, which copy a side holds is not in
// the file, and the sides may hold different ones (each deleted the
// other's). With ids a copy is the cell of its id (tokenIDKeys).
func alikeApartReadings() []func([4]*nbView) {
	return []func([4]*nbView){
		func(vs [4]*nbView) {
			tokenKeysEach(vs, [4]numbering{byAlignment, byAlignment, alikeApart, byAlignment})
		},
		func(vs [4]*nbView) {
			tokenKeysEach(vs, [4]numbering{byAlignment, alikeApart, byAlignment, byAlignment})
		},
	}
}

// alikeApartPairs aligns the tokens tv of notebook v with base's tb: a
// longest common subsequence matched as late as it can be for base's
// cells alike another of their token (see twinInBase) where neither cell
// has an id and the result r holds a cell equal to base's, and as early
// for the others, each cell in one pair at most. (A value both sides
// hold is in the result whichever copies they hold: the reading is not
// one where they deleted every copy between them.)
func alikeApartPairs(b, v, r *nbView, tb, tv, tr []string) [][2]int {
	alike := func(p [2]int) bool {
		_, bid := b.cells[p[0]].c.vals["id"].(string)
		_, vid := v.cells[p[1]].c.vals["id"].(string)
		kept := false
		for j, c := range r.cells {
			kept = kept || tr[j] == tb[p[0]] && equal(c.c, b.cells[p[0]].c)
		}
		return !bid && !vid && kept && twinInBase(b, tb, p[0])
	}
	var out [][2]int
	inB, inV := map[int]bool{}, map[int]bool{}
	add := func(ps [][2]int, want bool) {
		for _, p := range ps {
			if alike(p) == want && !inB[p[0]] && !inV[p[1]] {
				out, inB[p[0]], inV[p[1]] = append(out, p), true, true
			}
		}
	}
	add(lcsLate(tb, tv), true)
	add(lcsStrings(tb, tv), false)
	return out
}

// lcsLate is lcsStrings matching each element as late as it can: the
// pairs of a longest common subsequence of a and b taken from their ends.
func lcsLate(a, b []string) [][2]int {
	ra, rb := slices.Clone(a), slices.Clone(b)
	slices.Reverse(ra)
	slices.Reverse(rb)
	ps := lcsStrings(ra, rb)
	for i, p := range ps {
		ps[i] = [2]int{len(a) - 1 - p[0], len(b) - 1 - p[1]}
	}
	slices.Reverse(ps)
	return ps
}

// Seed 65001228 (fix path): base is b3, b4, b5 (no ids); ours added a
// line to b3 and moved b5 before b4, theirs wrote a line into b3 and
// moved b5 first. git's line merge wrote b5 first and after b3 cleanly,
// and base's b5 once more in a conflict, where ours has b4 and theirs
// nothing: read back, base is b5, b3, b5, b5, ours b5, b3, b5, b4, theirs
// b5, b3, b5. Each side deleted one of base's last two b5, alike: read
// with each its own, the repair (b5, b3 with both sides' lines marked,
// b4; the merge of git's own sides) keeps every value; it is accepted,
// and not with b5, b3 or b4 dropped, either side's line of b3 dropped,
// or b5 after b3.
func TestRepairReadsAlikeCopiesApart(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-alikeapart", "65001228")
	sides, _ := readBack(out.marked)
	toks := func(data []byte) (ts []string) {
		v, err := viewOf(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range v.cells {
			ts = append(ts, tokenRe.FindString(c.text))
		}
		return ts
	}
	if got := toks(sides[0]); !slices.Equal(got, []string{"«b5»", "«b3»", "«b5»", "«b5»"}) {
		t.Fatalf("base's side is %v, not b5, b3, b5, b5", got)
	}
	if fails := check(defaulted(sides[0]), defaulted(sides[1]), defaulted(sides[2]), out.result, out.status == 0, seedRepairOptions); len(fails) == 0 {
		t.Fatal("the repair is judged right with the copies aligned alike: the case is not the one described")
	}
	if got := toks(out.result); !slices.Equal(got, []string{"«b5»", "«b3»", "«b4»"}) {
		t.Fatalf("the repair is %v, not b5, b3, b4: %s", got, out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	without := func(line string) func(cs []any) []any {
		return func(cs []any) []any {
			var kept []string
			text, _ := joined(cs[1].(*obj).vals["source"])
			for _, l := range lines(text) {
				if !strings.HasPrefix(l, line) && !markerLine.MatchString(l) {
					kept = append(kept, l)
				}
			}
			cs[1].(*obj).set("source", strings.Join(kept, "\n"))
			return cs
		}
	}
	judgedWith("without b5", func(cs []any) []any { return cs[1:] })
	judgedWith("without b3", func(cs []any) []any { return []any{cs[0], cs[2]} })
	judgedWith("without b4", func(cs []any) []any { return cs[:2] })
	judgedWith("without ours' line", without("o3 new line"))
	judgedWith("without theirs' line", without("t4 lone"))
	judgedWith("with b5 after b3", func(cs []any) []any { return []any{cs[1], cs[0], cs[2]} })
}

// Base holds a cell twice alike, each side once: read apart, each side
// deleted the copy the other holds, but a value both sides hold is in
// the result, so the readings do not take the result without it for
// right.
func TestAlikeApartKeepsAValueBothHold(t *testing.T) {
	t.Parallel()
	a := cell41("markdown", "{}", "«b1»\nA")
	base, side := nb41(a, a), nb41(a)
	for i, keys := range alikeApartReadings() {
		opt := checkOptions{keys: keys, uniqueLines: true}
		if fails := check(base, side, side, nb41(), true, opt); len(fails) == 0 {
			t.Errorf("reading %d: the result without the cell judged right", i)
		}
	}
}
