// Package textdiff is the one place that compares sequences: line diffs of
// text (git's: xdiff's classification of lines, then Myers' O(ND)
// algorithm from both ends, cut after a bounded number of edits so that
// work stays linear and diffs local on any input), three-way merges of
// sequences and text (diff3, as git merge-file does it), and unified
// diffs. Package dialog uses it to merge and diff messages, and to order
// the messages of a merge.
//
// Every function is pure (but for the count of steps Work returns) and
// safe for concurrent use. A diff of n elements takes O(n) steps to
// classify and slide, and O(256·n) at most to search (split.go); anchors
// and ids out of order cost O(log n) each to sort (patience.go).
package textdiff

// Match returns, for each element of a, the index of the element of b it is
// matched with (or -1): matched indexes increase with i. The matching is
// git diff's (its default algorithm, without the indent heuristic, as git
// merge-file uses it): a minimal edit script wherever the sequences differ
// by fewer than a few hundred edits, region by region, and past that a
// near-minimal one found locally (see split.go); change groups are slid
// as git slides them (compact.go).
func Match[T comparable](a, b []T) []int {
	m, steps := matchCost(a, b)
	work.Add(int64(steps))
	return m
}

// matchCost is Match, also returning its steps (see Work).
func matchCost[T comparable](a, b []T) ([]int, int) {
	ca, cb := make([]bool, len(a)), make([]bool, len(b))
	steps := changes(a, b, ca, cb)
	steps += compact(a, b, ca, cb)
	return pairUnchanged(ca, cb), steps + len(a) + len(b)
}

// MatchAnchored is a longest common subsequence for sequences of mostly
// distinct elements, such as messages: elements occurring once on each
// side anchor it (patience diff), and Match's search runs only between
// anchors, so that a moved block does not hide the matches around it.
func MatchAnchored[T comparable](a, b []T) []int {
	m, steps := matchAnchoredCost(a, b)
	work.Add(int64(steps))
	return m
}

func matchAnchoredCost[T comparable](a, b []T) ([]int, int) {
	ca, cb := make([]bool, len(a)), make([]bool, len(b))
	anchors, steps := patience(a, b)
	pa, pb := 0, 0
	for _, an := range anchors {
		steps += changes(a[pa:an[0]], b[pb:an[1]], ca[pa:an[0]], cb[pb:an[1]])
		pa, pb = an[0]+1, an[1]+1
	}
	steps += changes(a[pa:], b[pb:], ca[pa:], cb[pb:])
	return pairUnchanged(ca, cb), steps + len(a) + len(b)
}

// changes marks in ca and cb the elements of a and b an edit script
// from a to b deletes and inserts, and returns its steps.
func changes[T comparable](a, b []T, ca, cb []bool) int {
	lo, hi1, hi2 := 0, len(a), len(b)
	for lo < hi1 && lo < hi2 && a[lo] == b[lo] {
		lo++
	}
	for hi1 > lo && hi2 > lo && a[hi1-1] == b[hi2-1] {
		hi1--
		hi2--
	}
	steps := 1 + lo + len(a) - hi1
	if lo == hi1 || lo == hi2 {
		for i := lo; i < hi1; i++ {
			ca[i] = true
		}
		for j := lo; j < hi2; j++ {
			cb[j] = true
		}
		return steps + hi1 - lo + hi2 - lo
	}
	r, s := reduce(a, b, lo, hi1, lo, hi2, ca, cb)
	steps += s
	cx, cy := make([]bool, len(r.x)), make([]bool, len(r.y))
	steps += diffClasses(r.x, r.y, cx, cy)
	for i, c := range cx {
		ca[r.ix[i]] = c
	}
	for j, c := range cy {
		cb[r.iy[j]] = c
	}
	return steps + len(cx) + len(cy)
}

// pairUnchanged matches the unchanged elements of two sequences in
// order (there are as many on each side).
func pairUnchanged(ca, cb []bool) []int {
	m := make([]int, len(ca))
	j := 0
	for i, c := range ca {
		m[i] = -1
		if c {
			continue
		}
		for j < len(cb) && cb[j] {
			j++
		}
		m[i] = j
		j++
	}
	return m
}
