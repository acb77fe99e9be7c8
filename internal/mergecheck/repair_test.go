package mergecheck

import (
	"bytes"
	"fmt"
	"strings"
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
// kept from both.

// readBack splits a file with git's markers (of size 7, the diff3 style)
// into the texts of base, ours and theirs.
func readBack(marked []byte) (sides [3][]byte, hunks int) {
	state := 0 // 0 outside, 1 ours, 2 base, 3 theirs
	for _, l := range bytes.SplitAfter(marked, []byte("\n")) {
		m := markerLine.FindStringSubmatch(strings.TrimRight(string(l), "\r\n"))
		switch {
		case m != nil && m[1][0] == '<' && state == 0:
			state = 1
			hunks++
			continue
		case m != nil && m[1][0] == '|' && state == 1:
			state = 2
			continue
		case m != nil && m[1][0] == '=' && (state == 1 || state == 2):
			state = 3
			continue
		case m != nil && m[1][0] == '>' && state == 3:
			state = 0
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
	v, _ := viewOf(ours)
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
	return check(defaulted(base), defaulted(sides[1]), defaulted(sides[2]), out.result, out.status == 0, opt)
}

// defaulted gives a side's cells git's hunks took a required member
// from (or gave one of another kind's) what a reader of such a cell
// makes of it: a code cell without "outputs" has none ([]), without
// "execution_count" none (null), without "metadata" none ({}); a markdown
// or raw cell's empty "outputs" or null "execution_count" is no value
// (and a valid result cannot hold it).
func defaulted(data []byte) []byte {
	v, err := parseJSON(data)
	nb, ok := v.(*obj)
	if err != nil || !ok || number(nb.vals["nbformat"]) != 4 {
		return data
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
		return data
	}
	return oneLineStyle.write(nb)
}

func isObject(v any) bool {
	_, ok := v.(*obj)
	return ok
}
