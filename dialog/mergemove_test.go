package dialog

import (
	"slices"
	"testing"
)

// inLongestRun agrees with a search of every subsequence, on every
// permutation of up to 7 elements.
func TestInLongestRun(t *testing.T) {
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
