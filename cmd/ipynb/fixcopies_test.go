package main

// Tests that fix keeps the copies of a cell that git's line merge left in both
// sides, as often as both hold them.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Issues 21 items 3 and 4: where each side moved one cell to another
// place, git's line merge can leave a cell twice in every side its
// markers hold (the clean hunks move it, a conflict keeps it where it
// was too), each copy with the cell's id. Fix keeps, of cells all of
// whose copies in the three sides are alike, as many copies as both sides
// hold (each side holds them as base does: no side deleted them), under
// unique ids, one keeping the cell's own; nothing lost, no conflict. The
// sides are read back from git's file here, by the markers alone.
func TestFixKeepsCopiesBothSidesHold(t *testing.T) {
	needGitParallel(t)
	files, err := filepath.Glob(filepath.Join("testdata", "fixcopies", "*.ipynb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bases: %v", err)
	}
	dir := t.TempDir()
	repeated := 0 // cells held twice in base's side (and checked)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := string(data)
		n := len(cellBlocks(t, base)) - 2
		if movedCell(t, base, 0, 0) != base {
			t.Fatalf("%s: cells not split at their lines", f)
		}
		for from := range n {
			for to1 := range n {
				for to2 := range n {
					if to1 == from || to2 == from || to1 == to2 {
						continue
					}
					name := fmt.Sprintf("%s: cell %d moved to %d by ours, to %d by theirs", filepath.Base(f), from, to1, to2)
					marked := gitMerged(t, dir, base, movedCell(t, base, from, to1), movedCell(t, base, from, to2))
					if marked == nil {
						continue
					}
					repeated += checkCopiesKept(t, name, marked)
				}
			}
		}
	}
	if repeated == 0 {
		t.Error("no case has base's side holding a cell twice")
	}
}

// checkCopiesKept repairs git's file marked and checks the result as
// TestFixKeepsCopiesBothSidesHold says; it returns the number of cells
// base's side holds more than once that it checked.
func checkCopiesKept(t *testing.T, name string, marked []byte) (repeated int) {
	t.Helper()
	var sides [3][]cellCopy
	for i, s := range markerSides(marked) {
		var ok bool
		if sides[i], ok = copiesOf(s); !ok {
			return 0 // (a side is not JSON: fix refuses it, see TestFixRefusesSides)
		}
	}
	f, err := splitForFix(slices.Clone(marked), mergeOptions{})
	var buf bytes.Buffer
	if err == nil {
		err = f.mergeTo(&buf)
	}
	if err != nil {
		t.Errorf("%s: %v\ngit's file:\n%s", name, err, marked)
		return 0
	}
	out, conflicts := buf.Bytes(), f.summary
	res, ok := copiesOf(out)
	if !ok {
		t.Fatalf("%s: the result is not a notebook:\n%s", name, out)
	}
	ids := map[string]bool{}
	for _, c := range res {
		if ids[c.id] {
			t.Errorf("%s: id %s twice in the result", name, c.id)
		}
		ids[c.id] = true
	}
	for tok, want := range keptCopies(sides) {
		if want.inBase > 1 {
			repeated++
		}
		got, kept := 0, false
		for _, c := range res {
			if c.tok == tok {
				got++
				kept = kept || c.id == want.id
			}
		}
		if got != want.n || !kept {
			t.Errorf("%s: %d copies of %s in the result, id %s kept: %v (both sides hold %d as base does; conflicts: %q)\ngit's file:\n%s\nresult:\n%s", name, got, tok, want.id, kept, want.n, conflicts, marked, out)
		}
	}
	return repeated
}

// cellBlocks splits a notebook's text at its cells: the text before the
// first, each cell's lines (without the comma after it), the text after
// the last. The cells are the objects of the lines after "cells": [ at
// their indentation.
func cellBlocks(t *testing.T, nb string) []string {
	t.Helper()
	lines := strings.SplitAfter(nb, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"cells": [`) })
	if i < 0 || i+1 == len(lines) {
		t.Fatal("no cells")
	}
	open := lines[i+1]
	ind := open[:len(open)-len(strings.TrimLeft(open, " "))]
	head := strings.Join(lines[:i+1], "")
	var blocks []string
	var cur strings.Builder
	k := i + 1
	for ; k < len(lines) && lines[k] == ind+"{\n"; k++ {
		for ; lines[k] != ind+"}\n" && lines[k] != ind+"},\n"; k++ {
			cur.WriteString(lines[k])
		}
		cur.WriteString(ind + "}")
		blocks = append(blocks, cur.String())
		cur.Reset()
	}
	return append(append([]string{head}, blocks...), "\n"+strings.Join(lines[k:], ""))
}

// movedCell is nb with its cell from moved to place to, the text
// otherwise as it is.
func movedCell(t *testing.T, nb string, from, to int) string {
	bs := cellBlocks(t, nb)
	cells := bs[1 : len(bs)-1]
	c := cells[from]
	cells = slices.Insert(slices.Delete(slices.Clone(cells), from, from+1), to, c)
	return bs[0] + strings.Join(cells, ",\n") + bs[len(bs)-1]
}

// gitMerged has git merge-file --diff3 merge ours and theirs from base in
// dir and returns its file with markers (nil where git merged cleanly).
func gitMerged(t *testing.T, dir, base, ours, theirs string) []byte {
	t.Helper()
	for name, text := range map[string]string{"base.ipynb": base, "nb.ipynb": ours, "theirs.ipynb": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "merge-file", "--diff3", "nb.ipynb", "base.ipynb", "theirs.ipynb")
	cmd.Dir = dir
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 127 {
		t.Fatalf("git merge-file: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var markerRe = regexp.MustCompile(`^(<{7}|\|{7}|={7}|>{7})( |\n|$)`)

// markerSides reads git's file back as base, ours and theirs: the lines
// outside the conflicts with each conflict's lines of that side.
func markerSides(marked []byte) [3][]byte {
	var sides [3][]byte
	part := -1 // -1 outside; else 1 ours, 0 base, 2 theirs
	for _, l := range bytes.SplitAfter(marked, []byte("\n")) {
		if m := markerRe.FindSubmatch(l); m != nil {
			part = map[byte]int{'<': 1, '|': 0, '=': 2, '>': -1}[m[1][0]]
			continue
		}
		for i := range sides {
			if part < 0 || part == i {
				sides[i] = append(sides[i], l...)
			}
		}
	}
	return sides
}

// A cellCopy is a cell of a notebook: the token of its text («…»), its id
// and the cell as JSON (keys sorted).
type cellCopy struct{ tok, id, json string }

var tokRe = regexp.MustCompile(`«\w+»`)

func copiesOf(data []byte) ([]cellCopy, bool) {
	var nb struct{ Cells []map[string]any }
	if json.Unmarshal(data, &nb) != nil {
		return nil, false
	}
	var out []cellCopy
	for _, c := range nb.Cells {
		src, _ := json.Marshal(c["source"])
		all, _ := json.Marshal(c)
		id, _ := c["id"].(string)
		out = append(out, cellCopy{tokRe.FindString(string(src)), id, string(all)})
	}
	return out, true
}

// keptCopies returns, for each token whose cells are alike in all three
// sides (one JSON), that both sides hold no more often than base, how
// many copies both hold (the fewer of the two), how many base holds and
// the cells' id.
func keptCopies(sides [3][]cellCopy) map[string]struct {
	n, inBase int
	id        string
} {
	type count struct {
		n    [3]int
		json string
		id   string
		same bool
	}
	counts := map[string]*count{}
	for i, cs := range sides {
		for _, c := range cs {
			k := counts[c.tok]
			if k == nil {
				k = &count{json: c.json, id: c.id, same: true}
				counts[c.tok] = k
			}
			k.n[i]++
			k.same = k.same && k.json == c.json
		}
	}
	out := map[string]struct {
		n, inBase int
		id        string
	}{}
	for tok, k := range counts {
		if tok != "" && k.same && k.n[1] <= k.n[0] && k.n[2] <= k.n[0] && k.n[1] > 0 && k.n[2] > 0 {
			out[tok] = struct {
				n, inBase int
				id        string
			}{min(k.n[1], k.n[2]), k.n[0], k.id}
		}
	}
	return out
}
