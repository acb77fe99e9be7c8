package nbweb

// Conflicts of a cell's place (moved or added apart on both sides): each side's
// recorded place, and moving the cell to the one chosen.

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbhtml"
)

// movedBoth is the conflict of a cell both sides moved to different
// places: the merge leaves it at ours' place and records every side's
// place in its metadata (see convert.ConflictsKey).
const movedBoth = "moved on both sides"

// addedApart is the conflict of a cell both sides added at different
// places: at ours' place, its record holds ours' and theirs' places (base
// has none).
const addedApart = "added on both sides at different places"

// isPlaceWhat reports whether a conflict's what is one of a cell's place.
func isPlaceWhat(what string) bool { return what == movedBoth || what == addedApart }

// place is one side's place of a cell, as its position record holds it:
// its index among that side's cells and the id of the cell before it
// there ("" when first, or when the side's file has no cell ids).
type place struct {
	index int
	after string
}

// recordedPlace returns side's place ("base", "ours", "theirs") of
// message m from its position record; ok is false without one.
func recordedPlace(m *dialog.Message, side string) (p place, ok bool) {
	if m == nil {
		return place{}, false
	}
	raw, err := json.Marshal(m.Meta[convert.ConflictsKey])
	if err != nil {
		return place{}, false
	}
	type sidePlace struct {
		Index int    `json:"index"`
		After string `json:"after"`
	}
	var recs []struct {
		Pointer            *string
		What               string
		Base, Ours, Theirs *sidePlace
	}
	if json.Unmarshal(raw, &recs) != nil {
		return place{}, false
	}
	for _, r := range recs {
		if r.Pointer == nil || *r.Pointer != "" || !isPlaceWhat(r.What) {
			continue
		}
		if v := map[string]*sidePlace{"base": r.Base, "ours": r.Ours, "theirs": r.Theirs}[side]; v != nil {
			return place{v.Index, v.After}, true
		}
	}
	return place{}, false
}

// placeText shows a side's place for choosing.
func placeText(p place, ok bool) string {
	switch {
	case !ok:
		return "(unknown)"
	case p.index == 0:
		return "cell 1 (first)"
	case p.after != "":
		return fmt.Sprintf("cell %d, after the cell of id %s", p.index+1, p.after)
	}
	return fmt.Sprintf("cell %d of its file", p.index+1)
}

// movedView is the page's view of conflict c of a cell's place (what),
// whose cell is m: the three places (base's none where added), and the choices: ours' place (where the cell is), and theirs'
// where the page can put it there (first, or after a cell of d with the
// id theirs' record names).
func movedView(v nbhtml.MergeConflict, d *dialog.Dialog, m *dialog.Message, what string) nbhtml.MergeConflict {
	var ps [3]place
	var oks [3]bool
	for i, side := range []string{"base", "ours", "theirs"} {
		ps[i], oks[i] = recordedPlace(m, side)
	}
	v.Base, v.Ours, v.Theirs = placeText(ps[0], oks[0]), placeText(ps[1], oks[1]), placeText(ps[2], oks[2])
	if what == addedApart {
		v.Base = "(none: added on both sides)"
	}
	v.Choices = []nbhtml.MergeChoice{{Value: "ours", Label: "ours' place (where it is)"}}
	if _, ok := theirsPlace(d, m); ok {
		v.Choices = append(v.Choices, nbhtml.MergeChoice{Value: "theirs", Label: "theirs' place"})
	}
	return v
}

// theirsPlace is the message of d after which theirs' record puts m (nil:
// the front); ok is false where the page cannot tell (a file without cell
// ids, the cell before it gone).
func theirsPlace(d *dialog.Dialog, m *dialog.Message) (after *dialog.Message, ok bool) {
	p, ok := recordedPlace(m, "theirs")
	switch {
	case !ok:
		return nil, false
	case p.index == 0:
		return nil, true
	case p.after == "" || p.after == m.ID:
		return nil, false
	}
	for _, x := range d.Messages {
		if x.ID == p.after {
			return x, true
		}
	}
	return nil, false
}

// moveAfter moves m in d to just after message after (nil: the front).
func moveAfter(d *dialog.Dialog, m, after *dialog.Message) {
	i := slices.Index(d.Messages, m)
	if i < 0 {
		return
	}
	d.Messages = slices.Delete(d.Messages, i, i+1)
	j := 0
	if after != nil {
		if j = slices.Index(d.Messages, after) + 1; j == 0 {
			j = i // (gone: where it was)
		}
	}
	d.Messages = slices.Insert(d.Messages, j, m)
}
