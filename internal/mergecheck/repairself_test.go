package mergecheck

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The repair judge is not vacuous: on the cases git's line merge
// conflicts on, it catches a repair that keeps ours' side alone, one that
// refuses sides that are valid notebooks, and one that refuses but
// changes git's file; it accepts a refusal that leaves git's file as it
// was where a side is not one.
func TestRepairJudgeCatches(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	dir := t.TempDir()
	reals := realBases(25)
	type fake struct {
		name    string
		out     func(marked []byte, sides [3][]byte) outcome
		applies func(sides [3][]byte, invalid bool) bool
		caught  bool // want a failure where it applies
	}
	fakes := []fake{
		{"keeps ours' side", func(m []byte, s [3][]byte) outcome { return outcome{result: s[1], marked: m} },
			func(s [3][]byte, weak bool) bool { return !weak && theirsOwn(s) }, true},
		{"refuses notebooks", func(m []byte, _ [3][]byte) outcome { return outcome{result: m, status: 2, marked: m} },
			func(_ [3][]byte, invalid bool) bool { return !invalid }, true},
		{"refuses and writes", func(m []byte, s [3][]byte) outcome { return outcome{result: s[1], status: 2, marked: m} },
			func(s [3][]byte, _ bool) bool { return string(s[1]) != "" }, true},
		{"refuses sides that are not notebooks, file left", func(m []byte, _ [3][]byte) outcome { return outcome{result: m, status: 2, marked: m} },
			func(_ [3][]byte, invalid bool) bool { return invalid }, false},
	}
	counts := make([][2]int, len(fakes)) // applied, as wanted
	seeds := uint64(120)
	if testtier.Full() {
		seeds = 300
	}
	for seed := range seeds {
		fs := newCase(seed+1, reals).files()
		marked := gitMarked(t, dir, fs[0], fs[1], fs[2])
		if marked == nil {
			continue
		}
		sides, _ := readBack(marked)
		invalid := false // a side is not JSON, or not a valid notebook
		for _, s := range sides[1:] {
			if _, err := parseJSON(s); err != nil || validNotebook(s) != nil {
				invalid = true
			}
		}
		base := sides[0]
		if v, err := parseJSON(base); err != nil || !isObject(v) {
			base = emptyLike(sides[1])
		}
		weak := invalid || notAllValid(base, sides) // judged by lines alone
		for i, f := range fakes {
			arg := invalid
			if i == 0 {
				arg = weak
			}
			if !f.applies(sides, arg) {
				continue
			}
			counts[i][0]++
			fails := judgeRepair(f.out(marked, sides), checkOptions{keys: tokenKeys, uniqueLines: true})
			if (len(fails) > 0) == f.caught {
				counts[i][1]++
			} else {
				t.Errorf("%s, seed %d: failures %v", f.name, seed+1, fails)
			}
		}
	}
	for i, f := range fakes {
		t.Logf("%s: %d/%d as wanted", f.name, counts[i][1], counts[i][0])
		if counts[i][0] == 0 {
			t.Errorf("%s: no case applies", f.name)
		}
	}
}

// theirsOwn reports whether theirs' side changed something (a cell, by
// token, or the notebook's other members) that ours' does not have.
func theirsOwn(sides [3][]byte) bool {
	var vs [4]*nbView
	for i := range sides {
		v, err := viewOf(defaulted(sides[i]))
		if err != nil {
			return false
		}
		vs[i] = v
	}
	vs[3] = vs[1]
	tokenKeys(vs)
	byKey := func(v *nbView) map[string]*obj {
		m := map[string]*obj{}
		for _, c := range v.cells {
			m[c.key] = c.c
		}
		return m
	}
	// own: a value theirs changed from b that ours has not
	own := func(b, t, o *obj) bool {
		var chs []change
		diff("", b, t, true, true, &chs)
		for _, ch := range chs {
			if v, ok := at(o, ch.ptr); ok != ch.has || ok && !equal(v, ch.val) {
				return true
			}
		}
		return false
	}
	b, o, th := byKey(vs[0]), byKey(vs[1]), byKey(vs[2])
	for k, c := range th {
		switch {
		case o[k] == nil && (b[k] == nil || !derivedOnly(b[k], c)):
			return true // theirs inserted it, or edited it (not only re-ran it) where ours deleted it
		case o[k] == nil:
			// ours deleted a cell theirs left as base had it (or only
			// re-ran): the deletion is ours' change, not theirs'
		case b[k] == nil && own(newObj(), c, o[k]), b[k] != nil && own(b[k], c, o[k]):
			return true
		}
	}
	for k := range b {
		if th[k] == nil && o[k] != nil && (equal(b[k], o[k]) || !derivedOnly(b[k], o[k])) {
			return true // deleted by theirs, left or edited by ours (only re-run by ours: either may win)
		}
	}
	return own(vs[0].top, vs[2].top, vs[1].top)
}

// A repair of a version 3 heading git's hunks cut (its level line taken
// by theirs' reordering of the cell's keys, a source given twice) is
// judged by its lines as the merge reads the heading: one markdown line
// after its level's hashes (level 1 without one, as nbformat's upgrade
// makes it). A conflict between the sides' headings so read loses
// nothing and shows no line from nowhere; a result without ours' line, or
// with a line no side has in a conflict, is caught.
func TestLinesKeptReadsHeadingsAsUpgraded(t *testing.T) {
	t.Parallel()
	marked := []byte(`{
 "nbformat": 3,
 "nbformat_minor": 0,
 "metadata": {},
 "worksheets": [
  {
   "cells": [
    {
     "cell_type": "heading",
     "source": "«b1»\nb1.1 text",
     "metadata": {},
<<<<<<< ours
     "source": "«b1»\nb1.1 text\no3 new line"
||||||| base
     "source": "«b1»\nb1.1 text"
=======
     "level": 3
>>>>>>> theirs
    }
   ],
   "metadata": {}
  }
 ]
}
`)
	result := func(status int, src string) outcome {
		return outcome{status: status, marked: marked, result: []byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [` +
			`{"cell_type": "markdown", "metadata": {}, "source": ` + src + `}], "metadata": {}}]}`)}
	}
	for _, c := range []struct {
		name string
		out  outcome
		want []string // the failures' checks
	}{
		{"both headings in a conflict", result(1, `"<<<<<<< ours\n# «b1» b1.1 text o3 new line\n=======\n### «b1» b1.1 text\n>>>>>>> theirs\n"`), nil},
		{"ours' line lost", result(0, `"### «b1» b1.1 text"`), []string{"lost"}},
		{"a line from nowhere", result(1, `"<<<<<<< ours\n# «b1» b1.1 text o3 new line\n=======\n### «b1» b1.1 text x\n>>>>>>> theirs\n"`), []string{"lost", "line from nowhere"}}, // (theirs' heading, a line base has not, is gone too)
	} {
		var got []string
		for _, f := range judgeRepair(c.out, checkOptions{keys: tokenKeys, uniqueLines: true}) {
			got = append(got, f.check)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: failures %q, want %q", c.name, got, c.want)
		}
	}
}
