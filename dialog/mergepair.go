package dialog

import (
	"strings"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Pairing, for merges and diffs, the messages match leaves unpaired that
// are still one message edited: a message whose id one side changed (as
// git pairs a renamed file with its old name by content), and a message
// of a notebook without ids whose kind one side changed. Both are paired
// by content, in the runs between messages already paired, as match
// pairs similar messages of one kind: otherwise the edit would read as a
// deletion and an insertion, and the other side's edit of the message
// would be kept beside the new one (a copy).

// matchSides is match, then pairRenamed, pairMovedOverWeak and
// pairAloneInRuns; text (nil: none) gives the other texts compared (see
// compared).
func matchSides(a, b []*Message, unkeyed func(*Message) bool, text func(*Message) string) []int {
	out := match(a, b, unkeyed, text)
	pairRenamed(a, b, out, unkeyed, text)
	pairMovedOverWeak(a, b, out, unkeyed, text)
	pairAloneInRuns(a, b, out, unkeyed, text)
	return out
}

// inPlace reports whether runs ra and rb (of a and b) are one message
// edited in place each: as many on both sides, pairable position by
// position, each pair sharing a line (and of one kind, but where an id
// is made up: a kind changed).
func inPlace(a, b []*Message, ra, rb []int, pairable func(i, j int) bool, unkeyedPair func(x, y *Message) bool, text func(*Message) string, budget *int) bool {
	if len(ra) != len(rb) || len(ra) == 0 {
		return false
	}
	for k := range ra {
		x, y := a[ra[k]], b[rb[k]]
		if x.Kind != y.Kind && !unkeyedPair(x, y) || !pairable(ra[k], rb[k]) || *budget <= 0 {
			return false
		}
		if x.Content == y.Content {
			*budget -= 2 + len(x.Content) + len(y.Content)
		} else if compared(alike, text, x, y, budget) == 0 {
			return false
		}
	}
	return true
}

// pairRenamed pairs unpaired messages of b with unpaired ones of a (out:
// for each message of b, its counterpart in a or -1) when they have
// different ids, or one's id is made up (of any kinds: a kind changed),
// and their contents are alike: runs (between paired messages) of as many
// on both sides sharing a line position by position, as messages edited
// in place; otherwise in a run equal contents, then between them the
// most similar (at least `similar`), in order (see pairRun); then equal
// contents anywhere (moved too); within pairBudget.
// Texts are compared as compared does, text (nil: none) giving the others.
func pairRenamed(a, b []*Message, out []int, unkeyed func(*Message) bool, text func(*Message) string) {
	keyed := func(m *Message) bool { return unkeyed == nil || !unkeyed(m) }
	taken := make([]bool, len(a))
	for _, i := range out {
		if i >= 0 {
			taken[i] = true
		}
	}
	unkeyedPair := func(x, y *Message) bool { return !keyed(x) || !keyed(y) }
	pairable := func(i, j int) bool {
		x, y := a[i], b[j]
		return !keyed(x) || !keyed(y) || x.ID != y.ID
	}
	budget, tries := pairBudget, 0
	var runA, runB []int
	flush := func() {
		defer func() { runA, runB = runA[:0], runB[:0] }()
		if inPlace(a, b, runA, runB, pairable, unkeyedPair, text, &budget) {
			for k, i := range runA {
				out[runB[k]], taken[i] = i, true
			}
			return
		}
		pairRun(a, b, runA, runB, out, taken, pairable, false, alike, text, &tries, &budget)
	}
	nextA := 0
	collect := func(upto int) {
		for ; nextA < upto; nextA++ {
			if !taken[nextA] {
				runA = append(runA, nextA)
			}
		}
	}
	for j := range b {
		switch i := out[j]; {
		case i < 0:
			runB = append(runB, j)
		case i >= nextA:
			collect(i)
			flush()
			nextA = i + 1
		}
	}
	collect(len(a))
	flush()
	// Moved as well: equal contents anywhere.
	byContent := map[string][]int{}
	for i := range a {
		if !taken[i] {
			byContent[a[i].Content] = append(byContent[a[i].Content], i)
		}
	}
	var restB []int
	for j := range b {
		if out[j] >= 0 {
			continue
		}
		q := byContent[b[j].Content]
		paired := false
		for k, i := range q {
			if !taken[i] && pairable(i, j) {
				out[j], taken[i], paired = i, true, true
				byContent[b[j].Content] = append(q[:k:k], q[k+1:]...)
				break
			}
		}
		if !paired {
			restB = append(restB, j)
		}
	}
	// Moved and edited: the most similar anywhere, in order.
	var restA []int
	for i := range a {
		if !taken[i] {
			restA = append(restA, i)
		}
	}
	runA, runB = restA, restB
	flush()
}

// alike is similarity with lines compared without their line ends: the
// last line of a text gains one when a line is added after it.
func alike(x, y string) float64 {
	count := func(s string) (map[string]int, int) {
		m := map[string]int{}
		n := 0
		for _, l := range textdiff.Lines(s) {
			m[strings.TrimRight(l, "\r\n")]++
			n++
		}
		return m, n
	}
	mx, nx := count(x)
	my, ny := count(y)
	if nx+ny == 0 {
		return 1
	}
	common := 0
	for l, c := range mx {
		common += min(c, my[l])
	}
	dice := 2 * float64(common) / float64(nx+ny)
	if n := min(nx, ny); n > 0 && dice >= 0.25 {
		if contained := float64(common) / float64(n); contained >= 0.6 {
			return max(dice, min(1, similar*contained/0.6))
		}
	}
	if nx == 1 || ny == 1 {
		return max(dice, oneLineAlike(x, y))
	}
	return dice
}

// oneLineAlike scores a text of one line against another by what lines
// cannot show: a line that holds the other text whole at its ends (text
// added inside it or at its ends: 2n/(len x + len y), n the shorter's
// bytes), or holds the other, one line, whole as a run of words (bounded
// by spaces or its ends; 2n/(len x + len y) too), or, against a text of
// several lines, holds some of those lines whole, each as a run of words
// (the form a version 3 heading's lines take in its one markdown line;
// 2m/(len x + len y), m the bytes of the lines found). 0 when none holds.
func oneLineAlike(x, y string) float64 {
	x, y = strings.TrimRight(x, "\r\n"), strings.TrimRight(y, "\r\n")
	if len(x) > len(y) {
		x, y = y, x
	}
	total := float64(len(x) + len(y))
	if len(x) > 0 && strings.HasPrefix(y, x[:prefixLen(x, y)]) && strings.HasSuffix(y, x[prefixLen(x, y):]) {
		return 2 * float64(len(x)) / total
	}
	one, many := x, y
	if strings.Contains(one, "\n") {
		one, many = y, x
	}
	if strings.Contains(one, "\n") {
		return 0
	}
	if !strings.Contains(many, "\n") {
		// Both one line: the shorter held whole as a run of words
		// inside the longer (a text that was one of the lines of a
		// version 3 heading, in its one markdown line).
		if w := strings.TrimSpace(x); w != "" && holdsWords(y, w) {
			return 2 * float64(len(w)) / total
		}
		return 0
	}
	found := 0
	for _, l := range textdiff.Lines(many) {
		l = strings.TrimSpace(l)
		if l != "" && holdsWords(one, l) {
			found += len(l)
		}
	}
	return 2 * float64(found) / total
}

// prefixLen is the length of the common beginning of x and y.
func prefixLen(x, y string) int {
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	return n
}

// holdsWords reports whether s holds w as a run of whole words: bounded
// by spaces or s's ends.
func holdsWords(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(w)
		if (k == 0 || s[k-1] == ' ') && (end == len(s) || s[end] == ' ') {
			return true
		}
		i = k + 1
	}
}

// pairMovedOverWeak re-pairs a message of a and one of b paired in place
// while barely alike (similarity under `similar`: runs of as many
// messages on both sides, sharing anything) where a message left
// unpaired elsewhere is like one of them (at least `similar`; the most
// alike): a message of b like a's, a's message moved and edited there
// (the one in its old place is new); a message of a like b's, b's message
// is that one moved (and a's deleted). Otherwise the moved message would
// be a copy, or a deletion, beside the other side's version merged into
// the wrong one. Ids made up only (unkeyed: nil, none are); within
// pairBudget.
func pairMovedOverWeak(a, b []*Message, out []int, unkeyed func(*Message) bool, text func(*Message) string) {
	if unkeyed == nil {
		return
	}
	taken := make([]bool, len(a))
	var freeB []int // unpaired messages of b
	for j, i := range out {
		if i >= 0 {
			taken[i] = true
		} else if unkeyed(b[j]) {
			freeB = append(freeB, j)
		}
	}
	var freeA []int // unpaired messages of a
	for i := range a {
		if !taken[i] && unkeyed(a[i]) {
			freeA = append(freeA, i)
		}
	}
	if len(freeA) == 0 && len(freeB) == 0 {
		return
	}
	budget, tries := pairBudget, 0
	// best returns the index in free of the message most like m (scored
	// by like), at least `similar` and above floor, or -1.
	best := func(m *Message, free []int, msgs []*Message, floor float64) int {
		top, at := floor, -1
		for k, x := range free {
			if tries++; tries > maxPairTries || budget <= 0 {
				return -1
			}
			if x < 0 || msgs[x].Kind != m.Kind {
				continue
			}
			if s := compared(similarity, text, m, msgs[x], &budget); s >= similar && s > top {
				top, at = s, k
			}
		}
		return at
	}
	for j0, i := range out {
		if i < 0 || !unkeyed(a[i]) || a[i].Content == b[j0].Content || a[i].Kind != b[j0].Kind {
			continue
		}
		weak := compared(similarity, text, a[i], b[j0], &budget)
		if weak >= similar {
			continue
		}
		if k := best(a[i], freeB, b, weak); k >= 0 {
			out[freeB[k]], out[j0] = i, -1
			freeB[k] = j0
		} else if k := best(b[j0], freeA, a, weak); k >= 0 {
			out[j0] = freeA[k]
			freeA[k] = i
		}
	}
}
