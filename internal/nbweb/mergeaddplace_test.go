package nbweb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cell both sides added at different places (base a b c, ours a x b c,
// theirs a b x c): the page shows base's place as none and ours' and
// theirs' from the record, and resolves it to ours' place (a x b c) or
// theirs' (after b: a b x c), the record gone either way; without cell
// ids (nbformat 4.4) theirs' place names no cell, and only ours' is
// offered.
func TestResolveCellAddedOnBothSidesApart(t *testing.T) {
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
	for _, tc := range []struct {
		minor   int
		choices string
		want    map[string]string // choice → the resolved order
	}{
		{5, "ours theirs", map[string]string{"ours": "a x b c", "theirs": "a b x c"}},
		{4, "ours", map[string]string{"ours": "a x b c"}},
	} {
		dir := t.TempDir()
		var paths [3]string
		for i, order := range []string{"a b c", "a x b c", "a b x c"} {
			paths[i] = filepath.Join(dir, []string{"base", "ours", "theirs"}[i]+".ipynb")
			if err := os.WriteFile(paths[i], nb(tc.minor, order), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := newTestMerge(t, paths, "")
		d, _ := a.in.dialogOf("merged", a.res.Data)
		v := a.view(d, 0)
		var choices []string
		for _, c := range v.Choices {
			choices = append(choices, c.Value)
		}
		if strings.Join(choices, " ") != tc.choices || !strings.Contains(v.Title, "added on both sides at different places") {
			t.Errorf("4.%d: %q, choices %v, want %s", tc.minor, v.Title, choices, tc.choices)
		}
		if tc.minor == 5 && (v.Base != "(none: added on both sides)" || v.Ours != "cell 2, after the cell of id a" || v.Theirs != "cell 3, after the cell of id b") {
			t.Errorf("4.%d: places %q %q %q", tc.minor, v.Base, v.Ours, v.Theirs)
		}
		for choice, want := range tc.want {
			data, resolved, err := a.apply([]resolution{{Choice: choice}})
			if err != nil || resolved != 1 {
				t.Fatalf("4.%d %s: %d resolved, %v", tc.minor, choice, resolved, err)
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
					t.Errorf("4.%d %s: metadata left %v", tc.minor, choice, c.Metadata)
				}
			}
			if strings.Join(order, " ") != want {
				t.Errorf("4.%d %s: order %v, want %s", tc.minor, choice, order, want)
			}
		}
	}
}
