package main

// Pairing the cells of a two-way merge's sides by content beyond equal
// bytes: cells of one kind and source in order, and equal cells out of
// their common order (cells one side moved).

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/nbformat"
)

// contentKeys returns, for each cell, a string equal for cells of one
// kind and one source (their SHA-256 hash), "" for a cell whose source
// is blank (which says nothing of which cell it is).
func contentKeys(cells []nbformat.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		src := nbformat.SourceOf(c).String()
		if strings.TrimSpace(src) == "" {
			continue
		}
		h := sha256.New()
		h.Write([]byte(c.Type()))
		h.Write([]byte{0})
		h.Write([]byte(src))
		out[i] = string(h.Sum(nil))
	}
	return out
}

// matchContent adds to m (ours' cell i matched with theirs' cell m[i],
// in order) the cells of one kind and source in order between two
// matched ones: the same cell, re-run or re-saved by a side. Cells of a
// blank source are left as they are.
func matchContent(m []int, keysO, keysT []string) {
	i, j := 0, 0
	for i <= len(m) {
		i2 := i
		for i2 < len(m) && m[i2] < 0 {
			i2++
		}
		j2 := len(keysT)
		if i2 < len(m) {
			j2 = m[i2]
		}
		if i2 > i && j2 > j {
			ko, kt := unblank(keysO[i:i2], "o"), unblank(keysT[j:j2], "t")
			for k, x := range textdiff.Match(ko, kt) {
				if x >= 0 {
					m[i+k] = j + x
				}
			}
		}
		i, j = i2+1, j2+1
	}
}

// unblank is keys with each "" made a key no other cell has.
func unblank(keys []string, side string) []string {
	out := make([]string, len(keys))
	for k, key := range keys {
		if key == "" {
			key = "\x00" + side + strconv.Itoa(k)
		}
		out[k] = key
	}
	return out
}

// pairMoved gives each cell of ours and theirs that m leaves unmatched
// and that equals a cell the other side has unmatched its pair: first
// cells of equal bytes, then of one kind and one source that is not
// blank (a moved cell that a side also re-ran), each side's in order.
// Such a cell was moved by a side: paired by its place instead
// (pairInOrder), it would be a cell it is not, the other side's copy
// kept beside it. It returns the cells left and m for them.
func pairMoved(m []int, ours, theirs []nbformat.Cell, keys [2][2][]string, give func(...nbformat.Cell)) ([]int, []nbformat.Cell, []nbformat.Cell) {
	movedO, movedT := make([]bool, len(ours)), make([]bool, len(theirs))
	matchedT := make([]bool, len(theirs))
	for _, j := range m {
		if j >= 0 {
			matchedT[j] = true
		}
	}
	moved := 0
	for _, k := range keys {
		ko, kt := k[0], k[1]
		queues := map[string][]int{}
		for i := range ours {
			if m[i] < 0 && !movedO[i] && ko[i] != "" {
				queues[ko[i]] = append(queues[ko[i]], i)
			}
		}
		if len(queues) == 0 {
			continue
		}
		for j := range theirs {
			if matchedT[j] || movedT[j] || kt[j] == "" {
				continue
			}
			if q := queues[kt[j]]; len(q) > 0 {
				give(ours[q[0]], theirs[j])
				movedO[q[0]], movedT[j] = true, true
				queues[kt[j]] = q[1:]
				moved++
			}
		}
	}
	if moved == 0 {
		return m, ours, theirs
	}
	at := make([]int, len(theirs)) // theirs' cell j among those left
	var t []nbformat.Cell
	for j, c := range theirs {
		at[j] = len(t)
		if !movedT[j] {
			t = append(t, c)
		}
	}
	var o []nbformat.Cell
	var mo []int
	for i, c := range ours {
		if movedO[i] {
			continue
		}
		o = append(o, c)
		if m[i] >= 0 {
			mo = append(mo, at[m[i]])
		} else {
			mo = append(mo, -1)
		}
	}
	return mo, o, t
}
