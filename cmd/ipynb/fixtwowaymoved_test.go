package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// Without a base in git's markers and without cell ids, a cell a side
// moved is one cell: equal on both sides (or of one kind and source, a
// side having also re-run it), it is kept once, never taken for the
// other side's version of the cell now in its old place (which put it
// between markers against that cell, itself kept beside them: seed
// 63001051 of the fix path). From an empty base the sides agree on each
// equal cell, so each text is in one cell; a cell one side alone has is
// kept; a moved cell re-run on one side holds both sides' outputs in a
// conflict. Both sides are re-indented alike, so that git's conflict
// spans the whole file (as in the seed); git's default conflict style
// has no base section.
func TestFixTwoWayPairsMovedCells(t *testing.T) {
	needGit(t)
	cell := func(kind, src string, n any, out ...string) map[string]any {
		c := map[string]any{"cell_type": kind, "metadata": map[string]any{}, "source": src}
		if kind == "code" {
			outs := []any{}
			for _, o := range out {
				outs = append(outs, map[string]any{"name": "stdout", "output_type": "stream", "text": o})
			}
			c["outputs"], c["execution_count"] = outs, n
		}
		return c
	}
	nb := func(minor int, indent string, cells ...map[string]any) string {
		b, err := json.MarshalIndent(map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": minor}, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	a := cell("code", "a1\na2", 26, "a out\n")
	a2 := cell("code", "a1\na2", 27, "a out again\n")
	b := cell("markdown", "b1\nb2", nil)
	c := cell("code", "c1\nc2", 6)
	d := cell("raw", "d1", nil)
	type side = []map[string]any
	for _, tc := range []struct {
		name      string
		base      side
		o, t      side
		texts     []string // each in exactly one cell, sorted
		conflicts int      // cells with markers in their text or outputs
	}{
		{"theirs moves a cell back and deletes one (the seed)", side{a, b, c}, side{a, b, c}, side{b, a}, []string{"a1", "b1", "c1"}, 0},
		{"theirs reverses three cells", side{a, b, c}, side{a, b, c}, side{c, b, a}, []string{"a1", "b1", "c1"}, 0},
		{"ours moves a cell to the end and adds one", side{a, b, c}, side{b, c, d, a}, side{a, b, c}, []string{"a1", "b1", "c1", "d1"}, 0},
		{"theirs moves a cell it re-ran", side{a, b, c}, side{a, b, c}, side{b, a2, c}, []string{"a1", "b1", "c1"}, 1},
	} {
		for _, minor := range []int{0, 4} {
			dir := t.TempDir()
			p := gitConflict(t, dir, nb(minor, " ", tc.base...), nb(minor, "  ", tc.o...), nb(minor, "  ", tc.t...))
			r := ipynb(t, dir, "", "fix", p)
			if want := map[bool]int{true: 0, false: 1}[tc.conflicts == 0]; r.code != want {
				t.Errorf("%s (4.%d): exit %d, want %d: %s", tc.name, minor, r.code, want, r.stderr)
				continue
			}
			data, _ := os.ReadFile(p)
			var res struct {
				Cells []struct {
					Source  any
					Outputs []map[string]any
				}
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatalf("%s (4.%d): %v", tc.name, minor, err)
			}
			srcs := cellSources(t, data)
			var firsts []string
			marked := 0
			for i, s := range srcs {
				outMarked := false
				for _, o := range res.Cells[i].Outputs {
					text, _ := o["text"].(string)
					outMarked = outMarked || strings.HasPrefix(text, "<<<<<<<")
				}
				if strings.Contains(s, "<<<<<<<") || outMarked {
					marked++
				}
				firsts = append(firsts, strings.SplitN(strings.TrimPrefix(s, "<<<<<<< ours\n"), "\n", 2)[0])
			}
			slices.Sort(firsts) // (from an empty base, no side's place is a change)
			if !slices.Equal(firsts, tc.texts) || marked != tc.conflicts {
				t.Errorf("%s (4.%d): cells starting %q with %d conflicts, want %q with %d: %s", tc.name, minor, firsts, marked, tc.texts, tc.conflicts, data)
			}
			if tc.conflicts > 0 && (!strings.Contains(string(data), "a out\\n") || !strings.Contains(string(data), "a out again\\n")) {
				t.Errorf("%s (4.%d): a side's outputs are lost: %s", tc.name, minor, data)
			}
		}
	}
}
