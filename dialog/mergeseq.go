package dialog

import (
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// The merge of the message sequence: every message of the three versions
// gets a key (matched messages share one), the key sequences are merged
// with diff3, and each surviving key becomes one merged message.

type merger struct {
	opt       MergeOptions
	mk        textdiff.Markers
	es        []*entry // the messages of the merge, by key
	conflicts []Conflict
	metaConfl []Conflict
	first     int // the first conflict of the message being merged
	// markers are the marker outputs of conflicting outputs, made once
	// (outputs never change: every conflict holds the same three).
	markers []Output
}

// derivedOnly reports whether a and b differ at most in derived data
// (outputs other than a prompt's reply, execution count).
func (mg *merger) derivedOnly(a, b *Message) bool {
	x, y := *a, *b
	x.Outputs, x.ExecutionCount, y.Outputs, y.ExecutionCount = nil, nil, nil, nil
	return mg.same(&x, &y) && a.Reply() == b.Reply()
}

// same reports whether two versions of a message are the same.
func (mg *merger) same(a, b *Message) bool {
	return sameMessage(a, b) && (mg.opt.Equal == nil || mg.opt.Equal(a, b))
}

// entry is one message of the merge: its versions (nil where absent),
// or a marker message the merge adds.
type entry struct {
	b, o, t *Message
	bi      int // index in base, or -1
	movedO  bool
	movedT  bool
	// openO and openT report that ours (theirs) may have rewritten base's
	// message as one it added (see pairByPlace).
	openO, openT bool
	// marker is a message holding one conflict marker line, which
	// replaced, when set, reports (see replacedOnBoth).
	marker   *Message
	replaced *Conflict
}

func (mg *merger) merge(base, ours, theirs *Dialog) (*Dialog, []Conflict) {
	bm, om, tm := base.Messages, ours.Messages, theirs.Messages
	mo := matchSides(bm, om, mg.opt.Unkeyed, mg.opt.PairText) // ours index → base index
	mt := matchSides(bm, tm, mg.opt.Unkeyed, mg.opt.PairText)
	mg.unpairRenamedAdded(bm, om, tm, mo, mt)
	mg.pairSameEdits(bm, om, tm, mo, mt)
	mg.pairFurtherEdits(bm, om, tm, mo, mt)
	openO, openT := mg.pairByPlace(bm, om, tm, mo, mt)
	var es []*entry
	keyB := make([]int, len(bm))
	for i, m := range bm {
		keyB[i] = len(es)
		es = append(es, &entry{b: m, bi: i, openO: openO[i], openT: openT[i]})
	}
	keyO := make([]int, len(om))
	for j, m := range om {
		if i := mo[j]; i >= 0 {
			keyO[j] = keyB[i]
			es[keyB[i]].o = m
			continue
		}
		keyO[j] = len(es)
		es = append(es, &entry{o: m, bi: -1})
	}
	// Messages both sides added: matched with each other.
	var addedO []*Message
	var addedOIdx []int
	for j, m := range om {
		if mo[j] < 0 {
			addedO = append(addedO, m)
			addedOIdx = append(addedOIdx, j)
		}
	}
	var addedT []*Message
	var addedTIdx []int
	for k, m := range tm {
		if mt[k] < 0 {
			addedT = append(addedT, m)
			addedTIdx = append(addedTIdx, k)
		}
	}
	both := matchAdded(addedO, addedT, mg.opt.Unkeyed)
	pairRenamed(addedO, addedT, both, mg.opt.Unkeyed, mg.opt.PairText) // one added message, edited or renamed by a side
	keyT := make([]int, len(tm))
	for k, m := range tm {
		if i := mt[k]; i >= 0 {
			keyT[k] = keyB[i]
			es[keyB[i]].t = m
		} else {
			keyT[k] = -1
		}
	}
	for x, y := range both {
		if y >= 0 {
			key := keyO[addedOIdx[y]]
			keyT[addedTIdx[x]] = key
			es[key].t = addedT[x]
		}
	}
	for k, m := range tm {
		if keyT[k] < 0 {
			keyT[k] = len(es)
			es = append(es, &entry{t: m, bi: -1})
		}
	}
	// Moves: base messages kept by a side but out of the order it kept
	// (see moves.kept).
	mv := judgeMoves(keyB, keyO, keyT, len(es))
	ko := keptInOrder(mv, keyB, keyO, 1)
	kt := keptInOrder(mv, keyB, keyT, 2)
	for i := range bm {
		e := es[keyB[i]]
		e.movedO = e.o != nil && ko[i] < 0
		e.movedT = e.t != nil && kt[i] < 0
	}
	mg.es = es
	order := mg.order(keyB, keyO, keyT, ko, kt)
	es = mg.es
	apart := mv.movedApart(keyB, keyO, keyT)

	out := &Dialog{Name: ours.Name, Random: ours.Random}
	taken := make(map[string]bool, len(order))
	for _, key := range order {
		e := es[key]
		if m := mg.entry(e, out, taken); m != nil {
			if at, ok := apart[key]; ok {
				c := Conflict{ID: m.ID, What: movedApartWhat, Base: e.b, Ours: e.o, Theirs: e.t, Values: [3]any{at[0], at[1], at[2]}}
				if at[0] < 0 {
					c.What, c.Values[0] = addedApartWhat, nil
				}
				mg.add(c)
			}
			out.Messages = append(out.Messages, m)
			if mg.opt.Trace != nil {
				mg.opt.Trace(m, e.b, e.o, e.t)
			}
		}
	}
	out.Meta = mg.mergeMeta(base.Meta, ours.Meta, theirs.Meta)
	return out, append(mg.conflicts, mg.metaConfl...)
}

// unpairRenamedAdded unpairs a side's message paired with a base message
// of another id (renamed: see pairRenamed) when the other side added a
// message of that id: an id is an identity, so the side has that added
// message, and deleted the base one. Otherwise the message would be there
// twice, once as the renamed base message (under a new id: its own is
// taken) and once added. mo and mt change.
func (mg *merger) unpairRenamedAdded(bm, om, tm []*Message, mo, mt []int) {
	one := func(xm, ym []*Message, mx, my []int) {
		added := map[string]bool{}
		for k, i := range my {
			if i < 0 && !mg.unkeyed(ym[k]) {
				added[ym[k].ID] = true
			}
		}
		if len(added) == 0 {
			return
		}
		for j, i := range mx {
			if i >= 0 && added[xm[j].ID] && mg.renamedFrom(xm[j], bm[i]) {
				mx[j] = -1
			}
		}
	}
	one(om, tm, mo, mt)
	one(tm, om, mt, mo)
}

// pairSameEdits pairs base messages that one side paired and the other
// did not with a message of the other side left unpaired whose kind and
// text are the first side's version's (ids, where both are identities,
// too): both sides made one edit of the text, which one side's pairing
// found and the other's (in a run of another length between paired
// messages) read as a deletion and an insertion. Otherwise the message
// would be there twice, inserted and in a conflict of the deletion with
// the edit; paired, the rest of both sides' versions merges as any edit.
// Likewise where the other side paired the base message by content with
// a message that is neither base's nor the first side's version (of
// another text): that pairing guessed, and the same edit on both sides
// says more (the message it took is then one the side added; without
// ids, a kind changed reads so: a note made raw on both sides, beside a
// note the other side added). mo and mt (side index → base index)
// change.
func (mg *merger) pairSameEdits(bm, om, tm []*Message, mo, mt []int) {
	one := func(xm, ym []*Message, mx, my []int) {
		inY := make([]int, len(bm)) // y's message of each base message, or -1
		for i := range inY {
			inY[i] = -1
		}
		free := map[string][]int{}
		for k, i := range my {
			if i >= 0 {
				inY[i] = k
			} else {
				key := contentKey(ym[k])
				free[key] = append(free[key], k)
			}
		}
		if len(free) == 0 {
			return
		}
		for j, i := range mx {
			if i < 0 {
				continue
			}
			x := xm[j]
			key := contentKey(x)
			if k := inY[i]; k >= 0 {
				if y := ym[k]; key == contentKey(bm[i]) || contentKey(y) == key || contentKey(y) == contentKey(bm[i]) || !mg.unkeyed(y) || !mg.unkeyed(bm[i]) {
					continue // (y's pairing is no guess)
				}
			}
			for n, k := range free[key] {
				if y := ym[k]; x.ID == y.ID || mg.unkeyed(x) || mg.unkeyed(y) {
					if old := inY[i]; old >= 0 {
						my[old] = -1
					}
					my[k], inY[i] = i, k
					free[key] = append(free[key][:n:n], free[key][n+1:]...)
					break
				}
			}
		}
	}
	one(om, tm, mo, mt)
	one(tm, om, mt, mo)
}

// pairFurtherEdits pairs base messages that one side (x) paired and the
// other (y) did not with a message of y left unpaired, in the same run
// between y's paired messages, of the kind of x's version and similar to
// it (at least `similar`, the most similar, in order; ids as in
// pairSameEdits): y edited the message further than x did (x's edit and
// more), so that y's version is alike x's while too far from base's for
// y's own pairing. Otherwise the message would be there twice, y's
// version inserted and x's in a conflict of the deletion with the edit;
// paired, both sides' versions merge as any edit. mo and mt (side index
// → base index) change. The comparisons are bounded by pairBudget and
// maxPairTries.
func (mg *merger) pairFurtherEdits(bm, om, tm []*Message, mo, mt []int) {
	budget, tries := pairBudget, 0
	one := func(xm, ym []*Message, mx, my []int) {
		verX := make([]*Message, len(bm)) // x's version of each base message
		for j, i := range mx {
			if i >= 0 {
				verX[i] = xm[j]
			}
		}
		inY := make([]bool, len(bm))
		for _, i := range my {
			if i >= 0 {
				inY[i] = true
			}
		}
		var runA, runB []int
		flush := func() {
			defer func() { runA, runB = runA[:0], runB[:0] }()
			next := 0
			for _, i := range runA {
				x := verX[i]
				best, bestK := 0.0, -1
				for k := next; k < len(runB) && tries < maxPairTries && budget > 0; k++ {
					y := ym[runB[k]]
					tries++
					if my[runB[k]] >= 0 || y.Kind != x.Kind || !(x.ID == y.ID || mg.unkeyed(x) || mg.unkeyed(y)) {
						continue
					}
					if s := compared(similarity, mg.opt.PairText, x, y, &budget); s > best {
						best, bestK = s, k
					}
				}
				if bestK >= 0 && best >= similar {
					my[runB[bestK]], inY[i] = i, true
					next = bestK + 1
				}
			}
		}
		nextA := 0
		collect := func(upto int) {
			for ; nextA < upto; nextA++ {
				if !inY[nextA] && verX[nextA] != nil {
					runA = append(runA, nextA)
				}
			}
		}
		for k, i := range my {
			switch {
			case i < 0:
				runB = append(runB, k)
			case i >= nextA:
				collect(i)
				flush()
				nextA = i + 1
			}
		}
		collect(len(bm))
		flush()
	}
	one(om, tm, mo, mt)
	one(tm, om, mt, mo)
}

// matchAdded pairs messages theirs added (b) with messages ours added (a):
// by id, or for unkeyed ones by equal kind and content.
func matchAdded(a, b []*Message, unkeyed func(*Message) bool) []int {
	out := make([]int, len(b))
	byID := map[string]int{}
	byContent := map[string][]int{}
	for i, m := range a {
		if unkeyed != nil && unkeyed(m) {
			k := contentKey(m)
			byContent[k] = append(byContent[k], i)
		} else {
			byID[m.ID] = i
		}
	}
	used := make([]bool, len(a))
	for j, m := range b {
		out[j] = -1
		if unkeyed != nil && unkeyed(m) {
			k := contentKey(m)
			if l := byContent[k]; len(l) > 0 { // a queue: taken in order
				out[j], used[l[0]] = l[0], true
				byContent[k] = l[1:]
			}
			continue
		}
		if i, ok := byID[m.ID]; ok && !used[i] {
			out[j], used[i] = i, true
		}
	}
	return out
}

// survives reports whether an entry is in the merge: not deleted, or
// deleted on one side while the other side edited it (re-running it is no
// edit: its outputs and count are derived data, whatever the output
// strategy; but where the side that deleted it may have rewritten it, see
// rewrittenRerun, a re-run is kept).
func (mg *merger) survives(e *entry) bool {
	if e.b == nil || e.marker != nil {
		return true
	}
	switch {
	case e.o != nil && e.t != nil:
		return true
	case e.o != nil:
		return mg.renamedFrom(e.o, e.b) || !mg.same(e.o, e.b) && !mg.derivedOnly(e.o, e.b) || mg.rewrittenRerun(e.openT, e.b, e.o)
	case e.t != nil:
		return mg.renamedFrom(e.t, e.b) || !mg.same(e.t, e.b) && !mg.derivedOnly(e.t, e.b) || mg.rewrittenRerun(e.openO, e.b, e.t)
	}
	return false
}

// renamedFrom reports whether m is base message b with another id of its
// own (an edit), not one made up.
func (mg *merger) renamedFrom(m, b *Message) bool {
	return m.ID != b.ID && !mg.unkeyed(m) && !mg.unkeyed(b)
}

// order merges the key sequences: each key once, where the side that
// moved it put it (ours when both did: a conflict when theirs put it
// elsewhere, see movedApart).
func (mg *merger) order(kb, ko, kt []int, mo, mt []int) []int {
	slots := mg.mergedSlots(kb, ko, kt, mo, mt)
	order, placed := mg.placeInSlots(mg.es, slots)
	return mg.placeUnslotted(mg.es, order, placed, ko, kt)
}

// slotSide says which side's sequence a slot comes from.
type slotSide int

const (
	fromBoth slotSide = iota
	fromOurs
	fromTheirs
)

// slot is one place of the merged key sequence; a key may have one slot
// per side.
type slot struct {
	key  int
	from slotSide
}

// mergedSlots merges the key sequences with diff3: stable and equal
// chunks once; a conflicting chunk as ours' keys with theirs' that ours
// lacks among them, each after the key both hold that precedes it on
// theirs (after ours' keys there), or, when both sides replaced messages
// there (see replacedOnBoth), ours then theirs' keys ours lacks, between
// marker messages. Marker messages are added to *es.
func (mg *merger) mergedSlots(kb, ko, kt []int, mo, mt []int) []slot {
	var slots []slot
	add := func(keys []int, from slotSide) {
		for _, k := range keys {
			slots = append(slots, slot{k, from})
		}
	}
	for _, c := range textdiff.Merge3Matched(kb, ko, kt, mo, mt) {
		switch {
		case c.Stable, c.Same:
			add(c.Ours, fromBoth)
		case c.OursOnly:
			add(c.Ours, fromOurs)
		case c.TheirsOnly:
			add(c.Theirs, fromTheirs)
		default:
			in := make(map[int]bool, len(c.Ours))
			for _, k := range c.Ours {
				in[k] = true
			}
			if mg.replacedOnBoth(c.Base, c.Ours, c.Theirs) {
				slots = append(slots, mg.markerSlot('<', mg.mk.Ours, len(c.Base)))
				add(c.Ours, fromOurs)
				slots = append(slots, mg.markerSlot('=', "", 0))
				for _, k := range c.Theirs {
					if !in[k] {
						slots = append(slots, slot{k, fromTheirs})
					}
				}
				slots = append(slots, mg.markerSlot('>', mg.mk.Theirs, 0))
				continue
			}
			// Interleaved where both sides hold a key: between two
			// such keys, ours' others first, then theirs'.
			m := textdiff.MatchAnchored(c.Ours, c.Theirs)
			j := 0
			theirsUpTo := func(end int) {
				for ; j < end; j++ {
					if k := c.Theirs[j]; !in[k] {
						slots = append(slots, slot{k, fromTheirs})
					}
				}
			}
			for i, k := range c.Ours {
				if m[i] >= 0 {
					theirsUpTo(m[i])
					j = m[i] + 1
				}
				slots = append(slots, slot{k, fromOurs})
			}
			theirsUpTo(len(c.Theirs))
		}
	}
	return slots
}

// replacedOnBoth reports whether, in a conflicting chunk of the merge of
// the key sequences, both sides replaced messages: each deleted messages
// of base the other deleted too, and added messages of its own there.
// The merge keeps both sides' new messages, ours' then theirs', between
// raw messages holding conflict marker lines.
func (mg *merger) replacedOnBoth(base, ours, theirs []int) bool {
	es := mg.es
	deletedOnBoth := false
	for _, k := range base {
		if e := es[k]; e.o == nil && e.t == nil {
			deletedOnBoth = true
			break
		}
	}
	addedBy := func(keys []int, ours bool) bool {
		for _, k := range keys {
			if e := es[k]; e.b == nil && (ours && e.t == nil || !ours && e.o == nil) {
				return true
			}
		}
		return false
	}
	return deletedOnBoth && addedBy(ours, true) && addedBy(theirs, false)
}

// markerSlot adds an entry for a raw message holding one conflict marker
// line (the opening one reporting the conflict, replacing n messages of
// base) and returns its slot.
func (mg *merger) markerSlot(c byte, label string, n int) slot {
	line := markerLine(mg.mk.Size, c, label)
	e := &entry{bi: -1, marker: &Message{Kind: Raw, Content: line}}
	if c == '<' {
		e.replaced = &Conflict{What: "replaced on both sides", InText: true}
	}
	mg.es = append(mg.es, e)
	return slot{key: len(mg.es) - 1, from: fromOurs}
}

// wantedSide is, for each entry, the side whose slot places it: the side
// that moved or added it (ours when both did), or -1 for any.
func wantedSide(es []*entry) []slotSide {
	want := make([]slotSide, len(es))
	for k, e := range es {
		switch {
		case e.movedO || e.b == nil && e.o != nil:
			want[k] = fromOurs
		case e.movedT || e.b == nil:
			want[k] = fromTheirs
		default:
			want[k] = -1 // any
		}
	}
	return want
}

// placeInSlots chooses one slot for each surviving key (its first, unless
// a later one is from the side it wants and the first is not) and returns
// the keys in the order of their chosen slots.
func (mg *merger) placeInSlots(es []*entry, slots []slot) (order []int, placed []bool) {
	want := wantedSide(es)
	chosen := make([]int, len(es))
	for k := range chosen {
		chosen[k] = -1
	}
	better := func(s slot) bool {
		w := want[s.key]
		return w >= 0 && slots[chosen[s.key]].from != w && (s.from == w || s.from == fromBoth)
	}
	for x, s := range slots {
		if mg.survives(es[s.key]) && (chosen[s.key] < 0 || better(s)) {
			chosen[s.key] = x
		}
	}
	placed = make([]bool, len(es))
	for x, s := range slots {
		if chosen[s.key] == x && !placed[s.key] {
			order = append(order, s.key)
			placed[s.key] = true
		}
	}
	return order, placed
}

// placeUnslotted adds the survivors no slot placed (deleted by one side,
// edited by the other) to order: after the message that precedes them on
// the side that kept them.
func (mg *merger) placeUnslotted(es []*entry, order []int, placed []bool, ko, kt []int) []int {
	after := map[int][]int{}                 // placed key (-1: the start) → survivors
	anchors := func(seq []int) map[int]int { // key → last placed key before it
		m := make(map[int]int, len(seq))
		last := -1
		for _, key := range seq {
			m[key] = last
			if placed[key] {
				last = key
			}
		}
		return m
	}
	var beforeO, beforeT map[int]int
	for k, e := range es {
		if placed[k] || !mg.survives(e) {
			continue
		}
		if beforeO == nil {
			beforeO, beforeT = anchors(ko), anchors(kt)
		}
		anchor := beforeT[k]
		if e.t == nil {
			anchor = beforeO[k]
		}
		after[anchor] = append(after[anchor], k)
	}
	if len(after) == 0 {
		return order
	}
	out := make([]int, 0, len(order)+len(after))
	out = append(out, after[-1]...)
	for _, key := range order {
		out = append(out, key)
		out = append(out, after[key]...)
	}
	return out
}
