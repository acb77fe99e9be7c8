package textdiff

// patience returns the longest increasing run of elements that occur
// exactly once in a and once in b, as index pairs, and its steps.
func patience[T comparable](a, b []T) ([][2]int, int) {
	type seen struct{ na, nb, ib int }
	count := make(map[T]*seen, len(a))
	for _, x := range a {
		s := count[x]
		if s == nil {
			s = &seen{}
			count[x] = s
		}
		s.na++
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
	run, steps := increasing(pairs)
	return run, steps + 2*len(a) + len(b)
}

// increasing returns the longest run of pairs (in order) whose second
// elements increase (patience sorting: a step for each pair that extends
// the longest run so far, O(log n) for each other), and its steps.
func increasing(pairs [][2]int) ([][2]int, int) {
	if len(pairs) == 0 {
		return nil, 1
	}
	steps := len(pairs)
	tails := []int{} // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		lo, hi := 0, len(tails)
		if hi > 0 && pairs[tails[hi-1]][1] < p[1] {
			lo = hi // extends the longest run: pairs mostly in order cost one step each
		}
		for lo < hi {
			steps++
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
	return out, steps + len(out)
}
