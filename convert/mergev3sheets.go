package convert

import (
	"encoding/json"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Worksheets of a version 3 merge. The merge works on the upgrades,
// whose cells are every worksheet's in order: a cell moved to the start
// of the next worksheet, or added at the end of one or the start of the
// next, is at one place there. So a cell's worksheet is merged as a part
// of its place, the way a value is: where only one side moved it to
// another worksheet (or added it), it is in that side's worksheet; where
// both sides moved (or added) it to different worksheets, it is in ours'
// (where the merge of all cells' order puts it there) and the conflict is
// recorded with its places (see ConflictsKey: each
// place has its "worksheet"). The cells of each worksheet are written in
// the merge's order. This is done when base, ours and theirs are version 3
// with more than one worksheet; notebooks whose numbers of worksheets
// differ are refused (a worksheet added or removed has no place in ours'
// worksheets).

// v3Layout returns the worksheet of each cell of org's upgrade, by index,
// and the number of worksheets; ok is false when org is not version 3 or
// its worksheets do not hold its upgrade's cells one for one.
func v3Layout(org *origin) (sheets []int, n int, ok bool) {
	if org == nil || org.nb.Nbformat != 3 {
		return nil, 0, false
	}
	ws, isRaw := org.nb.AdditionalProperties["worksheets"].(json.RawMessage)
	if !isRaw {
		x := org.nb.AdditionalProperties["worksheets"]
		if x == nil {
			return nil, 0, false
		}
		b, err := jsonvalue.AppendJSON(nil, x)
		if err != nil {
			return nil, 0, false
		}
		ws = b
	}
	list, _ := jsonvalue.Elements(ws)
	sheets = make([]int, 0, len(org.work.Cells))
	for s, w := range list {
		if cs, ok := jsonvalue.MemberRaw(w, "cells"); ok {
			es, _ := jsonvalue.Elements(cs)
			for range es {
				sheets = append(sheets, s)
			}
		}
	}
	if len(sheets) != len(org.work.Cells) {
		return nil, 0, false
	}
	return sheets, len(list), true
}

// v3Sheets returns the worksheet of each message of merged (by index)
// when base, ours and theirs (orgs, read into dialogs) are version 3 with
// more than one worksheet and the merge moves or puts a cell in another
// worksheet than ours has it in (nil otherwise: each of ours' cells stays
// in its worksheet), with conflicts and the conflicts of the cells both
// sides moved or added to different worksheets (see above).
func v3Sheets(merged *dialog.Dialog, conflicts []dialog.Conflict, versions map[*dialog.Message][3]*dialog.Message,
	dialogs [3]*dialog.Dialog, orgs [3]*origin) ([]int, []dialog.Conflict, error) {
	var lay [3][]int
	var counts [3]int
	multi := false
	for i, org := range orgs {
		l, n, ok := v3Layout(org)
		if !ok {
			return nil, conflicts, nil
		}
		lay[i], counts[i] = l, n
		multi = multi || n > 1
	}
	if !multi {
		return nil, conflicts, nil
	}
	if counts[0] != counts[1] || counts[1] != counts[2] {
		return nil, nil, fmt.Errorf("convert: merge: nbformat 3 notebooks of %d (base), %d (ours) and %d (theirs) worksheets: a worksheet added or removed cannot be merged (upgrading the notebooks to version 4 merges them)",
			counts[0], counts[1], counts[2])
	}
	var index [3]map[*dialog.Message]int
	for i, d := range dialogs {
		index[i] = make(map[*dialog.Message]int, len(d.Messages))
		for k, m := range d.Messages {
			index[i][m] = k
		}
	}
	// at is the worksheet and index of side i's version m (-1, -1: none).
	at := func(i int, m *dialog.Message) (int, int) {
		if k, ok := index[i][m]; ok && m != nil && k < len(lay[i]) {
			return lay[i][k], k
		}
		return -1, -1
	}
	placed := map[string]bool{} // cells with a place conflict already
	for _, c := range conflicts {
		if isPlaceConflict(c) {
			placed[c.ID] = true
		}
	}
	out := make([]int, len(merged.Messages))
	moved := false
	for k, m := range merged.Messages {
		v := versions[m]
		sb, ib := at(0, v[0])
		so, io := at(1, v[1])
		st, it := at(2, v[2])
		s := -1
		switch {
		case so >= 0 && st >= 0:
			switch {
			case so == st, st == sb:
				s = so
			case so == sb:
				s = st
			default:
				s = so
				if placed[m.ID] {
					break // (its record gives each place's worksheet)
				}
				c := dialog.Conflict{ID: m.ID, What: "moved to different worksheets on both sides", Base: v[0], Ours: v[1], Theirs: v[2], Values: [3]any{ib, io, it}}
				if sb < 0 {
					c.What, c.Base, c.Values[0] = "added on both sides in different worksheets", nil, nil
				}
				conflicts = append(conflicts, c)
			}
		case so >= 0:
			s = so
		case st >= 0:
			s = st
		}
		out[k] = s
		moved = moved || s != so
	}
	if !moved {
		return nil, conflicts, nil
	}
	// A cell neither side has (built by the merge) is in the worksheet of
	// the cell before it (after it, when first).
	prev := -1
	for k, s := range out {
		if s < 0 {
			out[k] = prev
		} else {
			prev = s
		}
	}
	next := 0
	for k := len(out) - 1; k >= 0; k-- {
		if out[k] < 0 {
			out[k] = next
		} else {
			next = out[k]
		}
	}
	return out, conflicts, nil
}
