package nbweb

// Finding each conflict's message in the merged dialog, and the regions of
// cells replaced on both sides.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// Where the merge's conflicts are in the merged notebook, in each of the
// forms the merge leaves them (and ipynb check finds them): markers in a
// cell's text, a cell deleted on one side and edited on the other (its
// text between markers), cells replaced on both sides (between raw
// marker cells), and records of conflicts without text in a cell's or
// the notebook's metadata (convert.ConflictsKey).

// locate finds each conflict's message in the merged dialog: by id, and
// in a notebook without cell ids (whose ids are made up anew on every
// read) by order — conflicts come in cell order — taking the next
// message that holds conflict markers (a text conflict, a cell deleted
// and edited) or one side's text (the others); a conflict of a message
// located already (its id named before) is at that message. Cells
// "replaced on both sides" are located at their opening marker cell.
// Marker cells are never a message's text.
func locate(d *dialog.Dialog, cs []mergeConflict) []int {
	at := make([]int, len(cs))
	next := 0
	used := map[[2]string]bool{} // message position and part, taken by a text conflict
	byID := map[string]int{}     // conflict id → position located
	for i, c := range cs {
		at[i] = -1
		if c.What == replacedBoth {
			for k := next; k < len(d.Messages); k++ {
				if markerCell(d.Messages[k]) == '<' {
					at[i], next = k, k+1
					break
				}
			}
			continue
		}
		if c.ID == "" {
			continue
		}
		if k, ok := byID[c.ID]; ok {
			at[i] = k
			continue
		}
		for k, m := range d.Messages {
			if m.ID == c.ID {
				at[i] = k
			}
		}
		part := textPart(c)
		if strings.HasPrefix(c.What, "deleted by") {
			part = "content" // its markers are in the content
		}
		text := part != ""
		key := func(k int) [2]string { return [2]string{strconv.Itoa(k), part} }
		if at[i] < 0 {
			for k := next; k < len(d.Messages); k++ {
				m := d.Messages[k]
				if markerCell(m) != 0 {
					continue
				}
				if text && !used[key(k)] && markerLine.MatchString(partOf(m, part)) ||
					!text && (c.Ours != nil && m.Content == c.Ours.Content || c.Theirs != nil && m.Content == c.Theirs.Content) {
					at[i] = k
					break
				}
			}
		}
		if at[i] >= 0 {
			next = at[i]
			byID[c.ID] = at[i]
			if text {
				used[key(at[i])] = true
			}
		}
	}
	return at
}

// replacedBoth is the conflict of cells both sides replaced: both sides'
// cells kept, between raw cells holding one marker line each.
const replacedBoth = "replaced on both sides"

// markerCell is the marker character ('<', '=' or '>') of a raw cell
// holding one conflict marker line and nothing else, or 0.
func markerCell(m *dialog.Message) byte {
	if m.Kind != dialog.Raw {
		return 0
	}
	l := strings.TrimSuffix(m.Content, "\n")
	if strings.Contains(l, "\n") || !markerLine.MatchString(l) {
		return 0
	}
	return l[0]
}

// replacedRegion is the region of cells replaced on both sides opening
// at message k: the positions of its separator and closing marker cells
// (-1, -1 when it is not whole).
func replacedRegion(d *dialog.Dialog, k int) (sep, end int) {
	sep, end = -1, -1
	for j := k + 1; j < len(d.Messages); j++ {
		switch markerCell(d.Messages[j]) {
		case '=':
			if sep < 0 {
				sep = j
			}
		case '>':
			if sep >= 0 {
				return sep, j
			}
		case '<':
			return -1, -1
		}
	}
	return -1, -1
}

// cellsText shows messages d.Messages[from:to] for choosing: each its
// kind and first line.
func cellsText(d *dialog.Dialog, from, to int) string {
	var b strings.Builder
	for _, m := range d.Messages[from:to] {
		first, _, _ := strings.Cut(m.Content, "\n")
		fmt.Fprintf(&b, "%s: %s\n", m.Kind, first)
	}
	if b.Len() == 0 {
		return "(no cells)"
	}
	return b.String()
}

// dropRecords deletes from metadata the merge's records
// (convert.ConflictsKey) of the conflict what, and the member with the
// last one: resolving a conflict that has no text is deleting its record.
func dropRecords(meta map[string]any, what string) map[string]any {
	v, ok := meta[convert.ConflictsKey]
	if !ok {
		return meta
	}
	var recs []any
	switch t := v.(type) {
	case []any:
		recs = t
	case json.RawMessage:
		if json.Unmarshal(t, &recs) != nil {
			return meta
		}
	default:
		return meta
	}
	recs = slices.DeleteFunc(slices.Clone(recs), func(r any) bool {
		rm, _ := r.(map[string]any)
		w, _ := rm["what"].(string)
		return w == what
	})
	if len(recs) == 0 {
		delete(meta, convert.ConflictsKey)
		return meta
	}
	b, err := json.Marshal(recs)
	if err == nil {
		meta[convert.ConflictsKey] = json.RawMessage(b)
	}
	return meta
}
