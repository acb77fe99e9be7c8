package convert

import (
	"encoding/json"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// isPlaceConflict reports whether c is the conflict of a cell both sides
// moved, or added, to different places (see dialog.Merge): the
// conflicts of a message as a whole (Part 0) that its text does not
// show.
func isPlaceConflict(c dialog.Conflict) bool {
	return c.ID != "" && c.Part == 0 && !c.InText
}

// placeRecord is the record of conflict c, a cell both sides moved or
// added to different places (see ConflictsKey): pointer "" (the cell
// itself), and each side's place (base's where it has the cell),
// {"index": N, "after": ID}, as its file has it: the cell's index among
// its cells (counting every worksheet's of a version 3 file, in order),
// and the id of the cell before it, absent when the cell is first or
// that cell has no id of its file's (a file without cell ids), and, in a
// version 3 file of several worksheets, "worksheet": the index of the
// worksheet holding it (see v3Sheets). ok is false when c's values are
// not the indices of its versions in dialogs. files caches the files'
// worksheets.
func placeRecord(c dialog.Conflict, dialogs [3]*dialog.Dialog, orgs [3]*origin, files *sideFiles) (json.RawMessage, bool) {
	keys := []string{"pointer", "what"}
	vals := map[string]any{"pointer": "", "what": c.What}
	for i, side := range [3]string{"base", "ours", "theirs"} {
		m := [3]*dialog.Message{c.Base, c.Ours, c.Theirs}[i]
		if i == 0 && m == nil && c.Values[0] == nil {
			continue // added on both sides: no place in base
		}
		n, ok := c.Values[i].(int)
		if m == nil || dialogs[i] == nil || !ok || n < 0 || n >= len(dialogs[i].Messages) || dialogs[i].Messages[n] != m {
			return nil, false
		}
		pk, pv := []string{"index"}, map[string]any{"index": n}
		if n > 0 {
			if s := orgs[i].snapAt(n-1, dialogs[i].Messages[n-1]); s != nil && !s.generated && s.cell != nil {
				if id := nbformat.CellIDOf(s.cell); id != "" {
					pk, pv["after"] = append(pk, "after"), string(id)
				}
			}
		}
		if sheets := files.v3Sheets(orgs[i]); n < len(sheets) {
			pk, pv["worksheet"] = append(pk, "worksheet"), sheets[n]
		}
		place, err := jsonvalue.AppendObject(nil, pk, pv)
		if err != nil {
			return nil, false
		}
		keys, vals[side] = append(keys, side), json.RawMessage(place)
	}
	raw, err := jsonvalue.AppendObject(nil, keys, vals)
	if err != nil {
		return nil, false
	}
	return raw, true
}

// v3Sheets returns the worksheet of each cell of org's upgrade when org is
// a version 3 file of several worksheets (nil otherwise), read once.
func (f *sideFiles) v3Sheets(org *origin) []int {
	if s, ok := f.sheets[org]; ok {
		return s
	}
	s, n, ok := v3Layout(org)
	if !ok || n < 2 {
		s = nil
	}
	if f.sheets == nil {
		f.sheets = map[*origin][]int{}
	}
	f.sheets[org] = s
	return s
}
