package main

// Tests that fix keeps a metadata member that git's line merge put beside a
// repeated key.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 21 items 4 and 6: where ours added a metadata member at one place
// and theirs added another member there and ours' member elsewhere, git's
// line merge gives ours' side the member twice (its own line in the
// conflict, theirs' in a clean hunk). Fix keeps theirs' member beside the
// repeated one, in nbformat 3 (the notebook's name, which the upgrade
// drops, or another key) as in 4, in the notebook's metadata and in a
// cell's. Expected: every member of ours' and theirs' sides read back
// from git's file (the last of a repeated key counting, as in Python).
func TestFixKeepsMemberBesideRepeatedKey(t *testing.T) {
	needGit(t)
	const v3 = `{
 "metadata": {
  "a": 1,
  "kernelspec": {
   "display_name": "Python 3",
   "name": "python3"
  }
 },
 "nbformat": 3,
 "nbformat_minor": 0,
 "worksheets": [
  {
   "cells": [
    {
     "cell_type": "markdown",
     "metadata": {
      "a": 1,
      "tags": []
     },
     "source": "x"
    }
   ],
   "metadata": {}
  }
 ]
}
`
	const v4 = `{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {
    "a": 1,
    "tags": []
   },
   "source": "x"
  }
 ],
 "metadata": {
  "a": 1,
  "kernelspec": {
   "display_name": "Python 3",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 4
}
`
	// ours puts deep before "a"; theirs puts key there and deep after the
	// object's last member.
	edit := func(nb, ind string, withDeep, withKey bool, key, last string) string {
		deep := ind + `"deep": {` + "\n" + ind + ` "x": 1` + "\n" + ind + "},\n"
		head := ind + `"a": 1,` + "\n"
		out := nb
		add := ""
		if withKey {
			add += ind + `"` + key + `": "nb",` + "\n"
		}
		if withDeep {
			out = strings.Replace(out, head, deep+head, 1)
		}
		out = strings.Replace(out, head, add+head, 1)
		if withKey {
			out = strings.Replace(out, last, strings.TrimSuffix(last, "\n")+",\n"+strings.TrimSuffix(deep, ",\n")+"\n", 1)
		}
		return out
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, base, ind, key, last string
		cell                       bool
	}{
		{"v3 notebook name", v3, "  ", "name", "   \"name\": \"python3\"\n  }\n", false},
		{"v3 notebook key", v3, "  ", "title", "   \"name\": \"python3\"\n  }\n", false},
		{"v4 notebook key", v4, "  ", "title", "   \"name\": \"python3\"\n  }\n", false},
		{"v3 cell key", v3, "      ", "title", "      \"tags\": []\n", true},
		{"v4 cell key", v4, "    ", "title", "    \"tags\": []\n", true},
	} {
		ours := edit(c.base, c.ind, true, false, c.key, c.last)
		theirs := edit(c.base, c.ind, false, true, c.key, c.last)
		marked := gitMerged(t, dir, c.base, ours, theirs)
		if marked == nil {
			t.Fatalf("%s: git merged cleanly:\n%s\n%s", c.name, ours, theirs)
		}
		sides := markerSides(marked)
		if !bytes.Contains(sides[1], []byte(`"deep"`)) || bytes.Count(sides[1], []byte(`"deep"`)) != 2 {
			t.Fatalf("%s: ours' side does not hold deep twice:\n%s", c.name, marked)
		}
		f, err := splitForFix(slices.Clone(marked), mergeOptions{})
		var buf bytes.Buffer
		if err == nil {
			err = f.mergeTo(&buf)
		}
		if err != nil {
			t.Fatalf("%s: %v\ngit's file:\n%s", c.name, err, marked)
		}
		want := map[string]any{}
		for _, s := range []int{0, 1, 2} {
			for k, v := range metaOf(t, sides[s], c.cell) {
				want[k] = v
			}
		}
		if d := cmp.Diff(want, metaOf(t, buf.Bytes(), c.cell)); d != "" {
			t.Errorf("%s: metadata (-want +got):\n%s\ngit's file:\n%s\nresult:\n%s", c.name, d, marked, buf.Bytes())
		}
	}
}

// metaOf returns a notebook's metadata, or its first cell's.
func metaOf(t *testing.T, data []byte, cell bool) map[string]any {
	t.Helper()
	var nb struct {
		Metadata   map[string]any
		Cells      []struct{ Metadata map[string]any }
		Worksheets []struct {
			Cells []struct{ Metadata map[string]any }
		}
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !cell {
		return nb.Metadata
	}
	if len(nb.Worksheets) > 0 {
		return nb.Worksheets[0].Cells[0].Metadata
	}
	return nb.Cells[0].Metadata
}
