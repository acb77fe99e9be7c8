package textdiff

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// codeLike returns n mostly distinct lines with edits every `every` lines
// on a copy.
func codeLike(n, every int) (a, b []string) {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	for i := range n {
		a = append(a, fmt.Sprintf("line %d %d\n", i, r.IntN(1000)))
	}
	for i, l := range a {
		switch {
		case i%every == 3:
			b = append(b, "changed\n")
		case i%every == 7:
			b = append(b, l, "inserted\n")
		case i%every == 11:
		default:
			b = append(b, l)
		}
	}
	return a, b
}

// The work of a diff, counted (diagonals and snake steps explored,
// elements scanned for anchors), grows linearly with the input when the
// number of edits is fixed (Match) and when it grows with the input
// (MatchAnchored, for messages), and Match stays bounded by its edit
// limit when everything differs.
func TestMatchScales(t *testing.T) {
	check := func(name string, cost func(n int) int) {
		c1, c2 := cost(20000), cost(40000)
		ratio := float64(c2) / float64(c1)
		t.Logf("%s: %d → %d (%.2f×)", name, c1, c2, ratio)
		if ratio > 2.5 {
			t.Errorf("%s: work grows %.2f× for twice the input", name, ratio)
		}
	}
	check("Match, 40 edits", func(n int) int {
		a, b := codeLike(n, n/40)
		_, c := matchCost(a, b)
		return c
	})
	check("MatchAnchored, an edit every 50", func(n int) int {
		a, b := codeLike(n, 50)
		_, c := matchAnchoredCost(a, b)
		return c
	})
	check("Match, all different", func(n int) int {
		a, _ := codeLike(n, 50)
		b, _ := codeLike(n+1, 50)
		_, c := matchCost(a, b)
		return c
	})
}

func BenchmarkMatch(b *testing.B) {
	a, c := codeLike(50000, 100)
	b.ReportAllocs()
	for b.Loop() {
		Match(a, c)
	}
}
