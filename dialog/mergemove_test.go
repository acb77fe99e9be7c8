package dialog

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// inLongestRun agrees with a search of every subsequence, on every
// permutation of up to 7 elements.
func TestInLongestRun(t *testing.T) {
	t.Parallel()
	var perms func(prefix, rest []int, f func([]int))
	perms = func(prefix, rest []int, f func([]int)) {
		if len(rest) == 0 {
			f(prefix)
			return
		}
		for i := range rest {
			r := slices.Concat(rest[:i], rest[i+1:])
			perms(append(slices.Clone(prefix), rest[i]), r, f)
		}
	}
	for n := 0; n <= 7; n++ {
		var all []int
		for i := range n {
			all = append(all, i)
		}
		perms(nil, all, func(a []int) {
			// brute force: the longest increasing subsequences, as bit sets
			best, held := 0, make([]bool, len(a))
			for set := 0; set < 1<<len(a); set++ {
				last, size, ok := -1, 0, true
				for i, x := range a {
					if set&(1<<i) != 0 {
						ok = ok && x > last
						last, size = x, size+1
					}
				}
				switch {
				case !ok || size < best:
					continue
				case size > best:
					best = size
					clear(held)
				}
				for i := range a {
					held[i] = held[i] || set&(1<<i) != 0
				}
			}
			if got := inLongestRun(a); !slices.Equal(got, held) {
				t.Fatalf("inLongestRun(%v) = %v, want %v", a, got, held)
			}
		})
	}
}

// moves.kept agrees with a search of every subsequence: on random sides
// of up to 7 base messages (some deleted, some added, the rest shuffled),
// the run it returns keeps base's order and is a best one by its rule
// (the most messages all three have, then the most the other side surely
// moved, then the most), surely moved judged by brute force too.
func TestMovesKept(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	side := func(nb int, next *int) []int {
		var ks []int
		for k := range nb {
			if rng.IntN(4) > 0 {
				ks = append(ks, k)
			}
		}
		rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
		for range rng.IntN(2) {
			ks = slices.Insert(ks, rng.IntN(len(ks)+1), *next)
			*next++
		}
		return ks
	}
	// runs calls f with each subsequence of ks in base's order (keys
	// below nb are base's, in order).
	runs := func(ks []int, nb int, f func([]int)) {
		for set := 0; set < 1<<len(ks); set++ {
			var run []int
			last, ok := -1, true
			for j, k := range ks {
				if set&(1<<j) != 0 && k < nb {
					ok = ok && k > last
					last = k
					run = append(run, k)
				}
			}
			if ok {
				f(run)
			}
		}
	}
	for range 3000 {
		nb := rng.IntN(8)
		next := nb
		kb := make([]int, nb)
		for i := range kb {
			kb[i] = i
		}
		ko, kt := side(nb, &next), side(nb, &next)
		mv := judgeMoves(kb, ko, kt, next)
		common := func(k int) bool {
			return k < nb && slices.Contains(ko, k) && slices.Contains(kt, k)
		}
		// surely moved by brute force: in no longest run of the common
		// messages
		var sure [3]map[int]bool
		for s, ks := range [3][]int{nil, ko, kt} {
			if s == 0 {
				continue
			}
			var cs []int
			for _, k := range ks {
				if common(k) {
					cs = append(cs, k)
				}
			}
			best, held := -1, map[int]bool{}
			runs(cs, nb, func(run []int) {
				if len(run) > best {
					best, held = len(run), map[int]bool{}
				}
				if len(run) == best {
					for _, k := range run {
						held[k] = true
					}
				}
			})
			sure[s] = map[int]bool{}
			for _, k := range cs {
				sure[s][k] = !held[k]
				if mv.sure[s][k] != !held[k] {
					t.Fatalf("base %v ours %v theirs %v: side %d surely moved %d: %v, want %v", kb, ko, kt, s, k, mv.sure[s][k], !held[k])
				}
			}
		}
		for s, ks := range [3][]int{nil, ko, kt} {
			if s == 0 {
				continue
			}
			score := func(run []int) [3]int {
				var sc [3]int
				for _, k := range run {
					if common(k) {
						sc[0]++
						if sure[3-s][k] {
							sc[1]++
						}
					}
					sc[2]++
				}
				return sc
			}
			var want [3]int
			runs(ks, nb, func(run []int) {
				if sc := score(run); slices.Compare(sc[:], want[:]) > 0 {
					want = sc
				}
			})
			m := mv.kept(kb, ks, s)
			var run []int
			last := -1
			for i, j := range m {
				if j < 0 {
					continue
				}
				if j <= last || ks[j] != kb[i] {
					t.Fatalf("base %v side %v: kept %v is no run in base's order", kb, ks, m)
				}
				last = j
				run = append(run, kb[i])
			}
			if got := score(run); got != want {
				t.Fatalf("base %v ours %v theirs %v: side %d kept %v (score %v), want score %v", kb, ko, kt, s, run, got, want)
			}
		}
	}
}
