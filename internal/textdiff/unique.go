package textdiff

// MatchUnique is Match for sequences whose elements each occur at most once
// in a and once in b (such as message keys): their longest common
// subsequence is the longest increasing run of b's positions taken in a's
// order, found in O(n log n) whatever the number of edits. Sequences with
// repeated elements are handed to Match.
func MatchUnique[T comparable](a, b []T) []int {
	pos := make(map[T]int, len(b))
	for j, x := range b {
		if _, dup := pos[x]; dup {
			return Match(a, b)
		}
		pos[x] = j
	}
	m := make([]int, len(a))
	seen := make(map[T]bool, len(a))
	var pairs [][2]int
	for i, x := range a {
		m[i] = -1
		if seen[x] {
			return Match(a, b)
		}
		seen[x] = true
		if j, ok := pos[x]; ok {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	run, steps := increasing(pairs)
	work.Add(int64(steps + len(a) + len(b)))
	for _, p := range run {
		m[p[0]] = p[1]
	}
	return m
}
