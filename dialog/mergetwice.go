package dialog

// Pairing, for merges, a side's message that is the one the other side
// added: one message both sides added, not one side's edit of a base
// message beside the other side's insertion of its copy.

// unpairAddedByBoth unpairs a side's message paired with a base message
// it barely resembles (another kind, or similarity under `similar`: a
// message alone in its run, see pairAlone) when the other side kept that
// base message and added a message of the side's version's kind and text
// (ids made up on both: content is all they are): both sides added that
// message, and the side deleted the base one. Otherwise the message would
// be there twice, once as the side's edit of the base message and once
// as the other side's insertion (a copy neither side made). Each message
// the other side added stands for one such. mo and mt (side index → base
// index) change.
func (mg *merger) unpairAddedByBoth(bm, om, tm []*Message, mo, mt []int) {
	if mg.opt.Unkeyed == nil {
		return
	}
	one := func(xm, ym []*Message, mx, my []int) {
		keptY := make([]bool, len(bm))
		added := map[string]int{} // content key → messages y added of it
		for k, i := range my {
			switch {
			case i >= 0:
				keptY[i] = true
			case mg.unkeyed(ym[k]):
				added[contentKey(ym[k])]++
			}
		}
		if len(added) == 0 {
			return
		}
		budget := pairBudget
		for j, i := range mx {
			if i < 0 || !keptY[i] || !mg.unkeyed(xm[j]) {
				continue
			}
			key := contentKey(xm[j])
			if added[key] == 0 || xm[j].Kind == bm[i].Kind && compared(similarity, mg.opt.PairText, xm[j], bm[i], &budget) >= similar {
				continue
			}
			added[key]--
			mx[j] = -1
		}
	}
	one(om, tm, mo, mt)
	one(tm, om, mt, mo)
}
