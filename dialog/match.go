package dialog

import (
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Matching messages of two versions of a dialog: by id where ids are
// identities, otherwise by aligning contents (equal messages first, then
// similar ones of the same kind between them).

// compared scores how alike messages x and y are by f of their Contents,
// or, where text (see MergeOptions.PairText; nil: none) gives either of
// them another text, by the more of that and f of the texts text gives;
// the bytes compared are taken from budget.
func compared(f func(x, y string) float64, text func(*Message) string, x, y *Message, budget *int) float64 {
	*budget -= 2 + len(x.Content) + len(y.Content)
	s := f(x.Content, y.Content)
	if text != nil {
		if tx, ty := text(x), text(y); tx != x.Content || ty != y.Content {
			*budget -= len(tx) + len(ty)
			s = max(s, f(tx, ty))
		}
	}
	return s
}

// similar is the least line similarity (2·common lines / all lines) for
// two different messages to be taken as one edited message.
const similar = 0.5

// pairBudget bounds the work of pairing similar messages in one match:
// the bytes of the texts compared (each comparison is linear in them),
// summed. Past it, messages still unpaired stay unpaired (deleted and
// added).
const pairBudget = 1 << 26

// maxPairTries bounds the candidates looked at (and so the similarity
// comparisons made) in one run of unmatched messages.
const maxPairTries = 1 << 14

// match pairs the messages of b with those of a: it returns, for each
// message of b, the index of its counterpart in a, or -1. Messages are
// paired by id first; unless every message is keyed, the rest by content:
// equal messages in their common order, equal messages moved, then
// similar messages of the same kind in the runs between those paired.
func match(a, b []*Message, unkeyed func(*Message) bool, text func(*Message) string) []int {
	m := &matcher{a: a, b: b, unkeyed: unkeyed, text: text, out: make([]int, len(b)), taken: make([]bool, len(a))}
	for i := range m.out {
		m.out[i] = -1
	}
	if allKeyed := m.byID(); allKeyed {
		return m.out
	}
	m.unmatched()
	m.equalInOrder()
	m.equalMoved()
	m.similarInRuns()
	return m.out
}

// matcher holds one match under way.
type matcher struct {
	a, b    []*Message
	unkeyed func(*Message) bool
	text    func(*Message) string // the other texts compared (see compared)
	out     []int                 // for each message of b, its counterpart in a or -1
	taken   []bool                // for each message of a, whether it is paired
	// The messages left unmatched by id (indexes into a and b) and their
	// content keys.
	ra, rb []int
	ka, kb []string
}

// keyed reports whether x's id is an identity.
func (m *matcher) keyed(x *Message) bool { return m.unkeyed == nil || !m.unkeyed(x) }

// pairable reports whether a[i] and b[j] may be paired by content: not
// both keyed (two different ids are two messages).
func (m *matcher) pairable(i, j int) bool { return !m.keyed(m.a[i]) || !m.keyed(m.b[j]) }

func (m *matcher) pair(j, i int) { m.out[j], m.taken[i] = i, true }

// byID pairs keyed messages with the same id (the first of a repeated id
// in a) and reports whether every message is keyed.
func (m *matcher) byID() (allKeyed bool) {
	byID := make(map[string]int, len(m.a))
	allKeyed = true
	for i, x := range m.a {
		if !m.keyed(x) {
			allKeyed = false
			continue
		}
		if _, dup := byID[x.ID]; !dup {
			byID[x.ID] = i
		}
	}
	for j, x := range m.b {
		if !m.keyed(x) {
			allKeyed = false
			continue
		}
		if i, ok := byID[x.ID]; ok && !m.taken[i] {
			m.pair(j, i)
		}
	}
	return allKeyed
}

// unmatched lists the messages still unmatched and their content keys.
func (m *matcher) unmatched() {
	for i := range m.a {
		if !m.taken[i] {
			m.ra = append(m.ra, i)
			m.ka = append(m.ka, contentKey(m.a[i]))
		}
	}
	for j := range m.b {
		if m.out[j] < 0 {
			m.rb = append(m.rb, j)
			m.kb = append(m.kb, contentKey(m.b[j]))
		}
	}
}

// equalInOrder pairs equal messages in their common order (where a
// content repeats in a, those equal in every part first: see
// equalKeys), the messages paired by id in it: of two equal messages of
// a, one before and one after a message paired by id, a message of b
// after that message's pair is paired with the one after it.
func (m *matcher) equalInOrder() {
	ka, kb := m.ka, m.kb
	fa, fb, repeats := m.equalKeys()
	ia, ib := m.ra, m.rb // the places in a and b of the keys
	if len(m.ra) < len(m.a) {
		// Some are paired by id: each pair one key of its own.
		ia, ib = make([]int, len(m.a)), make([]int, len(m.b))
		whole := func(keys []string, places []int, n int, key func(int) string) []string {
			out := make([]string, n)
			for x, i := range places {
				out[i] = keys[x]
			}
			for i := range out {
				if k := key(i); k != "" {
					out[i] = k
				}
			}
			return out
		}
		pairKey := func(i int) string { return "\x01" + strconv.Itoa(i) }
		ofA := func(i int) string {
			if m.taken[i] {
				return pairKey(i)
			}
			return ""
		}
		ofB := func(j int) string {
			if i := m.out[j]; i >= 0 {
				return pairKey(i)
			}
			return ""
		}
		if repeats {
			fa, fb = whole(fa, m.ra, len(m.a), ofA), whole(fb, m.rb, len(m.b), ofB)
		}
		ka, kb = whole(ka, m.ra, len(m.a), ofA), whole(kb, m.rb, len(m.b), ofB)
		for i := range ia {
			ia[i] = i
		}
		for j := range ib {
			ib[j] = j
		}
	}
	matched := func() []int { return textdiff.MatchAnchored(ka, kb) }
	if repeats {
		matched = func() []int { return equalThenContent(fa, fb, ka, kb) }
	}
	for x, y := range matched() {
		if y >= 0 && !m.taken[ia[x]] && m.out[ib[y]] < 0 && m.pairable(ia[x], ib[y]) {
			m.pair(ib[y], ia[x])
		}
	}
}

// equalMoved pairs equal messages out of the common order: moved. Each
// content's candidates are queues (those with made-up ids, and the
// others), so that many equal messages cost no more than few.
func (m *matcher) equalMoved() {
	type queues struct{ unkeyed, keyed []int }
	free := map[string]*queues{}
	for x, i := range m.ra {
		if m.taken[i] {
			continue
		}
		q := free[m.ka[x]]
		if q == nil {
			q = &queues{}
			free[m.ka[x]] = q
		}
		if m.keyed(m.a[i]) {
			q.keyed = append(q.keyed, i)
		} else {
			q.unkeyed = append(q.unkeyed, i)
		}
	}
	for y, j := range m.rb {
		q := free[m.kb[y]]
		if m.out[j] >= 0 || q == nil {
			continue
		}
		switch {
		case len(q.unkeyed) > 0:
			m.pair(j, q.unkeyed[0])
			q.unkeyed = q.unkeyed[1:]
		case len(q.keyed) > 0 && !m.keyed(m.b[j]):
			m.pair(j, q.keyed[0])
			q.keyed = q.keyed[1:]
		}
	}
}

// similarInRuns pairs similar messages in the runs between paired
// messages (see pairSimilar), within pairBudget.
func (m *matcher) similarInRuns() {
	var runA, runB []int
	budget := pairBudget
	next := 0 // in a
	// collect adds the unpaired messages of a before i to runA.
	collect := func(i int) {
		for ; next < i; next++ {
			if !m.taken[next] {
				runA = append(runA, next)
			}
		}
	}
	flush := func() {
		pairSimilar(m.a, m.b, runA, runB, m.out, m.pairable, m.text, &budget)
		runA, runB = runA[:0], runB[:0]
	}
	for j := range m.b {
		i := m.out[j]
		switch {
		case i < 0:
			runB = append(runB, j)
		case i >= next:
			collect(i)
			flush()
			next = i + 1
		}
	}
	collect(len(m.a))
	flush()
}

// contentKey identifies a message by kind and content.
func contentKey(m *Message) string { return string(m.Kind) + "\x00" + m.Content }

// pairSimilar pairs, in order, messages of run ra (indexes into a) with
// messages of run rb (into b): position by position when the runs have
// the same length and each position shares content (similarity above 0)
// and is of the same kind (of one form: see pairKindOf) or similar (messages edited in place, some
// given another kind), else those of equal contents (of any kinds: a
// kind changed), then between them those of the same kind and similar
// content (see pairRun and compared: text gives the other texts
// compared). A message
// replaced by one sharing nothing with it is a deletion and an insertion
// (so that one equal to a message the other side added, or the other
// side's edit of the one deleted, is not merged into it).
func pairSimilar(a, b []*Message, ra, rb []int, out []int, pairable func(i, j int) bool, text func(*Message) string, budget *int) {
	if len(ra) == 0 || len(rb) == 0 {
		return
	}
	if len(ra) == len(rb) {
		// As many on both sides, each pair alike: edited in place.
		// Without it a kind changed in a run of alike messages pairs
		// each with its neighbour. Not where a message's content is
		// another's of the run (of another kind, or equal messages
		// would be paired already): that one, its kind changed, moved.
		inPlace := true
		at := make(map[string]int, len(ra)) // content → place in ra
		for k, i := range ra {
			at[a[i].Content] = k
		}
		for k := range ra {
			x, y := a[ra[k]], b[rb[k]]
			if out[rb[k]] >= 0 || !pairable(ra[k], rb[k]) {
				inPlace = false
				break
			}
			if x.Content == y.Content {
				continue
			}
			if k2, ok := at[y.Content]; ok && k2 != k && pairable(ra[k2], rb[k]) {
				inPlace = false
				break
			}
			if x.Kind == y.Kind && pairKindOf(x, text) != pairKindOf(y, text) {
				inPlace = false // (left to pairRenamed's measure: see pairRun)
				break
			}
			s := compared(similarity, text, x, y, budget)
			if *budget <= 0 || s == 0 || x.Kind != y.Kind && s < similar {
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
	pairRun(a, b, ra, rb, out, nil, pairable, true, similarity, text, &tries, budget)
}

// pairAloneInRuns pairs, after every other pairing (moved messages too:
// stronger evidence), the messages still unpaired in the runs between
// paired ones by pairAlone, where ids are made up (unkeyed: nil, none
// are). out: for each message of b, its counterpart in a or -1.
func pairAloneInRuns(a, b []*Message, out []int, unkeyed func(*Message) bool, text func(*Message) string) {
	if unkeyed == nil {
		return
	}
	taken := make([]bool, len(a))
	for _, i := range out {
		if i >= 0 {
			taken[i] = true
		}
	}
	pairable := func(i, j int) bool { return unkeyed(a[i]) || unkeyed(b[j]) }
	budget := pairBudget
	var runA, runB []int
	next := 0
	collect := func(i int) {
		for ; next < i; next++ {
			if !taken[next] {
				runA = append(runA, next)
			}
		}
	}
	flush := func() {
		if len(runA) > 0 && len(runB) > 0 {
			pairAlone(a, b, runA, runB, out, pairable, text, &budget)
		}
		runA, runB = runA[:0], runB[:0]
	}
	for j := range b {
		switch i := out[j]; {
		case i < 0:
			runB = append(runB, j)
		case i >= next:
			collect(i)
			flush()
			next = i + 1
		}
	}
	collect(len(a))
	flush()
}

// pairAlone pairs each message of run ra left unpaired that is the only
// one of its kind there with the one message of run rb of that kind left
// unpaired that shares anything with it but blank lines (see sharing),
// (kinds as pairKindOf tells them apart), when there is exactly one and
// not both have ids of their own: the side
// edited it, however much (a cell whose one line beside its first was
// rewritten and another added is as much deleted as kept by its lines).
// Several such, or none, and it stays unpaired (deleted).
func pairAlone(a, b []*Message, ra, rb []int, out []int, pairable func(i, j int) bool, text func(*Message) string, budget *int) {
	paired := map[int]bool{}
	for _, j := range rb {
		if out[j] >= 0 {
			paired[out[j]] = true
		}
	}
	kinds := map[pairKind]int{} // kind → the unpaired messages of ra of it
	for _, i := range ra {
		if !paired[i] {
			kinds[pairKindOf(a[i], text)]++
		}
	}
	for _, i := range ra {
		k := pairKindOf(a[i], text)
		if paired[i] || kinds[k] != 1 {
			continue
		}
		found := -1
		for _, j := range rb {
			if out[j] >= 0 || k != pairKindOf(b[j], text) || !pairable(i, j) || *budget <= 0 {
				continue
			}
			if compared(sharing, text, a[i], b[j], budget) > 0 {
				if found >= 0 {
					found = -2
					break
				}
				found = j
			}
		}
		if found >= 0 {
			out[found] = i
		}
	}
}

// pairRun pairs, in order, messages of run ra (indexes into a) with
// messages of run rb (into b) left unpaired (out: for each message of b,
// its counterpart in a or -1; taken, unless nil: for each of a, whether
// it is paired): those of equal contents first, whatever their kinds (a
// kind changed: no likeness of another message beats a message's own
// text), then between those, for each message of ra, the message of rb
// (pairable, and of its kind and form where sameKind: see pairKindOf; a
// message of another form, a version 3 heading and a markdown cell, is
// left to a measure without byte triples, which formulaic texts share)
// that f rates highest (see
// compared), at least `similar`. tries and budget bound the work
// (maxPairTries looks; bytes compared).
func pairRun(a, b []*Message, ra, rb []int, out []int, taken []bool, pairable func(i, j int) bool, sameKind bool,
	f func(x, y string) float64, text func(*Message) string, tries, budget *int) {
	pair := func(j, i int) {
		out[j] = i
		if taken != nil {
			taken[i] = true
		}
	}
	byContent := map[string][]int{} // content → indexes into rb, in order
	for k, j := range rb {
		if out[j] < 0 {
			byContent[b[j].Content] = append(byContent[b[j].Content], k)
		}
	}
	equal := make([]int, len(ra)) // index in rb, or -1
	next := 0
	for x, i := range ra {
		equal[x] = -1
		q := byContent[a[i].Content]
		for len(q) > 0 && q[0] < next {
			q = q[1:] // (before the last pair: never again)
		}
		byContent[a[i].Content] = q
		for n, k := range q {
			if pairable(i, rb[k]) {
				equal[x], next = k, k+1
				byContent[a[i].Content] = q[n+1:]
				break
			}
			if *tries++; *tries >= maxPairTries {
				break
			}
		}
	}
	// Between equal pairs, the most alike: segments of ra and rb.
	candidate := func(i, j int) bool {
		return out[j] < 0 && (!sameKind || pairKindOf(a[i], text) == pairKindOf(b[j], text)) && pairable(i, j)
	}
	var seg []int // indexes into ra
	k0 := 0       // the segment's first index in rb
	flush := func(k1 int) {
		if len(seg) > 0 && k1 > k0 {
			alignAlike(a, b, ra, rb, seg, k0, k1, pair, candidate, f, text, tries, budget)
		}
		seg = seg[:0]
	}
	for x := range ra {
		if equal[x] < 0 {
			seg = append(seg, x)
			continue
		}
		flush(equal[x])
		pair(rb[equal[x]], ra[x])
		k0 = equal[x] + 1
	}
	flush(len(rb))
}

// alignAlike pairs messages ra[x] (x in seg, in order) with messages
// rb[k0:k1], in order, so that the pairs' scores (f, see compared; a
// pair scores at least `similar`) sum to the most: a message is paired
// with the one most like it, not with the first alike one (a message
// that holds another's lines is alike it, and so is that message's own
// edit). Where the comparisons would pass the tries left, each message
// in turn takes the most alike after the one before it took.
func alignAlike(a, b []*Message, ra, rb, seg []int, k0, k1 int, pair func(j, i int), candidate func(i, j int) bool,
	f func(x, y string) float64, text func(*Message) string, tries, budget *int) {
	n, m := len(seg), k1-k0
	score := func(x, k int) float64 {
		i, j := ra[seg[x]], rb[k0+k]
		*tries++ // a look costs too (runs of other kinds)
		if !candidate(i, j) || *budget <= 0 {
			return 0
		}
		if s := compared(f, text, a[i], b[j], budget); s >= similar {
			return s
		}
		return 0
	}
	if n*m > maxPairTries-*tries {
		next := 0
		for x := range seg {
			best, bestK := 0.0, -1
			for k := next; k < m && *tries < maxPairTries && *budget > 0; k++ {
				if s := score(x, k); s > best {
					best, bestK = s, k
				}
			}
			if bestK >= 0 {
				pair(rb[k0+bestK], ra[seg[x]])
				next = bestK + 1
			}
		}
		return
	}
	s := make([]float64, n*m)
	for x := range n {
		for k := range m {
			s[x*m+k] = score(x, k)
		}
	}
	// d[x][k]: the best sum pairing seg[:x] with rb[k0:k0+k]
	d := make([]float64, (n+1)*(m+1))
	at := func(x, k int) *float64 { return &d[x*(m+1)+k] }
	for x := 1; x <= n; x++ {
		for k := 1; k <= m; k++ {
			v := max(*at(x-1, k), *at(x, k-1))
			if sc := s[(x-1)*m+k-1]; sc > 0 {
				v = max(v, *at(x-1, k-1)+sc)
			}
			*at(x, k) = v
		}
	}
	for x, k := n, m; x > 0 && k > 0; {
		switch sc := s[(x-1)*m+k-1]; {
		case sc > 0 && *at(x, k) == *at(x-1, k-1)+sc:
			pair(rb[k0+k-1], ra[seg[x-1]])
			x, k = x-1, k-1
		case *at(x, k) == *at(x-1, k):
			x--
		default:
			k--
		}
	}
}

// sharing is similarity of the texts without their blank lines (which
// any two texts of paragraphs share).
func sharing(x, y string) float64 {
	return similarity(withoutBlankLines(x), withoutBlankLines(y))
}

// withoutBlankLines is s without its lines that are blank or spaces.
func withoutBlankLines(s string) string {
	var b strings.Builder
	for _, l := range textdiff.Lines(s) {
		if strings.TrimSpace(l) != "" {
			b.WriteString(l)
		}
	}
	return b.String()
}
