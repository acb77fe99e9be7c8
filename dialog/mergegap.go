package dialog

// Which pairs by place (see pairGaps) a merge keeps, and the base messages a side may have rewritten.

// pairByPlace pairs, where ids are made up, the messages of base that
// each side's matching left unpaired with the side's messages by their
// places (pairGaps), keeps those pairs keepGapPairs keeps, and returns,
// for each message of base, whether ours (openO) and theirs (openT) may
// have rewritten it as a message they added: left unpaired facing
// unpaired messages of that side, or paired by place and not kept.
// mo and mt (side index → base index) change.
func (mg *merger) pairByPlace(bm, om, tm []*Message, mo, mt []int) (openO, openT []bool) {
	gO := pairGaps(bm, om, mo, mg.opt.Unkeyed, mg.opt.PairText)
	gT := pairGaps(bm, tm, mt, mg.opt.Unkeyed, mg.opt.PairText)
	mg.keepGapPairs(bm, om, tm, mo, mt, gO, gT)
	return gO.open, gT.open
}

// keepGapPairs undoes the pairs by place of one side (x: ours or theirs)
// where the other side (y) changed the base message but by re-running
// it, deleted it, or added a message of the kind and text of x's (then
// x's message is that one, added on both sides): a message one side
// rewrote beyond recognition while the other edited it is as likely
// deleted as edited, and a deletion against an edit is a conflict that
// keeps both versions (a merge of the texts could mix the two cells
// cleanly); where y deleted it, as likely gone. A pair undone marks its
// base message open (see pairByPlace). mo and mt change.
func (mg *merger) keepGapPairs(bm, om, tm []*Message, mo, mt []int, gO, gT gapPairs) {
	versions := func(xm []*Message, mx []int) []*Message {
		v := make([]*Message, len(bm))
		for j, i := range mx {
			if i >= 0 {
				v[i] = xm[j]
			}
		}
		return v
	}
	added := func(xm []*Message, mx []int) map[string]bool {
		s := map[string]bool{}
		for j, i := range mx {
			if i < 0 {
				s[contentKey(xm[j])] = true
			}
		}
		return s
	}
	verO, verT := versions(om, mo), versions(tm, mt)
	addO, addT := added(om, mo), added(tm, mt)
	undone := func(xm []*Message, mx []int, g gapPairs, verY []*Message, addY map[string]bool) []int {
		var js []int
		for j, i := range mx {
			if i < 0 || !g.weak[j] {
				continue
			}
			if y := verY[i]; y != nil && (mg.same(y, bm[i]) || mg.derivedOnly(y, bm[i])) && !addY[contentKey(xm[j])] {
				continue
			}
			js = append(js, j)
		}
		return js
	}
	undoO, undoT := undone(om, mo, gO, verT, addT), undone(tm, mt, gT, verO, addO)
	for _, j := range undoO {
		gO.open[mo[j]], mo[j] = true, -1
	}
	for _, j := range undoT {
		gT.open[mt[j]], mt[j] = true, -1
	}
}

// rewrittenRerun reports whether a side (open: it may have rewritten
// base's message b as a message it added, see pairByPlace) deleted b
// while the other side's version kept only re-runs it: kept, the merge
// shows the deletion against the re-run as a conflict, so that the
// re-run's outputs are not lost where the deletion was a rewrite.
func (mg *merger) rewrittenRerun(open bool, b, kept *Message) bool {
	return open && !mg.same(kept, b) && mg.derivedOnly(kept, b)
}
