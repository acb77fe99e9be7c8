package dialog

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
// message of b, its counterpart in a or -1; it changes) in the gaps
// between paired messages that line up: two messages of b paired, with
// none paired between them, whose pairs in a come in that order with
// none paired between them (or the ends of both). In a gap, in order:
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
// see keepGapPairs); messages of a left unpaired in a gap where b has
// messages left unpaired are marked open.
func pairGaps(a, b []*Message, out []int, unkeyed func(*Message) bool) gapPairs {
	g := gapPairs{weak: make([]bool, len(b)), open: make([]bool, len(a))}
	if unkeyed == nil {
		return g
	}
	taken := make([]bool, len(a))
	for _, i := range out {
		if i >= 0 {
			taken[i] = true
		}
	}
	pair := func(j, i int) { out[j], taken[i], g.weak[j] = i, true, true }
	gap := func(i0, i1, j0, j1 int) {
		var ga, gb []int
		for i := i0 + 1; i < i1; i++ {
			if taken[i] || !unkeyed(a[i]) {
				return // a message moved, or one of its own id: no gap
			}
			ga = append(ga, i)
		}
		for j := j0 + 1; j < j1; j++ {
			if !unkeyed(b[j]) {
				return
			}
			gb = append(gb, j)
		}
		if len(ga) == 0 || len(gb) == 0 {
			return
		}
		fillGap(a, b, ga, gb, pair)
		left := false
		for _, j := range gb {
			left = left || out[j] < 0
		}
		for _, i := range ga {
			g.open[i] = left && !taken[i]
		}
	}
	i0, j0 := -1, -1
	for j, i := range out {
		if i < 0 {
			continue
		}
		if i > i0 {
			gap(i0, i, j0, j)
		}
		i0, j0 = i, j
	}
	gap(i0, len(a), j0, len(b))
	return g
}

// fillGap pairs messages of gap ga (indexes into a) with messages of gap
// gb (into b) as pairGaps says.
func fillGap(a, b []*Message, ga, gb []int, pair func(j, i int)) {
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
		fillByKind(a, b, ga[x0:pa[k]], gb[y0:pb[k]], pair)
		x0, y0 = pa[k]+1, pb[k]+1
	}
	fillByKind(a, b, ga[x0:], gb[y0:], pair)
}

// fillByKind pairs the messages of ga (into a) with those of gb (into
// b): position by position where both hold as many of the same kinds in
// order; otherwise, in order, the message of each kind that each holds
// exactly one of.
func fillByKind(a, b []*Message, ga, gb []int, pair func(j, i int)) {
	if len(ga) == 0 || len(gb) == 0 {
		return
	}
	if len(ga) == len(gb) {
		same := true
		for k := range ga {
			same = same && a[ga[k]].Kind == b[gb[k]].Kind
		}
		if same {
			for k := range ga {
				pair(gb[k], ga[k])
			}
			return
		}
	}
	count := func(ms []*Message, g []int) map[Kind]int {
		n := map[Kind]int{}
		for _, i := range g {
			n[ms[i].Kind]++
		}
		return n
	}
	na, nb := count(a, ga), count(b, gb)
	last := -1 // in gb
	for _, i := range ga {
		k := a[i].Kind
		if na[k] != 1 || nb[k] != 1 {
			continue
		}
		for y, j := range gb {
			if b[j].Kind == k {
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
