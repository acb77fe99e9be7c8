package mergecheck

import (
	"bytes"
	"fmt"
)

// The judge of a repair of git's markers ("ipynb fix" after git's line
// merge). Such a repair sees one file: git's, whose sides are the lines
// outside the conflicts with each conflict's lines of that side. Those
// sides, not the notebooks git merged, are what it merges: the lines git
// merged cleanly (a change of either side, or a line of one cell that git
// paired with a line of another) are in all three sides, so for the
// repair they are no side's change, and a side git's hunks cut into text
// that is not JSON is not a notebook at all. So a repair is judged
// against the sides read back from git's markers, by the same checker as
// a merge, and a refusal (exit 2) that leaves git's file as it was loses
// nothing where a side read back is not a notebook: the markers, and
// every side's lines in them, are still in the file for the user. (A
// side that is JSON but not valid, e.g. a cell git's hunks took a member
// from, may be refused so too, or merged and judged.) A base that is
// JSON is merged from as Python's nbformat reads such a file, without
// validating it; one that is not makes the repair two-way: judged from an
// empty base, so that a cell or value the sides do not agree on must be
// kept from both. A cell git's clean hunks put twice in a side (moved by
// one side, beside its old place in a conflict) is one cell twice: which
// copy is base's is not in the file, so both readings are tried (see
// tokenKeys); and where git's hunks gave one cell's text another's id
// (an id going with two tokens), which of the two identifies the cell is
// not in the file either, so cells are paired by id too (where every cell
// has one; a notebook's copies of an id it gives more than one cell, which
// git's hunks can make, numbered in order; or a side's cell of an id
// base has not by its token, where that side changed the cell's id). A
// side's id change alone is no such case: there the tokens say which
// cell it is.
//
// A side read back that is not a valid notebook even so — a cell with
// members of another (git paired lines of two cells: a markdown cell
// with outputs, a code cell without a source) — has no value cell by cell that a valid result could keep: what it
// meant is not in the file. Such a repair is judged by what is: the
// result is a valid notebook, marked exactly when the repair reported
// conflicts, and every line of a cell text that a side has and the base
// side has not is in the result's texts (see linesKept).

// readBack splits a file with git's markers (of size 7, the diff3 style)
// into the texts of base, ours and theirs.
func readBack(marked []byte) (sides [3][]byte, hunks int) {
	state := 0 // 0 outside, 1 ours, 2 base, 3 theirs
	for _, l := range bytes.SplitAfter(marked, []byte("\n")) {
		next, isMarker := markerStep(string(l), state)
		if isMarker {
			if state == 0 {
				hunks++
			}
			state = next
			continue
		}
		if state == 0 {
			for i := range sides {
				sides[i] = append(sides[i], l...)
			}
			continue
		}
		i := [4]int{0, 1, 0, 2}[state] // the side of the conflict's part
		sides[i] = append(sides[i], l...)
	}
	return sides, hunks
}

// emptyLike is a notebook of ours' version without cells or metadata:
// the base a two-way repair merges from.
func emptyLike(ours []byte) []byte {
	v, err := viewOf(ours)
	if err != nil {
		v = &nbView{major: 4}
	}
	minor := 0
	if v.major == 4 {
		minor = v.minor
	}
	if v.major == 3 {
		return []byte(`{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]}`)
	}
	return fmt.Appendf(nil, `{"cells": [], "metadata": {}, "nbformat": %d, "nbformat_minor": %d}`, v.major, minor)
}

// judgeRepair judges a repair's outcome against the sides of git's file.
func judgeRepair(out outcome, opt checkOptions) []failure {
	sides, hunks := readBack(out.marked)
	untouched := bytes.Equal(out.result, out.marked)
	if hunks == 0 {
		return []failure{{check: "git's file has no markers", msg: "the case should not have run"}}
	}
	for i := 1; i < 3; i++ {
		if _, err := parseJSON(sides[i]); err != nil || validNotebook(sides[i]) != nil {
			if err == nil && out.status != 2 {
				break // a side that reads: judged as any merge
			}
			switch {
			case out.status != 2:
				return []failure{{check: "merged a side that is not JSON", side: sideNames[i], msg: fmt.Sprintf("exit %d: %v", out.status, err)}}
			case !untouched:
				return []failure{{check: "refused, and git's file changed", side: sideNames[i], msg: firstLine(out.said)}}
			}
			return nil // refused, the file as git left it: nothing lost
		}
	}
	switch {
	case out.status == 2:
		f := failure{check: "refused (exit 2): " + reason(out.said), msg: firstLine(out.said)}
		if !untouched {
			f.check += ", and git's file changed"
		}
		return []failure{f}
	case out.status != 0 && out.status != 1:
		return []failure{{check: fmt.Sprintf("crashed (exit %d)", out.status), msg: firstLine(out.said)}}
	}
	base := sides[0]
	if v, err := parseJSON(base); err != nil || !isObject(v) {
		base = emptyLike(sides[1]) // no base that reads: a two-way merge
	}
	if notAllValid(base, sides) {
		return linesKept(base, sides, out)
	}
	judged := func(keys func([4]*nbView)) []failure {
		o := opt
		o.keys = keys
		return check(defaulted(base), defaulted(sides[1]), defaulted(sides[2]), out.result, out.status == 0, o)
	}
	fails := judged(opt.keys)
	readings := []func([4]*nbView){
		tokenKeysInOrder,           // a cell a side holds twice: either copy may be base's
		tokenKeysEqualFirst,        // or the copy as base had it
		tokenKeysEqualTwinsInOrder, // or so, but base's copies alike in order
		tokenIDKeys,                // or the copy with its id
		tokenKeysAlignedCopies,     // or the copy in base's place, of a cell base has once
		tokenKeysSameKindFirst,     // or the copy of base's copy's kind
		tokenKeysKindCopies,        // or so, of a cell base has once
		func(vs [4]*nbView) { // cells by id, where git gave a text another's id
			if !idsCrossed(vs) || !keyByID(vs) {
				tokenKeys(vs)
			}
		},
		func(vs [4]*nbView) { // the same, where git's hunks gave it two cells
			if !idsCrossed(vs) || !keyByIDInOrder(vs) {
				tokenKeys(vs)
			}
		},
		func(vs [4]*nbView) { // the same, a side's one new id as its one lost one
			if !idsCrossed(vs) || !keyByIDInOrderRenamed(vs) {
				tokenKeys(vs)
			}
		},
		func(vs [4]*nbView) { // the same, a side's cell of a new id by its token
			if !idsCrossed(vs) || !keyByIDThenToken(vs) {
				tokenKeys(vs)
			}
		},
	}
	if keys := fileKeys(out.marked, sides); keys != nil {
		readings = append(readings, keys) // the cells as git's file places them
	}
	if keys := fileEndKeys(out.marked, sides); keys != nil {
		readings = append(readings, keys) // or as it ends them
	}
	readings = append(readings, mixedReadings()...)      // each side's copies read its own way
	readings = append(readings, alikeApartReadings()...) // the sides' alike copies different ones
	for _, keys := range readings {
		if len(fails) == 0 {
			break
		}
		if fs := judged(keys); len(fs) < len(fails) {
			fails = fs
		}
	}
	return fails
}

// keyByIDInOrder keys every cell by its id, a notebook's later cells of
// an id it gives more than one numbered in their order ("id:X#2"), and a
// result cell of an id no input has by an input's later copy with its
// token, if every cell of the four has an id.
func keyByIDInOrder(vs [4]*nbView) bool {
	for _, v := range vs {
		for _, c := range v.cells {
			if _, ok := c.c.vals["id"].(string); !ok {
				return false
			}
		}
	}
	known := map[string]bool{}
	var later []*cellView // the inputs' later copies of an id
	for i, v := range vs {
		seen := map[string]int{}
		for _, c := range v.cells {
			id := c.c.vals["id"].(string)
			seen[id]++
			c.key = "id:" + id
			if n := seen[id]; n > 1 {
				c.key += fmt.Sprintf("#%d", n)
			}
			if i < 3 {
				known[id] = true
				if seen[id] > 1 {
					later = append(later, c)
				}
			}
		}
	}
	// A result cell of an id no input has is a later copy with its
	// token (a valid result gives such a copy an id of its own).
	taken := map[string]bool{}
	for _, c := range vs[3].cells {
		taken[c.key] = true
	}
	for _, c := range vs[3].cells {
		if known[c.c.vals["id"].(string)] {
			continue
		}
		for _, l := range later {
			if !taken[l.key] && tokenRe.FindString(l.text) == tokenRe.FindString(c.text) {
				c.key, taken[l.key] = l.key, true
				break
			}
		}
	}
	return true
}

// keyByIDThenToken keys the cells by id, as keyByID, but for a cell of
// an id base has not: a side's such cell is the base cell of its token
// whose id that side has no cell of (the side changed the cell's id; its
// text says which cell it is, where git's hunks gave base's id line to
// another cell's text), and a result's such cell is the side's cell of
// its id, or else, by its token, as a side's is; a cell neither names is
// new, keyed by its id. It keys nothing, and reports false, unless every
// cell of the four has an id, unique in its notebook.
func keyByIDThenToken(vs [4]*nbView) bool {
	for _, v := range vs {
		seen := map[string]bool{}
		for _, c := range v.cells {
			id, ok := c.c.vals["id"].(string)
			if !ok || seen[id] {
				return false
			}
			seen[id] = true
		}
	}
	inBase := map[string]bool{}
	byToken := map[string]string{} // a token base has once: its cell's id
	tokens := map[string]int{}
	for _, c := range vs[0].cells {
		id := c.c.vals["id"].(string)
		inBase[id] = true
		tok := tokenRe.FindString(c.text)
		tokens[tok]++
		byToken[tok] = id
	}
	sideKey := map[string]string{} // a side's cell of an id base has not: its key
	for i, v := range vs {
		has, taken := map[string]bool{}, map[string]bool{}
		for _, c := range v.cells {
			has[c.c.vals["id"].(string)] = true
		}
		for _, c := range v.cells {
			id := c.c.vals["id"].(string)
			c.key = "id:" + id
			if inBase[id] {
				continue
			}
			if k, ok := sideKey[id]; ok && i == 3 && !taken[k] {
				c.key, taken[k] = k, true
				continue
			}
			tok := tokenRe.FindString(c.text)
			if b, ok := byToken[tok]; ok && tok != "" && tokens[tok] == 1 && !has[b] && !taken["id:"+b] {
				c.key = "id:" + b
				taken[c.key] = true
			}
			if i < 3 {
				if _, ok := sideKey[id]; !ok {
					sideKey[id] = c.key
				}
			}
		}
	}
	return true
}

// idsCrossed reports whether an id goes with different tokens in
// different notebooks (git's hunks gave one cell's text another's id).
func idsCrossed(vs [4]*nbView) bool {
	tokOf := map[string]string{}
	for _, v := range vs {
		for _, c := range v.cells {
			id, ok := c.c.vals["id"].(string)
			tok := tokenRe.FindString(c.text)
			if !ok || tok == "" {
				continue
			}
			if t, seen := tokOf[id]; seen && t != tok {
				return true
			}
			tokOf[id] = tok
		}
	}
	return false
}

// defaulted gives a side's cells git's hunks took a required member
// from (or gave one of another kind's) what a reader of such a cell
// makes of it: a code cell without "outputs" has none ([]), without
// "execution_count" none (null), without "metadata" none ({}); a markdown
// or raw cell's empty "outputs" or null "execution_count" is no value
// (and a valid result cannot hold it).
func defaulted(data []byte) []byte {
	d := defaults.get(data, defaultMembers)
	if d == nil {
		return data
	}
	return bytes.Clone(d)
}

var defaults = newMemo[[]byte](512)

// defaultMembers is defaulted's notebook written anew, or nil where data
// is as defaulted has it.
func defaultMembers(data []byte) []byte {
	v, err := parseJSON(data)
	nb, ok := v.(*obj)
	if err != nil || !ok || number(nb.vals["nbformat"]) != 4 {
		return nil
	}
	changed := false
	for _, c := range rawCells(nb) {
		if _, ok := c.get("metadata"); !ok {
			c.set("metadata", newObj())
			changed = true
		}
		if str(c.vals["cell_type"]) == "code" {
			if _, ok := c.get("outputs"); !ok {
				c.set("outputs", []any{})
				changed = true
			}
			if _, ok := c.get("execution_count"); !ok {
				c.set("execution_count", nil)
				changed = true
			}
			continue
		}
		if o, ok := c.vals["outputs"].([]any); ok && len(o) == 0 {
			c.del("outputs")
			changed = true
		}
		if n, ok := c.get("execution_count"); ok && n == nil {
			c.del("execution_count")
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return oneLineStyle.write(nb)
}

func isObject(v any) bool {
	_, ok := v.(*obj)
	return ok
}

// notAllValid reports whether base (as merged from) or a side read back
// is not a valid notebook, even with what git's hunks took defaulted.
func notAllValid(base []byte, sides [3][]byte) bool {
	for _, sd := range [][]byte{base, sides[1], sides[2]} {
		if validNotebook(defaulted(sd)) != nil {
			return true
		}
	}
	return false
}

// linesKept judges a repair whose sides are not all valid notebooks: the
// result is valid, its marks agree with the status, and every text line
// a side added (not in any of base's cell texts) is in a text of the
// result (a cell's, or a text a cell's record holds). A version 3 heading's text is read, in every notebook, as
// nbformat's upgrade reads it (upgradedHeading: one line, after its
// level's hashes, level 1 where git's hunks took it), as check reads a
// heading whose result is not a heading.
func linesKept(base []byte, sides [3][]byte, out outcome) []failure {
	rv, err := viewOf(out.result)
	if err != nil {
		return []failure{{check: "result not JSON", msg: err.Error()}}
	}
	var fails []failure
	if err := validNotebook(out.result); err != nil {
		fails = append(fails, failure{check: "result invalid", msg: err.Error()})
	}
	texts := func(v *nbView) map[string]bool {
		m := map[string]bool{}
		for _, c := range v.cells {
			// A version 3 heading is the one markdown line the
			// upgrade makes of it (as check reads it where the result
			// is no heading): the merge works on that line.
			for l := range lineSet(upgradedHeading(c, true).text) {
				m[l] = true
			}
		}
		return m
	}
	takeMarkerCells(rv)
	have := texts(rv)
	// A text a record holds is in the file, inside a marked conflict.
	for _, c := range rv.cells {
		for _, r := range c.recs {
			for i, v := range r.vals {
				if s, ok := v.(string); ok && r.has[i] && r.ptr == "/source" {
					for l := range lineSet(s) {
						have[l] = true
					}
				}
			}
		}
	}
	bv, err := viewOf(base)
	if err != nil {
		bv = &nbView{}
	}
	baseLines := texts(bv)
	inputs := map[string]bool{}
	for i := 1; i < 3; i++ {
		sv, err := viewOf(sides[i])
		if err != nil {
			return append(fails, failure{check: "input not JSON", side: sideNames[i], msg: err.Error()})
		}
		for l := range texts(sv) {
			inputs[l] = true
			if l != "" && !baseLines[l] && !have[l] {
				fails = append(fails, failure{check: "lost", side: sideNames[i], ptr: "/source", msg: fmt.Sprintf("line %q is in no text of the result", l)})
			}
		}
	}
	marked := len(rv.recs) > 0 || rv.markerCells > 0
	for _, c := range rv.cells {
		marked = marked || len(c.recs) > 0
		if outs, ok := c.c.vals["outputs"].([]any); ok {
			if _, ok := outputRegions(outs); ok {
				marked = true
			}
		}
		for _, p := range func() [][3][]string { _, ps := regions(c.text); return ps }() {
			for _, part := range p {
				for _, l := range part {
					if !inputs[l] && !baseLines[l] {
						fails = append(fails, failure{check: "line from nowhere", ptr: "/source", msg: fmt.Sprintf("%q", l)})
					}
				}
			}
			marked = true
		}
	}
	switch clean := out.status == 0; {
	case clean && marked:
		fails = append(fails, failure{check: "marks in a clean result", msg: "the repair reported no conflict"})
	case !clean && !marked:
		fails = append(fails, failure{check: "conflict not marked in the file", msg: "the repair reported a conflict"})
	}
	return fails
}

// keyByIDInOrderRenamed is keyByIDInOrder reading a side that has one id
// base has not, once, and lacks one id of base's as having changed that
// cell's id (git's hunks gave the new id line to another cell's text, so
// no token says which cell it is): the side's cell, and the result's of
// that id where the other side has none, take the base cell's key.
func keyByIDInOrderRenamed(vs [4]*nbView) bool {
	if !keyByIDInOrder(vs) {
		return false
	}
	ids := func(v *nbView) map[string]int {
		n := map[string]int{}
		for _, c := range v.cells {
			n[c.c.vals["id"].(string)]++
		}
		return n
	}
	base := ids(vs[0])
	for i := 1; i < 3; i++ {
		side, other := ids(vs[i]), ids(vs[3-i])
		var added, gone []string
		for id, n := range side {
			if base[id] == 0 && n == 1 {
				added = append(added, id)
			}
		}
		for id := range base {
			if side[id] == 0 {
				gone = append(gone, id)
			}
		}
		if len(added) != 1 || len(gone) != 1 || other[added[0]] > 0 {
			continue
		}
		for _, v := range []*nbView{vs[i], vs[3]} {
			for _, c := range v.cells {
				if c.key == "id:"+added[0] {
					c.key = "id:" + gone[0]
				}
			}
		}
	}
	return true
}
