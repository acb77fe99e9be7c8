package mergecheck

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// The order rule for a cell both sides moved (issue 21: a cell's place is
// a value one side changed). Among the cells base, ours, theirs and the
// result all have once, a side moved a cell when no longest subsequence
// of that side's order keeping base's order holds it (of two neighbours
// that swapped places, either may be the one that moved, so neither
// counts); its place there is the cell before it (none: first). A cell
// both sides moved to different places is, for each side, at that side's
// place in the result (after the same cell), or its result cell holds a
// position record naming that side's place in that side's file: a record
// of pointer "" whose member for the side is {"index": N, "after": ID},
// N the cell's index among that side's cells, ID the id of the cell
// before it there (absent when it is first, or where that cell has no id
// the side's file gives: before nbformat 4.5, an invalid id, or an id the
// side gives twice). Every position record a result holds is checked against the
// files: each side it names has the cell at that place.

// movesApart counts the cells the checker found moved to different
// places by both sides (reported by property, so that a generator that
// no longer makes them shows).
var movesApart atomic.Int64

// movedApart checks the cells both sides moved to different places: seqs
// are the keys of the cells all four views have once, in each one's
// order (base, ours, theirs, result).
func (k *run) movedApart(vs [4]*nbView, seqs [4][]string) {
	posB := make(map[string]int, len(seqs[0]))
	for i, key := range seqs[0] {
		posB[key] = i
	}
	var moved [3]map[string]bool
	for s := 1; s < 3; s++ {
		moved[s] = surelyMoved(seqs[s], posB)
	}
	var before [4]map[string]string // view → key → the key before it ("": none)
	for s := 1; s < 4; s++ {
		before[s] = map[string]string{}
		for i, key := range seqs[s] {
			if i > 0 {
				before[s][key] = seqs[s][i-1]
			}
		}
	}
	for _, key := range seqs[0] {
		if !moved[1][key] || !moved[2][key] || before[1][key] == before[2][key] {
			continue
		}
		movesApart.Add(1)
		rc := viewCell(vs[3], key)
		for s := 1; s < 3; s++ {
			if before[3][key] == before[s][key] || rc != nil && placeRecorded(rc, s, vs[s]) {
				continue
			}
			k.fail("moved cell's place lost", sideNames[s], key, "", "both sides moved it: ours after %s, theirs after %s; the result has it after %s and no record of the place %s gave it",
				orFront(before[1][key]), orFront(before[2][key]), orFront(before[3][key]), sideNames[s])
		}
	}
}

func orFront(key string) string { return or(key, "the front") }

// surelyMoved returns the keys of seq (a reordering of the keys of posB,
// which gives their order in base) that no longest subsequence of seq in
// base's order holds: the longest such run ending at the key and the one
// starting at it are too short together (quadratic, and plain, on
// purpose).
func surelyMoved(seq []string, posB map[string]int) map[string]bool {
	n := len(seq)
	end, start := make([]int, n), make([]int, n)
	longest := 0
	for i := range n {
		end[i] = 1
		for j := range i {
			if posB[seq[j]] < posB[seq[i]] && end[j]+1 > end[i] {
				end[i] = end[j] + 1
			}
		}
		longest = max(longest, end[i])
	}
	for i := n - 1; i >= 0; i-- {
		start[i] = 1
		for j := i + 1; j < n; j++ {
			if posB[seq[j]] > posB[seq[i]] && start[j]+1 > start[i] {
				start[i] = start[j] + 1
			}
		}
	}
	out := map[string]bool{}
	for i, key := range seq {
		if end[i]+start[i]-1 < longest {
			out[key] = true
		}
	}
	return out
}

// viewCell is the cell of key in a view (the first), or nil.
func viewCell(v *nbView, key string) *cellView {
	for _, c := range v.cells {
		if c.key == key {
			return c
		}
	}
	return nil
}

// placeRecorded reports whether result cell rc holds a position record
// naming its place in side s's view v.
func placeRecorded(rc *cellView, s int, v *nbView) bool {
	for _, r := range rc.recs {
		if r.ptr == "" && r.has[s] && placeIn(r.vals[s], v, rc.key) == nil {
			return true
		}
	}
	return false
}

// placeIn checks a position record's value for one side (view v) against
// that side's cells: the cell of key at its "index", and its "after" the
// id of the cell before it there.
func placeIn(val any, v *nbView, key string) error {
	o, ok := val.(*obj)
	if !ok {
		return fmt.Errorf("a place is %s, want an object", compact(val, true))
	}
	iv, _ := o.get("index")
	i := number(iv)
	if i < 0 || i >= len(v.cells) || v.cells[i].key != key {
		return fmt.Errorf("index %s: not the cell's", compact(iv, iv != nil))
	}
	after, hasAfter := o.get("after")
	if i == 0 {
		if hasAfter {
			return fmt.Errorf("after %s: the cell is first", compact(after, true))
		}
		return nil
	}
	prevID, hasID := v.cells[i-1].c.vals["id"].(string)
	noIDs := v.major < 4 || v.major == 4 && v.minor < 5 || !hasID || !cellIDRe.MatchString(prevID)
	switch {
	case hasAfter && (!hasID || after != prevID):
		return fmt.Errorf("after %s: the cell before it is %q (id %q)", compact(after, true), v.cells[i-1].key, prevID)
	case !hasAfter && !noIDs && !dupID(v, prevID):
		return fmt.Errorf("no after: the cell before it has id %q", prevID)
	}
	return nil
}

// cellIDRe is a valid cell id (nbformat 4.5's schema): one a file gives.
var cellIDRe = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,64}$`)

// dupID reports whether a view gives id to more than one cell.
func dupID(v *nbView, id string) bool {
	n := 0
	for _, c := range v.cells {
		if c.c.vals["id"] == id {
			n++
		}
	}
	return n > 1
}

// placeRecords checks every position record of the result (vs[3])
// against the sides' files: it names ours' and theirs' places, and each
// place it names (base's too) is the cell's.
func (k *run) placeRecords(vs [4]*nbView) {
	for _, rc := range vs[3].cells {
		for _, r := range rc.recs {
			if r.ptr != "" {
				continue
			}
			if !r.has[1] || !r.has[2] {
				k.fail("position record wrong", "", rc.key, "", "it names no place of ours or of theirs")
			}
			for s := range 3 {
				if !r.has[s] {
					continue
				}
				if err := placeIn(r.vals[s], vs[s], rc.key); err != nil {
					k.fail("position record wrong", sideNames[s], rc.key, "", "%v", err)
				}
			}
		}
	}
}

// The position rule judges hand-made results of base a b c d, ours
// b c a d, theirs b c d a (and others): ours' place without a record of
// theirs' is caught, and so is theirs' without ours'; a record naming
// both sides' places as their files have them is accepted, a record
// naming another place is not; same-place moves and a one-sided move
// need none.
func TestMovedApartJudged(t *testing.T) {
	t.Parallel()
	type cell struct{ id, rec string }
	nb := func(minor int, cells ...cell) []byte {
		var cs []string
		for _, c := range cells {
			meta := "{}"
			if c.rec != "" {
				meta = `{"ipynb_conflicts": [` + c.rec + `]}`
			}
			id := ""
			if minor >= 5 {
				id = `"id": "` + c.id + `", `
			}
			cs = append(cs, `{"cell_type": "markdown", `+id+`"metadata": `+meta+`, "source": "«`+c.id+`»"}`)
		}
		return fmt.Appendf(nil, `{"cells": [%s], "metadata": {}, "nbformat": 4, "nbformat_minor": %d}`, strings.Join(cs, ", "), minor)
	}
	order := func(minor int, ids string, recs map[string]string) []byte {
		var cs []cell
		for _, id := range strings.Fields(ids) {
			cs = append(cs, cell{id, recs[id]})
		}
		return nb(minor, cs...)
	}
	const good = `{"pointer": "", "what": "moved on both sides", "base": {"index": 0}, "ours": {"index": 2, "after": "c"}, "theirs": {"index": 3, "after": "d"}}`
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name                       string
		minor                      int
		base, ours, theirs, result string
		recs                       map[string]string // result cell → its record
		clean                      bool
		want                       string // a failure's text holds it; "" none
	}{
		{"ours' place, no record", 5, "a b c d", "b c a d", "b c d a", "b c a d", nil, true, "moved cell's place lost (theirs)"},
		{"theirs' place, no record", 5, "a b c d", "b c a d", "b c d a", "b c d a", nil, true, "moved cell's place lost (ours)"},
		{"ours' place, recorded", 5, "a b c d", "b c a d", "b c d a", "b c a d", map[string]string{"a": good}, false, ""},
		{"theirs' place, recorded", 5, "a b c d", "b c a d", "b c d a", "b c d a", map[string]string{"a": good}, false, ""},
		{"record of another index", 5, "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": strings.Replace(good, `{"index": 3, "after": "d"}`, `{"index": 2, "after": "d"}`, 1)}, false, "moved cell's place lost (theirs)"},
		{"record after another cell", 5, "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": strings.Replace(good, `{"index": 3, "after": "d"}`, `{"index": 3, "after": "c"}`, 1)}, false, "position record wrong (theirs)"},
		{"record without after where ids are", 5, "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": strings.Replace(good, `{"index": 3, "after": "d"}`, `{"index": 3}`, 1)}, false, "position record wrong (theirs)"},
		{"record without theirs", 5, "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": strings.Replace(good, `, "theirs": {"index": 3, "after": "d"}`, ``, 1)}, false, "moved cell's place lost (theirs)"},
		{"no ids, recorded by index", 4, "a b c d", "b c a d", "b c d a", "b c a d",
			map[string]string{"a": `{"pointer": "", "what": "moved on both sides", "base": {"index": 0}, "ours": {"index": 2}, "theirs": {"index": 3}}`}, false, ""},
		{"a record where nothing moved apart, true", 5, "a b c d", "b c a d", "b c a d", "b c a d", map[string]string{"a": strings.Replace(good, `{"index": 3, "after": "d"}`, `{"index": 2, "after": "c"}`, 1)}, false, ""},
		{"a record in a clean result", 5, "a b c d", "b c a d", "b c d a", "b c a d", map[string]string{"a": good}, true, "marks in a clean result"},
		{"same place", 5, "a b c d", "b c a d", "b c a d", "b c a d", nil, true, ""},
		{"same place, theirs moved d too", 5, "a b c d", "b c a d", "d b c a", "d b c a", nil, true, ""},
		{"a swap is no move", 5, "a b c d", "b a c d", "b c d a", "b c d a", nil, true, ""},
	} {
		fails := check(order(c.minor, c.base, nil), order(c.minor, c.ours, nil), order(c.minor, c.theirs, nil), order(c.minor, c.result, c.recs), c.clean, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}
