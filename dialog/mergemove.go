package dialog

import (
	"slices"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Moves: which messages a side moved, judged by one rule for the
// matching the sequence merge works on and for the messages both sides
// moved apart. Among the messages all three versions have (each once),
// a side surely moved a message when no longest subsequence of that
// side's order that keeps base's order holds it (so that it moved, not
// the messages it passed; of two neighbours that swapped places, either
// may be the one that moved, so neither surely did).

// movedApartWhat is what a Conflict of a message both sides moved to
// different places says.
const movedApartWhat = "moved on both sides"

// addedApartWhat is what a Conflict of a message both sides added (one
// message: of one id, or equal) at different places says.
const addedApartWhat = "added on both sides at different places"

// moves is the judgement of both sides' moves, by key (see Moves).
type moves struct {
	pos    [3][]int  // side (0 base, 1 ours, 2 theirs) → key → index there, or -1
	common []bool    // key → all three have it (each once)
	sure   [3][]bool // side (1, 2) → key → of common, surely moved by it
}

// judgeMoves judges the moves of ours (ko) and theirs (kt) from base
// (kb): the keys of each one's messages, n keys in all. It returns nil
// when a sequence repeats a key (no order to judge).
func judgeMoves(kb, ko, kt []int, n int) *moves {
	mv := &moves{common: make([]bool, n)}
	for s, keys := range [3][]int{kb, ko, kt} {
		pos := make([]int, n)
		for k := range pos {
			pos[k] = -1
		}
		for i, k := range keys {
			if pos[k] >= 0 {
				return nil
			}
			pos[k] = i
		}
		mv.pos[s] = pos
	}
	for k := range n {
		mv.common[k] = mv.pos[0][k] >= 0 && mv.pos[1][k] >= 0 && mv.pos[2][k] >= 0
	}
	for s := 1; s < 3; s++ {
		var seq, at []int
		for _, k := range [3][]int{kb, ko, kt}[s] {
			if mv.common[k] {
				seq, at = append(seq, k), append(at, mv.pos[0][k])
			}
		}
		mv.sure[s] = make([]bool, n)
		for i, in := range inLongestRun(at) {
			mv.sure[s][seq[i]] = !in
		}
	}
	return mv
}

// kept matches base's keys kb with side s's keys ks, as
// textdiff.MatchUnique does (for each base index, the index in ks of the
// message kept in base's order, or -1), choosing among the subsequences
// of ks in base's order the one that holds the most messages all three
// have (so that the side moved those it surely moved and no other of
// them where it can), then the most of those the other side surely moved
// (of two that swapped places, the one the other side moved stays, so
// that this side moved the other one), then the most messages.
func (mv *moves) kept(kb, ks []int, s int) []int {
	other := 3 - s
	type best struct {
		score [3]int
		at    int // index in ks of the run's last message, or -1
	}
	better := func(x, y best) bool { return slices.Compare(x.score[:], y.score[:]) > 0 }
	// A Fenwick tree over base's indices: the best run ending before one.
	tree := make([]best, len(kb)+1)
	for i := range tree {
		tree[i].at = -1
	}
	prev := make([]int, len(ks))
	top := best{at: -1}
	for j, k := range ks {
		i := mv.pos[0][k]
		if i < 0 {
			continue
		}
		b := best{at: -1}
		for x := i; x > 0; x -= x & -x {
			if better(tree[x], b) {
				b = tree[x]
			}
		}
		prev[j] = b.at
		c := 0
		if mv.common[k] {
			c = 1
		}
		o := 0
		if mv.sure[other][k] {
			o = 1
		}
		b = best{score: [3]int{b.score[0] + c, b.score[1] + o, b.score[2] + 1}, at: j}
		for x := i + 1; x < len(tree); x += x & -x {
			if better(b, tree[x]) {
				tree[x] = b
			}
		}
		if better(b, top) {
			top = b
		}
	}
	out := make([]int, len(kb))
	for i := range out {
		out[i] = -1
	}
	for j := top.at; j >= 0; j = prev[j] {
		out[mv.pos[0][ks[j]]] = j
	}
	return out
}

// keptInOrder is mv.kept, or textdiff.MatchUnique where mv is nil.
func keptInOrder(mv *moves, kb, ks []int, s int) []int {
	if mv == nil {
		return textdiff.MatchUnique(kb, ks)
	}
	return mv.kept(kb, ks, s)
}

// movedApart returns the messages both sides surely moved, or both
// added, to different places, by key, with their indices in base (-1
// where added), ours and theirs: the places differ when the message
// before it among those all three have (none: it is first) is another on
// ours than on theirs. Both sides moving or adding it after the same
// message (their orders among messages not all three have may differ),
// one side moving it and the other editing it, and moves of different
// messages are not in the result.
func (mv *moves) movedApart(kb, ko, kt []int) map[int][3]int {
	if mv == nil {
		return nil
	}
	var cand []int // keys moved or added by both sides
	for k := range mv.common {
		if mv.common[k] && mv.sure[1][k] && mv.sure[2][k] || mv.pos[0][k] < 0 && mv.pos[1][k] >= 0 && mv.pos[2][k] >= 0 {
			cand = append(cand, k)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	var before [3][]int // side → key → the common key before it (-1: none)
	for s := 1; s < 3; s++ {
		before[s] = make([]int, len(mv.common))
		last := -1
		for _, k := range [3][]int{kb, ko, kt}[s] {
			before[s][k] = last
			if mv.common[k] {
				last = k
			}
		}
	}
	var out map[int][3]int
	for _, k := range cand {
		if before[1][k] == before[2][k] {
			continue
		}
		if out == nil {
			out = map[int][3]int{}
		}
		out[k] = [3]int{mv.pos[0][k], mv.pos[1][k], mv.pos[2][k]}
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
