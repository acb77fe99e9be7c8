// Package textdiff is the one place that compares sequences: line diffs of
// text (Myers' O(ND) algorithm, falling back to patience anchors when the
// sequences differ too much for it to stay cheap), three-way merges of
// sequences and text (diff3, as git merge-file does it), and unified diffs.
// Package dialog uses it to merge and diff messages, and to order the
// messages of a merge.
//
// Every function is pure and safe for concurrent use.
package textdiff

// maxD bounds the edit distance Myers' algorithm explores on one region;
// past it the region is split on lines unique to both sides (patience
// anchors), and a region without any is taken as replaced whole. Memory
// is O(maxD²) ints at most, time O((N+M)·maxD).
const maxD = 1024

// Match returns, for each element of a, the index of the element of b it is
// matched with in a longest common subsequence (or -1): matched indexes
// increase with i. The subsequence is minimal-edit (Myers) wherever the
// sequences are within maxD edits of each other region by region.
func Match[T comparable](a, b []T) []int {
	m, _ := matchCost(a, b)
	return m
}

// matchCost is Match, also returning the work done (diagonals explored
// and anchors considered), for tests of how it scales.
func matchCost[T comparable](a, b []T) ([]int, int) {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	cost := 0
	match(a, b, 0, 0, m, &cost)
	compact(a, b, m)
	return m, cost
}

// MatchAnchored is a longest common subsequence for sequences of mostly
// distinct elements, such as messages: elements occurring once on each
// side anchor it (patience diff), and Match's search runs only between
// anchors, so its cost stays near O(n log n) however many the edits.
func MatchAnchored[T comparable](a, b []T) []int {
	m, _ := matchAnchoredCost(a, b)
	return m
}

func matchAnchoredCost[T comparable](a, b []T) ([]int, int) {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	cost := len(a) + len(b)
	anchors := patience(a, b)
	pa, pb := 0, 0
	for _, an := range anchors {
		match(a[pa:an[0]], b[pb:an[1]], pa, pb, m, &cost)
		m[an[0]] = an[1]
		pa, pb = an[0]+1, an[1]+1
	}
	match(a[pa:], b[pb:], pa, pb, m, &cost)
	return m, cost
}

// match matches a against b, whose first elements are at a0 and b0 of the
// whole sequences, into m.
func match[T comparable](a, b []T, a0, b0 int, m []int, cost *int) {
	// Common prefix and suffix.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		m[a0+p] = b0 + p
		p++
	}
	a, b, a0, b0 = a[p:], b[p:], a0+p, b0+p
	s := 0
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		m[a0+len(a)-1-s] = b0 + len(b) - 1 - s
		s++
	}
	a, b = a[:len(a)-s], b[:len(b)-s]
	if len(a) == 0 || len(b) == 0 {
		return
	}
	if myers(a, b, a0, b0, m, cost) {
		return
	}
	*cost += len(a) + len(b)
	anchors := patience(a, b)
	if len(anchors) == 0 {
		return // replaced whole
	}
	pa, pb := 0, 0
	for _, an := range anchors {
		match(a[pa:an[0]], b[pb:an[1]], a0+pa, b0+pb, m, cost)
		m[a0+an[0]] = b0 + an[1]
		pa, pb = an[0]+1, an[1]+1
	}
	match(a[pa:], b[pb:], a0+pa, b0+pb, m, cost)
}

// myers runs Myers' greedy algorithm; it gives up (false) beyond maxD.
func myers[T comparable](a, b []T, a0, b0 int, m []int, cost *int) bool {
	n, mm := len(a), len(b)
	limit := min(n+mm, maxD)
	off := limit + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			x0 := x
			for x < n && y < mm && a[x] == b[y] {
				x++
				y++
			}
			*cost += 1 + x - x0
			v[off+k] = x
			if x >= n && y >= mm {
				backtrack(a, b, a0, b0, m, trace, d, k, x)
				return true
			}
		}
	}
	return false
}

// backtrack walks the saved frontiers back from (x, k) at distance d,
// recording the diagonal moves (matches).
func backtrack[T comparable](a, b []T, a0, b0 int, m []int, trace [][]int, d, k, x int) {
	for ; d > 0; d-- {
		vd := trace[d] // frontier before step d, indexes -(d)..d shifted by d
		get := func(k int) int { return vd[k+d] }
		var pk int
		if k == -d || k != d && get(k-1) < get(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := get(pk)
		py := px - pk
		// The snake of step d starts right after the move from (px, py).
		sx := px
		if pk == k-1 {
			sx = px + 1
		}
		for xx := sx; xx < x; xx++ {
			yy := xx - k
			_ = b[yy]
			m[a0+xx] = b0 + yy
		}
		x, k = px, pk
		_ = py
	}
	// d == 0: the initial snake from (0, 0).
	for xx := 0; xx < x; xx++ {
		m[a0+xx] = b0 + xx
	}
}

// patience returns the longest increasing run of elements that occur
// exactly once in a and once in b, as index pairs.
func patience[T comparable](a, b []T) [][2]int {
	type seen struct{ na, nb, ia, ib int }
	count := make(map[T]*seen, len(a))
	for i, x := range a {
		s := count[x]
		if s == nil {
			s = &seen{}
			count[x] = s
		}
		s.na++
		s.ia = i
	}
	for j, x := range b {
		if s := count[x]; s != nil {
			s.nb++
			s.ib = j
		}
	}
	var pairs [][2]int
	for i, x := range a {
		if s := count[x]; s.na == 1 && s.nb == 1 {
			pairs = append(pairs, [2]int{i, s.ib})
		}
	}
	return increasing(pairs)
}

// increasing returns the longest run of pairs (in order) whose second
// elements increase (patience sorting, O(n log n)).
func increasing(pairs [][2]int) [][2]int {
	if len(pairs) == 0 {
		return nil
	}
	tails := []int{} // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if pairs[tails[mid]][1] < p[1] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[i] = -1
		if lo > 0 {
			prev[i] = tails[lo-1]
		}
		if lo == len(tails) {
			tails = append(tails, i)
		} else {
			tails[lo] = i
		}
	}
	out := make([][2]int, len(tails))
	for i, j := len(tails)-1, tails[len(tails)-1]; i >= 0; i, j = i-1, prev[j] {
		out[i] = pairs[j]
	}
	return out
}
