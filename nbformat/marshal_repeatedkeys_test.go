package nbformat_test

// Tests of edits of objects whose file repeats a key: a member added beside it
// is written.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestEditRepeatedKeyKeepsAdded edits objects whose file repeats a key
// that is not one of the struct's fields (kept in AdditionalProperties;
// git's line merge leaves such files, as may other tools): a member
// added beside it is written, whatever the repeated key's values are and
// whichever object holds it (notebook metadata, a kernelspec, a cell's
// metadata). Expected: the input as encoding/json reads it (the last of
// a repeated key counting, as in Python), with the member added.
func TestEditRepeatedKeyKeepsAdded(t *testing.T) {
	t.Parallel()
	type place struct {
		name string
		obj  func(nb *nbformat.Notebook) *map[string]any // the edited object's extras
		path []string                                    // its place in the file
	}
	places := []place{
		{"notebook metadata", func(nb *nbformat.Notebook) *map[string]any { return &nb.Metadata.AdditionalProperties }, []string{"metadata"}},
		{"kernelspec", func(nb *nbformat.Notebook) *map[string]any { return &nb.Metadata.Kernelspec.AdditionalProperties }, []string{"metadata", "kernelspec"}},
		{"code cell metadata", func(nb *nbformat.Notebook) *map[string]any {
			return &nb.Cells[0].(*nbformat.CodeCell).Metadata.AdditionalProperties
		}, []string{"cells", "0", "metadata"}},
		{"markdown cell metadata", func(nb *nbformat.Notebook) *map[string]any {
			return &nb.Cells[1].(*nbformat.MarkdownCell).Metadata.AdditionalProperties
		}, []string{"cells", "1", "metadata"}},
	}
	repeats := []struct{ name, members string }{
		{"twice alike", `"deep": {"x": 1}, "deep": {"x": 1}`},
		{"twice, other value first", `"deep": {"x": 0}, "deep": {"x": 1}`},
		{"twice apart", `"deep": {"x": 1}, "other": 2, "deep": {"x": 1}`},
		{"two repeated", `"a": 1, "b": [2], "a": 1, "b": [2]`},
		{"three times", `"a": 1, "a": 1, "a": 1`},
	}
	for _, p := range places {
		for _, r := range repeats {
			t.Run(p.name+"/"+r.name, func(t *testing.T) {
				// Each object: its own members (rest), the repeated ones first
				// in the object edited.
				rest := map[string]string{"metadata": `"kernelspec": KS`, "kernelspec": `"display_name": "P", "name": "p"`, "0": "", "1": ""}
				last := p.path[len(p.path)-1]
				obj := func(k string) string {
					ms := rest[k]
					if k == last {
						ms = join(r.members, ms)
					}
					return "{" + ms + "}"
				}
				in := fmt.Sprintf(`{
 "cells": [
  {"cell_type": "code", "execution_count": null, "metadata": %s, "outputs": [], "source": "x"},
  {"cell_type": "markdown", "metadata": %s, "source": "y"}
 ],
 "metadata": %s,
 "nbformat": 4,
 "nbformat_minor": 4
}
`, obj("0"), obj("1"), strings.Replace(obj("metadata"), "KS", obj("kernelspec"), 1))
				nb, err := nbformat.Unmarshal([]byte(in))
				if err != nil {
					t.Fatal(err)
				}
				m := p.obj(nb)
				if *m == nil {
					*m = map[string]any{}
				}
				(*m)["added"] = "v"
				out, err := nbformat.Marshal(nb)
				if err != nil {
					t.Fatal(err)
				}
				var want, got any
				if err := json.Unmarshal([]byte(in), &want); err != nil {
					t.Fatal(err)
				}
				at(want, p.path)["added"] = "v"
				if err := json.Unmarshal(out, &got); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("written (-want +got):\n%s\n%s", d, out)
				}
			})
		}
	}
}

func join(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + ", " + b
}

// at returns the object at path in v (decoded by encoding/json).
func at(v any, path []string) map[string]any {
	for _, k := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			v = x[i]
		}
	}
	return v.(map[string]any)
}
