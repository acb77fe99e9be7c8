package main

// Pairing the cells between two anchors of a two-way merge's sides.

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/nbdialog/ipynb/nbformat"
)

// maxRunPairs bounds the cell pairs pairRun compares in one run (beyond
// it, the run's cells are paired in order).
const maxRunPairs = 1 << 12

// pairRun calls give for the cells of a run of ours and one of theirs
// (between two anchors): as many on both sides, each sharing a line with
// the other side's cell at its place, are those pairs (cells edited in
// place); otherwise the cells that share lines are paired first, in
// order, as many lines shared as can be (a side's new cell beside a cell
// both sides have in two versions: the new cell is alone, the versions
// one cell), and between those pairs the cells left in order where they
// hold the same metadata and attachments (one cell both sides rewrote: its
// text and kind a conflict), else each alone, ours' then theirs': cells
// that share no line and differ in those are not known to be one cell
// (without a base, two new cells look like two versions of one), and
// paired they would be one cell, the two sides' metadata and attachments
// mixed unmarked.
func pairRun(ours, theirs []nbformat.Cell, give func(...nbformat.Cell)) {
	if len(ours) == 0 || len(theirs) == 0 || len(ours)*len(theirs) > maxRunPairs {
		inOrderAlike(ours, theirs, give)
		return
	}
	lo, lt := make([]map[string]bool, len(ours)), make([]map[string]bool, len(theirs))
	for i, c := range ours {
		lo[i] = sourceLines(c)
	}
	for j, c := range theirs {
		lt[j] = sourceLines(c)
	}
	shared := func(i, j int) int {
		n := 0
		for l := range lo[i] {
			if lt[j][l] {
				n++
			}
		}
		return n
	}
	if len(ours) == len(theirs) {
		inPlace := true
		for k := range ours {
			inPlace = inPlace && shared(k, k) > 0
		}
		if inPlace {
			inOrder(ours, theirs, give)
			return
		}
	}
	// best[i][j]: the most lines shared by pairs in order among ours[i:]
	// and theirs[j:].
	best := make([][]int, len(ours)+1)
	for i := range best {
		best[i] = make([]int, len(theirs)+1)
	}
	for i := len(ours) - 1; i >= 0; i-- {
		for j := len(theirs) - 1; j >= 0; j-- {
			b := max(best[i+1][j], best[i][j+1])
			if n := shared(i, j); n > 0 {
				b = max(b, n+best[i+1][j+1])
			}
			best[i][j] = b
		}
	}
	i, j, fi, fj := 0, 0, 0, 0 // (fi, fj: the first cells not yet given)
	for i < len(ours) && j < len(theirs) {
		switch n := shared(i, j); {
		case n > 0 && best[i][j] == n+best[i+1][j+1]:
			inOrderAlike(ours[fi:i], theirs[fj:j], give)
			give(ours[i], theirs[j])
			i, j = i+1, j+1
			fi, fj = i, j
		case best[i][j] == best[i+1][j]:
			i++
		default:
			j++
		}
	}
	inOrderAlike(ours[fi:], theirs[fj:], give)
}

// inOrderAlike calls give for the cells of ours and theirs paired in
// order (see inOrder) when each pair holds the same metadata and
// attachments, else for each cell alone, ours' then theirs'.
func inOrderAlike(ours, theirs []nbformat.Cell, give func(...nbformat.Cell)) {
	alike := true
	for k := 0; alike && k < len(ours) && k < len(theirs); k++ {
		alike = sameMembersBesideText(ours[k], theirs[k])
	}
	if alike {
		inOrder(ours, theirs, give)
		return
	}
	for _, c := range ours {
		give(c)
	}
	for _, c := range theirs {
		give(c)
	}
}

// sameMembersBesideText reports whether two cells hold the same metadata
// and attachments (as JSON values, their members in any order).
func sameMembersBesideText(a, b nbformat.Cell) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return false
	}
	var ma, mb struct {
		Metadata    any `json:"metadata"`
		Attachments any `json:"attachments"`
	}
	if json.Unmarshal(ja, &ma) != nil || json.Unmarshal(jb, &mb) != nil {
		return false
	}
	ja, errA = json.Marshal(ma) // (map keys sorted)
	jb, errB = json.Marshal(mb)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// inOrder calls give for the cells of ours and theirs paired in order
// (alone where one side has more).
func inOrder(ours, theirs []nbformat.Cell, give func(...nbformat.Cell)) {
	for k := 0; k < len(ours) || k < len(theirs); k++ {
		switch {
		case k < len(ours) && k < len(theirs):
			give(ours[k], theirs[k])
		case k < len(ours):
			give(ours[k])
		default:
			give(theirs[k])
		}
	}
}

// sourceLines is the set of a cell's source lines that are not blank
// (without their line ends).
func sourceLines(c nbformat.Cell) map[string]bool {
	out := map[string]bool{}
	for l := range strings.SplitSeq(nbformat.SourceOf(c).String(), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			out[l] = true
		}
	}
	return out
}
