package nbweb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cell whose place both sides chose differently: moved on both sides
// (base a b c d, ours b c a d, theirs b c d a) or added on both sides at
// different places (base a b c, ours a x b c, theirs a b x c). The page
// shows the three places from its record (base's as none for an added
// cell) and resolves it to ours' place or theirs', the record gone either
// way; without cell ids (nbformat 4.4) theirs' place names no cell, and
// only ours' is offered.
func TestResolveCellPlacedApart(t *testing.T) {
	t.Parallel()
	nb := func(minor int, order string) []byte {
		var cells []any
		for _, id := range strings.Fields(order) {
			c := map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "cell " + id}
			if minor >= 5 {
				c["id"] = id
			}
			cells = append(cells, c)
		}
		b, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": minor, "metadata": map[string]any{}, "cells": cells})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, sh := range []struct {
		name, what         string
		orders             [3]string // base, ours, theirs
		base, ours, theirs string    // the places the page shows (4.5)
	}{
		{"moved", "moved on both sides", [3]string{"a b c d", "b c a d", "b c d a"},
			"cell 1 (first)", "cell 3, after the cell of id c", "cell 4, after the cell of id d"},
		{"added", "added on both sides at different places", [3]string{"a b c", "a x b c", "a b x c"},
			"(none: added on both sides)", "cell 2, after the cell of id a", "cell 3, after the cell of id b"},
	} {
		for _, tc := range []struct {
			minor   int
			choices string
			want    map[string]string // choice → the resolved order
		}{
			{5, "ours theirs", map[string]string{"ours": sh.orders[1], "theirs": sh.orders[2]}},
			{4, "ours", map[string]string{"ours": sh.orders[1]}},
		} {
			dir := t.TempDir()
			var paths [3]string
			for i, order := range sh.orders {
				paths[i] = filepath.Join(dir, []string{"base", "ours", "theirs"}[i]+".ipynb")
				if err := os.WriteFile(paths[i], nb(tc.minor, order), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			a, _ := newTestMerge(t, paths, "")
			d, _ := a.in.dialogOf("merged", a.data)
			v := a.view(d, 0)
			var choices []string
			for _, c := range v.Choices {
				choices = append(choices, c.Value)
			}
			if strings.Join(choices, " ") != tc.choices || !strings.Contains(v.Title, sh.what) {
				t.Errorf("%s 4.%d: %q, choices %v, want %s", sh.name, tc.minor, v.Title, choices, tc.choices)
			}
			if tc.minor == 5 && (v.Base != sh.base || v.Ours != sh.ours || v.Theirs != sh.theirs) {
				t.Errorf("%s 4.%d: places %q %q %q", sh.name, tc.minor, v.Base, v.Ours, v.Theirs)
			}
			for choice, want := range tc.want {
				data, resolved, err := a.apply([]resolution{{Choice: choice}})
				if err != nil || resolved != 1 {
					t.Fatalf("%s 4.%d %s: %d resolved, %v", sh.name, tc.minor, choice, resolved, err)
				}
				var out struct {
					Cells []struct {
						Source   string         `json:"source"`
						Metadata map[string]any `json:"metadata"`
					} `json:"cells"`
				}
				if err := json.Unmarshal(data, &out); err != nil {
					t.Fatal(err)
				}
				var order []string
				for _, c := range out.Cells {
					order = append(order, strings.TrimPrefix(c.Source, "cell "))
					if len(c.Metadata) != 0 {
						t.Errorf("%s 4.%d %s: metadata left %v", sh.name, tc.minor, choice, c.Metadata)
					}
				}
				if strings.Join(order, " ") != want {
					t.Errorf("%s 4.%d %s: order %v, want %s", sh.name, tc.minor, choice, order, want)
				}
			}
		}
	}
}
