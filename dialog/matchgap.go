package dialog

import "slices"

// Pairing by place the messages content left unpaired, where ids are made up.

// A message rewritten so that it shares nothing with base's (a one-line
// cell reworded, a cell's code replaced) has no content to pair it by:
// without ids it reads as a deletion and an insertion, so that the other
// side's re-run of it is dropped (deletion beats a re-run) and, where
// both sides rewrote neighbouring messages, the sequence merge sees one
// overlapping change and puts one side's messages after the other's.
// Its place says more: as a line diff takes a line replaced between equal
// lines for that line changed, a message of base between two messages
// paired with the side's (or an end), facing one message of the side of
// its kind between their pairs, is that side's version of it.

// gapPairs is what pairGaps found for one side: weak, for each message of
// the side, whether it is paired by its place alone; open, for each
// message of base, whether it is left unpaired facing messages of the
// side left unpaired too (the side may have rewritten it as one of them).
type gapPairs struct {
	weak []bool
	open []bool
}

// pairGaps pairs, where ids are made up (unkeyed: nil, none are),
// messages of a (base) and b (a side) left unpaired (out: for each
// message of b, its counterpart in a or -1; it changes) by their places,
// kinds told apart as pairKindOf does (text: nil, none has another text).
// A run of unpaired messages of a between two paired ones p and q (or an
// end) faces the run of unpaired messages of b just after p's pair and
// the one just before q's pair (the ends of b for the ends of a): one
// run where p's and q's pairs are neighbours in b as in a (the places
// line up), else the one of the two that holds messages, where the other
// holds none (p or q moved away). Where a run of b faces one run of a
// alone, their messages are paired, in order:
//
//   - a code message of a that has outputs or a count, and the one
//     message of b there with the same outputs and count (no other
//     message of a there has them): kept where it was, its text
//     rewritten;
//   - then, between those, runs of as many messages on both sides, of
//     the same kinds position by position: edited in place;
//   - otherwise each kind of which each side has exactly one message
//     there (pairs keeping their order).
//
// Messages paired so are marked weak (the merge keeps such a pair only
// where the other side did not change the message but by re-running it:
// see keepGapPairs); messages of a left unpaired facing messages of b
// left unpaired (in either run) are marked open.
func pairGaps(a, b []*Message, out []int, unkeyed func(*Message) bool, text func(*Message) string) gapPairs {
	g := gapPairs{weak: make([]bool, len(b)), open: make([]bool, len(a))}
	if unkeyed == nil {
		return g
	}
	pairOf := make([]int, len(a)) // in b, or -1
	for i := range pairOf {
		pairOf[i] = -1
	}
	for j, i := range out {
		if i >= 0 {
			pairOf[i] = j
		}
	}
	// The run of unpaired messages of b after place j (before, back).
	runFrom := func(j, step int) []int {
		var r []int
		for j += step; j >= 0 && j < len(b) && out[j] < 0; j += step {
			r = append(r, j)
		}
		if step < 0 {
			slices.Reverse(r)
		}
		return r
	}
	type gap struct {
		ga, after, before []int // the run of a; the runs of b it faces
		faced             []int // the one it pairs with, or nil
	}
	var gaps []*gap
	claims := map[int]int{} // first index of a run of b → gaps facing it alone
	for i0 := -1; i0 < len(a); {
		i1 := i0 + 1
		for i1 < len(a) && pairOf[i1] < 0 {
			i1++
		}
		if i1 > i0+1 {
			jp, jq := -1, len(b)
			if i0 >= 0 {
				jp = pairOf[i0]
			}
			if i1 < len(a) {
				jq = pairOf[i1]
			}
			gp := &gap{ga: seq(i0+1, i1), after: runFrom(jp, 1), before: runFrom(jq, -1)}
			switch {
			case len(gp.after) == 0:
				gp.faced = gp.before
			case len(gp.before) == 0 || gp.after[0] == gp.before[0]:
				gp.faced = gp.after
			}
			if len(gp.faced) > 0 {
				claims[gp.faced[0]]++
			}
			gaps = append(gaps, gp)
		}
		i0 = i1
	}
	pair := func(j, i int) { out[j], pairOf[i], g.weak[j] = i, j, true }
	for _, gp := range gaps {
		if f := gp.faced; len(f) > 0 && claims[f[0]] == 1 && (allUnkeyed(a, gp.ga, unkeyed) || allUnkeyed(b, f, unkeyed)) {
			fillGap(a, b, gp.ga, f, pair, text)
		}
		left := false
		for _, j := range append(slices.Clip(gp.after), gp.before...) {
			left = left || out[j] < 0
		}
		for _, i := range gp.ga {
			g.open[i] = left && pairOf[i] < 0
		}
	}
	return g
}

// seq is the indexes from i to j (not j).
func seq(i, j int) []int {
	s := make([]int, 0, j-i)
	for ; i < j; i++ {
		s = append(s, i)
	}
	return s
}

// allUnkeyed reports whether every message ms[i], i in is, has a made-up
// id.
func allUnkeyed(ms []*Message, is []int, unkeyed func(*Message) bool) bool {
	for _, i := range is {
		if !unkeyed(ms[i]) {
			return false
		}
	}
	return true
}

// fillGap pairs messages of gap ga (indexes into a) with messages of gap
// gb (into b) as pairGaps says (text: see pairKindOf).
func fillGap(a, b []*Message, ga, gb []int, pair func(j, i int), text func(*Message) string) {
	// By outputs and count kept: pairs in order.
	var pa, pb []int // indexes into ga and gb
	for x, i := range ga {
		if !ranCode(a[i]) {
			continue
		}
		found := -1
		for y, j := range gb {
			if sameRun(a[i], b[j]) {
				if found >= 0 {
					found = -2
					break
				}
				found = y
			}
		}
		if found < 0 || len(pb) > 0 && found <= pb[len(pb)-1] {
			continue
		}
		alone := true
		for x2, i2 := range ga {
			alone = alone && (x2 == x || !sameRun(a[i2], a[i]))
		}
		if alone {
			pa, pb = append(pa, x), append(pb, found)
		}
	}
	x0, y0 := 0, 0
	for k := range pa {
		pair(gb[pb[k]], ga[pa[k]])
		fillByKind(a, b, ga[x0:pa[k]], gb[y0:pb[k]], pair, text)
		x0, y0 = pa[k]+1, pb[k]+1
	}
	fillByKind(a, b, ga[x0:], gb[y0:], pair, text)
}

// fillByKind pairs the messages of ga (into a) with those of gb (into
// b): position by position where both hold as many of the same kinds
// (see pairKindOf) in order; otherwise, in order, the message of each kind that each holds
// exactly one of.
func fillByKind(a, b []*Message, ga, gb []int, pair func(j, i int), text func(*Message) string) {
	if len(ga) == 0 || len(gb) == 0 {
		return
	}
	if len(ga) == len(gb) {
		same := true
		for k := range ga {
			same = same && pairKindOf(a[ga[k]], text) == pairKindOf(b[gb[k]], text)
		}
		if same {
			for k := range ga {
				pair(gb[k], ga[k])
			}
			return
		}
	}
	count := func(ms []*Message, g []int) map[pairKind]int {
		n := map[pairKind]int{}
		for _, i := range g {
			n[pairKindOf(ms[i], text)]++
		}
		return n
	}
	na, nb := count(a, ga), count(b, gb)
	last := -1 // in gb
	for _, i := range ga {
		k := pairKindOf(a[i], text)
		if na[k] != 1 || nb[k] != 1 {
			continue
		}
		for y, j := range gb {
			if pairKindOf(b[j], text) == k {
				if y > last {
					pair(j, i)
					last = y
				}
				break
			}
		}
	}
}

// ranCode reports whether m is a code message that was run: it has
// outputs or an execution count.
func ranCode(m *Message) bool {
	return m.Kind == Code && (len(m.Outputs) > 0 || m.ExecutionCount != nil)
}

// sameRun reports whether y is code with x's outputs and count, x run.
func sameRun(x, y *Message) bool {
	return ranCode(x) && y.Kind == Code && sameCount(x.ExecutionCount, y.ExecutionCount) && sameOutputs(x.Outputs, y.Outputs)
}

// pairKind is a message's kind for the pairings that weigh little
// evidence (by place, by sharing anything): its Kind, and whether the
// caller compares it by another text too (see MergeOptions.PairText).
type pairKind struct {
	kind  Kind
	other bool
}

// pairKindOf is m's pairKind, text (nil: none) giving the other texts: a
// message whose other text is not its Content is of a form of its own in
// its file (for package convert, a version 3 heading, a cell type apart
// from markdown's), which a message of another form is no weak evidence
// of having been.
func pairKindOf(m *Message, text func(*Message) string) pairKind {
	return pairKind{m.Kind, text != nil && text(m) != m.Content}
}
