package convert

// Copies of one cell that a merge cannot tell apart: git's line merge
// can put a cell twice in a file (a clean hunk moves it, a conflict keeps
// it in its old place too), each copy with the cell's id line. Where
// every copy of such an id, in base and in both sides, has one kind and
// one text, neither the id (given twice) nor the content (the same)
// says which of base's copies a side's copy is; pairing each side by
// itself (by content alignment) can give the two sides different copies,
// so that each deletes a copy the other kept (both then gone although
// both sides hold the cell), or pairs one side's copy with the copy the
// other side's equals (an edit read where there is none). Both sides are
// paired alike instead: which copies are paired is as base's copies, in
// order, take the side's first copy equal to them in every part, then
// the copies left in order; those chosen are paired in their order.
// Another cell of base with the copies' text, under an id of its own,
// does not make the copies another's: a side's copy of the id could be
// that cell given the id by git's hunks, or base's copy, and the content
// cannot say which, so the id lines do: the side's copies are base's
// copies of the id (a side without that cell's id deleted it). Pairing
// such copies by content instead could pair a side's copy under the id
// with that cell and another with a copy the other side deleted, both
// copies then gone (seed 8000326 of the fix path). (Where base holds the
// id once, a copy may be another cell given the id: see copiesElsewhere
// and sideCopies, which pair by content.)

import (
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// pairCopies pairs, as above, the side's copies of every id base's file
// gives more than one cell while all copies in the three have base's
// first copy's kind and text: a side's copy takes the id of the base copy it is
// paired with (so the merge pairs them by id), and the side copies
// returned are keyed (their ids are identities, whatever was made up
// when reading them). A side's copies beyond base's are left as read.
func pairCopies(dialogs [3]*dialog.Dialog, orgs [3]*origin) map[*dialog.Message]bool {
	if !orgs[0].generated {
		return nil // (base's file repeats no id)
	}
	var copies [3]map[string][]*dialog.Message
	repeated := map[string]bool{}
	for f, d := range dialogs {
		copies[f] = map[string][]*dialog.Message{}
		for i, m := range d.Messages {
			s := orgs[f].snapAt(i, m)
			if s == nil || s.cell == nil {
				continue
			}
			id := string(nbformat.CellIDOf(s.cell))
			if id == "" || s.generated && !fileIDTaken(s, m) {
				continue // (no id of the file's own)
			}
			copies[f][id] = append(copies[f][id], m)
			if f == 0 && len(copies[f][id]) > 1 {
				repeated[id] = true
			}
		}
	}
	var keyed map[*dialog.Message]bool
	for id := range repeated {
		bs := copies[0][id]
		if len(bs) < 2 || !oneText(bs[0], bs, copies[1][id], copies[2][id]) {
			continue
		}
		for f := 1; f < 3; f++ {
			side := copies[f][id]
			for k, m := range pairInOrder(bs, side) {
				if keyed == nil {
					keyed = map[*dialog.Message]bool{}
				}
				for _, x := range side {
					if x != m && x.ID == bs[k].ID {
						x.ID = m.ID // (a copy left holds the id: they swap)
					}
				}
				m.ID = bs[k].ID
				keyed[m] = true
			}
		}
	}
	return keyed
}

// oneText reports whether every message of the lists has first's kind
// and content.
func oneText(first *dialog.Message, lists ...[]*dialog.Message) bool {
	for _, l := range lists {
		for _, m := range l {
			if m.Kind != first.Kind || m.Content != first.Content {
				return false
			}
		}
	}
	return true
}

// pairInOrder pairs side copies with base copies bs: which copies are
// paired is as each base copy, in order, taking the first side copy equal
// to it, then the base copies left taking the side copies left, in
// order; the base copies chosen are then paired with the side copies
// chosen in their order (copies of one cell do not cross). It returns,
// for each base copy paired (by index in bs), its side copy.
func pairInOrder(bs, side []*dialog.Message) map[int]*dialog.Message {
	chosen := make([]bool, len(bs))
	taken := make([]bool, len(side))
	for k, b := range bs {
		for j, m := range side {
			if !taken[j] && equalCopies(b, m) {
				chosen[k], taken[j] = true, true
				break
			}
		}
	}
	j := 0
	for k := range bs {
		if chosen[k] {
			continue
		}
		for j < len(side) && taken[j] {
			j++
		}
		if j == len(side) {
			break
		}
		chosen[k], taken[j] = true, true
	}
	out := map[int]*dialog.Message{}
	j = 0
	for k := range bs {
		if !chosen[k] {
			continue
		}
		for !taken[j] {
			j++
		}
		out[k] = side[j]
		j++
	}
	return out
}

// equalCopies reports whether two messages of one kind and content agree
// in every other part a cell's message holds.
func equalCopies(a, b *dialog.Message) bool {
	if (a.ExecutionCount == nil) != (b.ExecutionCount == nil) || a.ExecutionCount != nil && *a.ExecutionCount != *b.ExecutionCount {
		return false
	}
	if len(a.Outputs) != len(b.Outputs) {
		return false
	}
	for i := range a.Outputs {
		if !a.Outputs[i].Equal(b.Outputs[i]) {
			return false
		}
	}
	return sameAttachments(a.Attachments, b.Attachments) && sameMeta(a.Attrs, b.Attrs) && sameMeta(a.Meta, b.Meta)
}
