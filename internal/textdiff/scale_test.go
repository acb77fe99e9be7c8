package textdiff

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/internal/textdiff/textshape"
)

// Work is counted in steps (see Work), never timed: the machine's load
// does not change a count.

// growth checks the work of each function at doubling sizes: doubling
// the input may at most maxGrowth-fold it.
func growth(t *testing.T, name string, sizes []int, steps map[string][]int) {
	t.Helper()
	const maxGrowth = 2.3
	for f, counts := range steps {
		msg := fmt.Sprintf("%s/%s:", f, name)
		for i, c := range counts {
			msg += fmt.Sprintf(" %d lines %d steps (%.0f a line)", sizes[i], c, float64(c)/float64(sizes[i]))
			if i == 0 {
				continue
			}
			g := float64(c) / float64(counts[i-1])
			msg += fmt.Sprintf(" ×%.2f;", g)
			if g > maxGrowth {
				t.Errorf("%s/%s: %d → %d lines: work grows ×%.2f", f, name, sizes[i-1], sizes[i], g)
			}
		}
		t.Log(msg)
	}
}

func scaleSizes() []int {
	if !testtier.Full() {
		return []int{16000, 32000}
	}
	return []int{16000, 32000, 64000}
}

// stepsOf returns the steps Work counts while f runs. Tests calling it
// do not run in parallel: Work is the whole program's.
func stepsOf(f func()) int {
	w := Work()
	f()
	return int(Work() - w)
}

// The work of a diff, a merge, a unified diff and an anchored match
// grows linearly with the input on every shape, the crafted ones
// among them (nested repeats, many small hunks, insertions into a text
// of repeated lines): doubling the lines at most about doubles the steps.
func TestWorkScalesLinearly(t *testing.T) {
	sizes := scaleSizes()
	for _, sh := range textshape.All {
		steps := map[string][]int{}
		for _, n := range sizes {
			base, ours, theirs := sh.Gen(n)
			b, o, th := join(base), join(ours), join(theirs)
			steps["Match"] = append(steps["Match"], stepsOf(func() { Match(base, ours) }))
			steps["MatchAnchored"] = append(steps["MatchAnchored"], stepsOf(func() { MatchAnchored(base, ours) }))
			steps["MergeText"] = append(steps["MergeText"], stepsOf(func() { MergeText(b, o, th, Markers{}) }))
			steps["Unified"] = append(steps["Unified"], stepsOf(func() { Unified("a", "b", b, o, 3) }))
		}
		growth(t, sh.Name, sizes, steps)
	}
}

// Whatever the input, a diff of n elements takes at most about
// 2·maxCost·n steps (split.go): random texts of every vocabulary, edited
// lightly or wholly, and the crafted extremes.
func TestWorkBounded(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(31, 37))
	check := func(name string, a, b []string) {
		_, steps := matchCost(a, b)
		if limit := 2*maxCost*(len(a)+len(b)) + 64; steps > limit {
			t.Errorf("%s (%d and %d lines): %d steps, more than %d", name, len(a), len(b), steps, limit)
		}
	}
	for i := range 100 {
		vocab := []int{2, 4, 10, 60, 400}[i%5]
		a := randomText(r, r.IntN(2000), vocab)
		check(fmt.Sprintf("random %d", i), a, edit(r, a, 1+r.IntN(len(a)+1), vocab))
	}
	for _, c := range diffCases(true) {
		check(c.name, c.a, c.b)
	}
}

// The steps Work counts track the time taken: a benchmark for each shape,
// bytes being the base's.
func BenchmarkMergeText(b *testing.B) {
	for _, sh := range textshape.All {
		for _, n := range []int{8000, 16000, 32000} {
			base, ours, theirs := sh.Gen(n)
			bs, o, th := join(base), join(ours), join(theirs)
			b.Run(fmt.Sprintf("%s/%d", sh.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(bs)))
				b.ReportAllocs()
				for b.Loop() {
					MergeText(bs, o, th, Markers{})
				}
			})
		}
	}
}

func BenchmarkUnified(b *testing.B) {
	for _, sh := range textshape.All {
		for _, n := range []int{8000, 16000, 32000} {
			base, ours, _ := sh.Gen(n)
			bs, o := join(base), join(ours)
			b.Run(fmt.Sprintf("%s/%d", sh.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(bs)))
				b.ReportAllocs()
				for b.Loop() {
					Unified("a", "b", bs, o, 3)
				}
			})
		}
	}
}
