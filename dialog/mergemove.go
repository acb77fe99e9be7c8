package dialog

import "slices"

// movedApartWhat is what a Conflict of a message both sides moved to
// different places says.
const movedApartWhat = "moved on both sides"

// movedApart returns the messages both sides moved to different places,
// by key, with their indices in base, ours and theirs (kb, ko, kt: the
// key of each message of base, ours and theirs). Among the messages all
// three have (each once), a side moved a message when no longest
// subsequence of that side's order that keeps base's order holds it (so
// that it moved, not the messages it passed); the places differ when
// the message before it there (none: it is first) is another on ours
// than on theirs. Both sides moving it after the same message, one side
// moving it and the other editing it, and moves of different messages
// are not in the result.
func (mg *merger) movedApart(kb, ko, kt []int) map[int][3]int {
	// A side that kept every base message it has in base's order (none
	// moved in the merge's own matching, entry.movedO and movedT) keeps
	// those all three have in it too: nothing to look for.
	anyO, anyT := false, false
	for _, k := range kb {
		anyO, anyT = anyO || mg.es[k].movedO, anyT || mg.es[k].movedT
	}
	if !anyO || !anyT {
		return nil
	}
	count := make(map[int][3]int, len(kb))
	for s, keys := range [3][]int{kb, ko, kt} {
		for _, k := range keys {
			n := count[k]
			n[s]++
			count[k] = n
		}
	}
	// The sequences of the messages all three have once, and each one's
	// index in its side's messages.
	var seqs [3][]int
	var index [3]map[int]int
	for s, keys := range [3][]int{kb, ko, kt} {
		index[s] = map[int]int{}
		for i, k := range keys {
			if count[k] == [3]int{1, 1, 1} {
				seqs[s] = append(seqs[s], k)
				index[s][k] = i
			}
		}
	}
	if len(seqs[0]) < 2 || slices.Equal(seqs[0], seqs[1]) || slices.Equal(seqs[0], seqs[2]) {
		return nil
	}
	posB := make(map[int]int, len(seqs[0]))
	for i, k := range seqs[0] {
		posB[k] = i
	}
	var stays [3]map[int]bool // side → key → in a longest run of base's order
	var before [3]map[int]int // side → key → the key before it (-1: none)
	for s := 1; s < 3; s++ {
		at := make([]int, len(seqs[s]))
		before[s] = make(map[int]int, len(seqs[s]))
		for i, k := range seqs[s] {
			at[i] = posB[k]
			before[s][k] = -1
			if i > 0 {
				before[s][k] = seqs[s][i-1]
			}
		}
		stays[s] = make(map[int]bool, len(at))
		for i, in := range inLongestRun(at) {
			stays[s][seqs[s][i]] = in
		}
	}
	var out map[int][3]int
	for _, k := range seqs[0] {
		if stays[1][k] || stays[2][k] || before[1][k] == before[2][k] {
			continue
		}
		if out == nil {
			out = map[int][3]int{}
		}
		out[k] = [3]int{index[0][k], index[1][k], index[2][k]}
	}
	return out
}

// inLongestRun reports, for each element of a (distinct values), whether
// a longest increasing subsequence of a holds it: the longest increasing
// run ending at it and the one starting at it make one that long.
func inLongestRun(a []int) []bool {
	end := make([]int, len(a))
	var tails []int // tails[n]: the least last value of a run n+1 long
	for i, x := range a {
		n, _ := slices.BinarySearch(tails, x)
		if n == len(tails) {
			tails = append(tails, x)
		} else {
			tails[n] = x
		}
		end[i] = n + 1
	}
	longest := len(tails)
	tails = tails[:0] // from the end: runs of decreasing -x
	out := make([]bool, len(a))
	for i := len(a) - 1; i >= 0; i-- {
		x := -a[i]
		n, _ := slices.BinarySearch(tails, x)
		if n == len(tails) {
			tails = append(tails, x)
		} else {
			tails[n] = x
		}
		out[i] = end[i]+n == longest
	}
	return out
}
