package mergecheck

// The reading of git's file taking each side's copy of copies base holds
// (without ids) as a different one of them (alikeApartReadings), tried
// on seeds 65001228 and 68002928.

import (
	"slices"
	"strings"
	"testing"
)

// alikeApartReadings are tokenKeys with one side's cells of a token base
// holds more than once aligned with base's copies as early as they can
// be, the other side's as late (neither cell with an id, and the result
// holding a cell of the token), the result's by alignment: where git's
// file gives base a cell more than once and each side fewer copies, which
// copy a side holds is not in the file (copies alike, or each a side's
// version), and the sides may hold different ones (each deleted the
// other's). With ids a copy is the cell of its id (tokenIDKeys).
func alikeApartReadings() []func([4]*nbView) {
	return []func([4]*nbView){
		func(vs [4]*nbView) { tokenKeysEach(vs, [4]numbering{byAlignment, apartEarly, apartLate, byAlignment}) },
		func(vs [4]*nbView) { tokenKeysEach(vs, [4]numbering{byAlignment, apartLate, apartEarly, byAlignment}) },
	}
}

// apartPairs aligns the tokens tv of notebook v with base's tb: a longest
// common subsequence whose pairs take base's cells as early as they can
// (late: as late), kept for the pairs where neither cell has an id and
// tr, the result's tokens, holds the token (a value both sides hold is
// in the result whichever copies they hold: the reading is not one where
// they deleted every copy between them), joined by those of lcsStrings
// for the other cells, each cell in one pair at most.
func apartPairs(b, v *nbView, tb, tv, tr []string, late bool) [][2]int {
	apart := func(p [2]int) bool {
		_, bid := b.cells[p[0]].c.vals["id"].(string)
		_, vid := v.cells[p[1]].c.vals["id"].(string)
		return !bid && !vid && slices.Contains(tr, tb[p[0]])
	}
	var out [][2]int
	inB, inV := map[int]bool{}, map[int]bool{}
	add := func(ps [][2]int, want bool) {
		for _, p := range ps {
			if apart(p) == want && !inB[p[0]] && !inV[p[1]] {
				out, inB[p[0]], inV[p[1]] = append(out, p), true, true
			}
		}
	}
	if late {
		add(lcsLate(tb, tv), true)
	} else {
		add(lcsEarly(tb, tv), true)
	}
	add(lcsStrings(tb, tv), false)
	return out
}

// lcsEarly returns the index pairs of a longest common subsequence of a
// and b that takes each element of a as early as it can.
func lcsEarly(a, b []string) [][2]int {
	n, m := len(a), len(b)
	t := make([]int, (n+1)*(m+1))
	at := func(i, j int) int { return t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*(m+1)+j] = at(i+1, j+1) + 1
			} else {
				t[i*(m+1)+j] = max(at(i+1, j), at(i, j+1))
			}
		}
	}
	var ps [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			ps = append(ps, [2]int{i, j})
			i, j = i+1, j+1
		case at(i, j+1) >= at(i+1, j): // keep a[i] for a later b
			j++
		default:
			i++
		}
	}
	return ps
}

// lcsLate is lcsEarly from the ends: the pairs of a longest common
// subsequence of a and b that takes each element of a as late as it can.
func lcsLate(a, b []string) [][2]int {
	ra, rb := slices.Clone(a), slices.Clone(b)
	slices.Reverse(ra)
	slices.Reverse(rb)
	ps := lcsEarly(ra, rb)
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

// Seed 68002928 (fix path): base is b0, b1, b2, b3 (no ids); ours set
// b2's metadata and moved it after b3, theirs edited b3's attachment and
// moved b2 first. git's line merge wrote b2 first cleanly, and after b1
// a conflict ending in ours' b2 (its metadata merged cleanly into the
// lines after it): read back, base is b2, b0, b1, b2, then b3's
// attachment with b2's text and ours' metadata; ours ends with b3 and b2
// of ours' metadata, theirs with that b2 of theirs' attachment. Ours'
// last b2 is base's first copy after b1 (ours added metadata to it, and
// deleted the last copy), theirs' base's last (its attachment edited,
// and the copy before it deleted): the repair (b2, b0, b1, b3, then each
// of those edited copies kept, marked, against the other side's
// deletion; the merge of git's own sides) is accepted, and not with b2
// first, b3 or either edited copy dropped, ours' metadata or theirs'
// attachment dropped, or ours' copy unmarked.
func TestRepairReadsEditedCopiesApart(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-alikeapart", "68002928")
	sides, _ := readBack(out.marked)
	if fails := check(defaulted(sides[0]), defaulted(sides[1]), defaulted(sides[2]), out.result, out.status == 0, seedRepairOptions); len(fails) == 0 {
		t.Fatal("the repair is judged right with the copies aligned alike: the case is not the one described")
	}
	cells := resultCells(t, out)
	if len(cells) != 6 || !strings.Contains(string(jupyterStyle.write(cells[3])), "«b3»") {
		t.Fatalf("the repair is not b2, b0, b1, b3 and two copies of b2: %s", out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	drop := func(i int) func(cs []any) []any {
		return func(cs []any) []any { return slices.Delete(cs, i, i+1) }
	}
	judgedWith("without b2 first", drop(0))
	judgedWith("without b3", drop(3))
	judgedWith("without ours' copy", drop(4))
	judgedWith("without theirs' copy", drop(5))
	judgedWith("without ours' metadata", func(cs []any) []any {
		cs[4].(*obj).sub("metadata", false).del("deep")
		return cs
	})
	judgedWith("without theirs' attachment", func(cs []any) []any {
		cs[5].(*obj).del("attachments")
		return cs
	})
	judgedWith("with ours' copy unmarked", func(cs []any) []any {
		cs[4].(*obj).set("source", "«b2»\nb2.1 text")
		return cs
	})
}
