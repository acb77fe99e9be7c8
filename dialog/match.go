package dialog

import (
	"strings"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Matching messages of two versions of a dialog: by id where ids are
// identities, otherwise by aligning contents (equal messages first, then
// similar ones of the same kind between them).

// similar is the least line similarity (2·common lines / all lines) for
// two different messages to be taken as one edited message.
const similar = 0.5

// pairBudget bounds the work of pairing similar messages in one match:
// the lines of the texts compared (each comparison is linear in them),
// summed. Past it, messages still unpaired stay unpaired (deleted and
// added).
const pairBudget = 1 << 22

// maxPairTries bounds the candidates looked at (and so the similarity
// comparisons made) in one run of unmatched messages.
const maxPairTries = 1 << 14

// match pairs the messages of b with those of a: it returns, for each
// message of b, the index of its counterpart in a, or -1.
func match(a, b []*Message, unkeyed func(*Message) bool) []int {
	out := make([]int, len(b))
	for i := range out {
		out[i] = -1
	}
	keyed := func(m *Message) bool { return unkeyed == nil || !unkeyed(m) }
	byID := make(map[string]int, len(a))
	anyUnkeyed := false
	for i, m := range a {
		if keyed(m) {
			if _, dup := byID[m.ID]; !dup {
				byID[m.ID] = i
			}
		} else {
			anyUnkeyed = true
		}
	}
	taken := make([]bool, len(a))
	for j, m := range b {
		if !keyed(m) {
			anyUnkeyed = true
			continue
		}
		if i, ok := byID[m.ID]; ok && !taken[i] {
			out[j], taken[i] = i, true
		}
	}
	if !anyUnkeyed {
		return out
	}
	// Content alignment of the messages still unmatched.
	var ra, rb []int
	for i := range a {
		if !taken[i] {
			ra = append(ra, i)
		}
	}
	for j := range b {
		if out[j] < 0 {
			rb = append(rb, j)
		}
	}
	ka := make([]string, len(ra))
	for x, i := range ra {
		ka[x] = contentKey(a[i])
	}
	kb := make([]string, len(rb))
	for y, j := range rb {
		kb[y] = contentKey(b[j])
	}
	pairable := func(i, j int) bool { return !keyed(a[i]) || !keyed(b[j]) }
	m := textdiff.MatchAnchored(ka, kb)
	for x, y := range m {
		if y >= 0 && pairable(ra[x], rb[y]) {
			out[rb[y]], taken[ra[x]] = ra[x], true
		}
	}
	// Equal messages out of the common order: moved. Each content's
	// candidates are queues (those with made-up ids, and the others), so
	// that many equal messages cost no more than few.
	type queues struct{ unkeyed, keyed []int }
	free := map[string]*queues{}
	for x, i := range ra {
		if taken[i] {
			continue
		}
		q := free[ka[x]]
		if q == nil {
			q = &queues{}
			free[ka[x]] = q
		}
		if keyed(a[i]) {
			q.keyed = append(q.keyed, i)
		} else {
			q.unkeyed = append(q.unkeyed, i)
		}
	}
	for y, j := range rb {
		q := free[kb[y]]
		if out[j] >= 0 || q == nil {
			continue
		}
		switch {
		case len(q.unkeyed) > 0:
			out[j], taken[q.unkeyed[0]] = q.unkeyed[0], true
			q.unkeyed = q.unkeyed[1:]
		case len(q.keyed) > 0 && !keyed(b[j]):
			out[j], taken[q.keyed[0]] = q.keyed[0], true
			q.keyed = q.keyed[1:]
		}
	}
	// Similar ones, in the runs between paired messages.
	var runA, runB []int
	budget := pairBudget
	next := 0 // in a
	flush := func() {
		pairSimilar(a, b, runA, runB, out, pairable, &budget)
		runA, runB = runA[:0], runB[:0]
	}
	for j := range b {
		if i := out[j]; i >= 0 {
			if i >= next {
				for ; next < i; next++ {
					if !taken[next] {
						runA = append(runA, next)
					}
				}
				flush()
				next = i + 1
			}
			continue
		}
		runB = append(runB, j)
	}
	for ; next < len(a); next++ {
		if !taken[next] {
			runA = append(runA, next)
		}
	}
	flush()
	return out
}

// contentKey identifies a message by kind and content.
func contentKey(m *Message) string { return string(m.Kind) + "\x00" + m.Content }

// pairSimilar pairs, in order, messages of run ra (indexes into a) with
// messages of run rb (into b): position by position when the runs have
// the same length and kinds (messages edited in place), else those of
// the same kind and similar content.
func pairSimilar(a, b []*Message, ra, rb []int, out []int, pairable func(i, j int) bool, budget *int) {
	if len(ra) == 0 || len(rb) == 0 {
		return
	}
	if len(ra) == len(rb) {
		// As many on both sides, kind by kind: edited in place.
		inPlace := true
		for k := range ra {
			if a[ra[k]].Kind != b[rb[k]].Kind || out[rb[k]] >= 0 || !pairable(ra[k], rb[k]) {
				inPlace = false
				break
			}
		}
		if inPlace {
			for k := range ra {
				out[rb[k]] = ra[k]
			}
			return
		}
	}
	tries := 0
	next := 0
	for _, i := range ra {
		best, bestK := 0.0, -1
		for k := next; k < len(rb) && tries < maxPairTries; k++ {
			j := rb[k]
			tries++ // a look costs too (runs of other kinds)
			if out[j] >= 0 || a[i].Kind != b[j].Kind || !pairable(i, j) {
				continue
			}
			if *budget <= 0 {
				break
			}
			*budget -= 2 + strings.Count(a[i].Content, "\n") + strings.Count(b[j].Content, "\n")
			if s := similarity(a[i].Content, b[j].Content); s > best {
				best, bestK = s, k
			}
		}
		if bestK >= 0 && best >= similar {
			out[rb[bestK]] = i
			next = bestK + 1
		}
	}
}

// similarity scores how alike two texts are, from 0 to 1, by the lines
// they share (c, counted as multisets: order aside, so the cost is linear):
// the Dice coefficient 2c/(len x + len y); a text that mostly survives in
// the other (grown or cut around it: c is at least 60% of the shorter's
// lines, and Dice at least 0.25) scores at least `similar`. Two empty
// texts score 1.
func similarity(x, y string) float64 {
	lx, ly := textdiff.Lines(x), textdiff.Lines(y)
	if len(lx)+len(ly) == 0 {
		return 1
	}
	count := make(map[string]int, len(lx))
	for _, l := range lx {
		count[l]++
	}
	common := 0
	for _, l := range ly {
		if count[l] > 0 {
			count[l]--
			common++
		}
	}
	dice := 2 * float64(common) / float64(len(lx)+len(ly))
	if n := min(len(lx), len(ly)); n > 0 && dice >= 0.25 {
		if contained := float64(common) / float64(n); contained >= 0.6 {
			return max(dice, min(1, similar*contained/0.6))
		}
	}
	return dice
}
