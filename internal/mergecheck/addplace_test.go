package mergecheck

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// The place rule for a cell both sides added (issue 21: where a side put
// its new cell is a value it chose). A cell base lacks and ours and
// theirs have once each (one token: one cell) has, on a side, the place
// after the last cell before it that base, ours, theirs and the result
// all have once (none: the front). Where that differs between ours and
// theirs, the result has a copy of the cell at each side's place, or its
// cell holds a position record naming that side's place in that side's
// file (see placeRecorded; such a record has no "base"). Cells both
// sides added at the same place need nothing (their order among other
// cells added there is not judged).

// addsApart counts the cells the checker found added at different places
// by both sides (reported by property, so that a generator that no longer
// makes them shows).
var addsApart atomic.Int64

// addedApart checks the cells both sides added at different places:
// count is each key's number of cells in base, ours, theirs and the
// result, seqs the keys all four have once, in each one's order.
func (k *run) addedApart(vs [4]*nbView, count map[string][4]int, seqs [4][]string) {
	common := make(map[string]bool, len(seqs[0]))
	for _, key := range seqs[0] {
		common[key] = true
	}
	var before [4]map[string][]string // view → added key → the common key before each copy ("": none)
	for s := 1; s < 4; s++ {
		before[s] = map[string][]string{}
		last := ""
		for _, c := range vs[s].cells {
			if n := count[c.key]; n[0] == 0 && n[1] == 1 && n[2] == 1 {
				before[s][c.key] = append(before[s][c.key], last)
			}
			if common[c.key] {
				last = c.key
			}
		}
	}
	for _, c := range vs[1].cells {
		key := c.key
		ps, pt := before[1][key], before[2][key]
		if len(ps) != 1 || len(pt) != 1 || ps[0] == pt[0] {
			continue
		}
		addsApart.Add(1)
		for s := 1; s < 3; s++ {
			at := before[s][key][0]
			kept := false
			for _, r := range before[3][key] {
				kept = kept || r == at
			}
			for _, x := range vs[3].cells {
				kept = kept || x.key == key && placeRecorded(x, s, vs[s])
			}
			if !kept {
				k.fail("added cell's place lost", sideNames[s], key, "", "both sides added it: ours after %s, theirs after %s; the result has it after %s and no record of the place %s gave it",
					orFront(ps[0]), orFront(pt[0]), places(before[3][key]), sideNames[s])
			}
		}
	}
}

// places names the places of a result's copies of a cell.
func places(before []string) string {
	if len(before) == 0 {
		return "nowhere"
	}
	var out []string
	for _, b := range before {
		out = append(out, orFront(b))
	}
	return strings.Join(out, ", ")
}

// The rule judges hand-made results (nbformat 4.4) of base a b c, ours
// a x b c, theirs a b x c (and others): ours' place without a record of theirs' is
// caught (a merge that drops theirs' place), and so is theirs' without
// ours'; both copies (git's line merge) and a record naming both sides'
// places as their files have them are accepted, a record naming another
// place is not; the same place on both sides needs none.
func TestAddedApartJudged(t *testing.T) {
	t.Parallel()
	nb := func(ids string, recs map[string]string) []byte {
		var cs []string
		for _, id := range strings.Fields(ids) {
			meta := "{}"
			if recs[id] != "" {
				meta = `{"ipynb_conflicts": [` + recs[id] + `]}`
			}
			tok := map[string]string{"a": "b1", "b": "b2", "c": "b3", "x": "o1", "z": "t1"}[id] // the generator's tokens
			cs = append(cs, `{"cell_type": "markdown", "metadata": `+meta+`, "source": "«`+tok+`»"}`)
		}
		return fmt.Appendf(nil, `{"cells": [%s], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`, strings.Join(cs, ", "))
	}
	const rec = `{"pointer": "", "what": "added on both sides at different places", "ours": {"index": 1}, "theirs": {"index": 2}}`
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name                       string
		base, ours, theirs, result string
		recs                       map[string]string // result cell → its record
		clean                      bool
		want                       string // a failure's text holds it; "" none
	}{
		{"ours' place, no record", "a b c", "a x b c", "a b x c", "a x b c", nil, true, "added cell's place lost (theirs)"},
		{"theirs' place, no record", "a b c", "a x b c", "a b x c", "a b x c", nil, true, "added cell's place lost (ours)"},
		{"the front and the end, ours'", "a b c", "x a b c", "a b c x", "x a b c", nil, true, "added cell's place lost (theirs)"},
		{"ours' place, recorded", "a b c", "a x b c", "a b x c", "a x b c", map[string]string{"x": rec}, false, ""},
		{"theirs' place, recorded", "a b c", "a x b c", "a b x c", "a b x c", map[string]string{"x": rec}, false, ""},
		{"record of another index", "a b c", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": strings.Replace(rec, `"theirs": {"index": 2}`, `"theirs": {"index": 3}`, 1)}, false, "added cell's place lost (theirs)"},
		{"record without theirs", "a b c", "a x b c", "a b x c", "a x b c",
			map[string]string{"x": strings.Replace(rec, `, "theirs": {"index": 2}`, ``, 1)}, false, "added cell's place lost (theirs)"},
		{"same place", "a b c", "a x b c", "a x b c", "a x b c", nil, true, ""},
		{"same gap, other cells added", "a b c", "a x b c", "a z x b c", "a x z b c", nil, true, ""},
	} {
		fails := check(nb(c.base, nil), nb(c.ours, nil), nb(c.theirs, nil), nb(c.result, c.recs), c.clean, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}
