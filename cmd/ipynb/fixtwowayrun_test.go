package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Without a base in git's markers (its default conflict style) and
// without cell ids, fix pairs the two sides' cells between those equal on
// both: where one side has cells the other has not (a cell it inserted),
// the cells that share lines are one cell's two versions, the others new
// cells of their own; a new cell is never taken for the other side's
// version of an edited cell (which would put it between markers against
// that version, and leave the other version beside it as a cell both
// sides added). Ours is re-indented, so that git's conflict spans the
// whole file.
func TestFixTwoWayPairsCellsThatShareLines(t *testing.T) {
	needGit(t)
	cell := func(kind, src string) map[string]any {
		c := map[string]any{"cell_type": kind, "metadata": map[string]any{}, "source": src}
		if kind == "code" {
			c["outputs"], c["execution_count"] = []any{}, nil
		}
		return c
	}
	nb := func(indent string, cells ...map[string]any) string {
		b, err := json.MarshalIndent(map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4}, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	x := cell("markdown", "x1\nx2\nx3")
	xo := cell("markdown", "x1\nx2\nx3\nours")
	xt := cell("markdown", "x1\nx2 theirs\nx3")
	y := cell("code", "y1\ny2")
	n1, n2 := cell("raw", "new1\nnew1.1"), cell("code", "new2\nnew2.1")
	for _, c := range []struct {
		name         string
		base, o, t   []map[string]any
		news, edited []string // texts of new cells; lines of the edited cell's two versions
	}{
		{"theirs inserts a cell before the cell both edit", []map[string]any{x}, []map[string]any{xo}, []map[string]any{n1, xt}, []string{"new1"}, []string{"ours", "x2 theirs"}},
		{"theirs inserts a cell after it", []map[string]any{x, y}, []map[string]any{xo, y}, []map[string]any{xt, n1, y}, []string{"new1"}, []string{"ours", "x2 theirs"}},
		{"ours inserts two cells before it", []map[string]any{y, x}, []map[string]any{y, n1, n2, xo}, []map[string]any{y, xt}, []string{"new1", "new2"}, []string{"ours", "x2 theirs"}},
		{"each side inserts a cell, on either side of it", []map[string]any{x}, []map[string]any{n2, xo}, []map[string]any{xt, n1}, []string{"new1", "new2"}, []string{"ours", "x2 theirs"}},
	} {
		dir := t.TempDir()
		p := gitConflict(t, dir, nb(" ", c.base...), nb("  ", c.o...), nb(" ", c.t...))
		r := ipynb(t, dir, "", "fix", p)
		if r.code != 1 {
			t.Errorf("%s: exit %d: %s", c.name, r.code, r.stderr)
			continue
		}
		data, _ := os.ReadFile(p)
		srcs := cellSources(t, data)
		for _, n := range c.news {
			var in []string
			for _, s := range srcs {
				if strings.Contains(s, n+"\n") {
					in = append(in, s)
				}
			}
			if len(in) != 1 || strings.Contains(in[0], "<<<<<<<") {
				t.Errorf("%s: new cell %q in cells %q", c.name, n, in)
			}
		}
		found := false
		for _, s := range srcs {
			found = found || strings.Contains(s, "<<<<<<<") && strings.Contains(s, c.edited[0]+"\n") && strings.Contains(s, c.edited[1]+"\n")
		}
		if !found {
			t.Errorf("%s: no cell holds both versions of the edited cell between markers: %q", c.name, srcs)
		}
		if want := len(c.news) + len(c.base); len(srcs) != want {
			t.Errorf("%s: %d cells, want %d: %s", c.name, len(srcs), want, fmt.Sprint(srcs))
		}
	}
}

// Without a base in git's markers, fix merges from an empty base: a
// notebook metadata value the sides do not agree on is a conflict, its
// record holding both (ours' value is not base's), a key one side alone
// has is kept, and a key both have alike is kept once.
func TestFixTwoWayNotebookMetadataFromNothing(t *testing.T) {
	needGit(t)
	nb := func(indent string, meta map[string]any) string {
		cells := []any{map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "x"}}
		b, err := json.MarshalIndent(map[string]any{"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 4}, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	base := nb(" ", map[string]any{"kernelspec": map[string]any{"display_name": "Python 3", "name": "python3"}})
	ours := nb("  ", map[string]any{"kernelspec": map[string]any{"display_name": "Python 3", "name": "python3"}, "deep": map[string]any{"y": "o2"}, "mine": true})
	theirs := nb(" ", map[string]any{"kernelspec": map[string]any{"display_name": "Python 3", "name": "python3"}, "deep": map[string]any{"y": map[string]any{"z": 1.0}}})
	dir := t.TempDir()
	p := gitConflict(t, dir, base, ours, theirs)
	r := ipynb(t, dir, "", "fix", p)
	if r.code != 1 || !strings.Contains(r.stderr, "notebook metadata key deep/y") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	meta := decoded(t, p)["metadata"].(map[string]any)
	recs, _ := meta["ipynb_conflicts"].([]any)
	if len(recs) != 1 {
		t.Fatalf("records %v", meta["ipynb_conflicts"])
	}
	rec := recs[0].(map[string]any)
	got, _ := json.Marshal([]any{rec["pointer"], rec["ours"], rec["theirs"], meta["mine"], meta["kernelspec"]})
	if want := `["/metadata/deep/y","o2",{"z":1},true,{"display_name":"Python 3","name":"python3"}]`; string(got) != want {
		t.Errorf("record and keys %s, want %s", got, want)
	}
}
