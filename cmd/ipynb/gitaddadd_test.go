package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Both branches add a notebook, one without a cell the other has: git
// calls the driver with an empty base, and the cell stands where the side
// that has it put it (not after the cells both have), with ids, without
// (4.4) and from an old minor (4.0), whichever side has it; the merge is
// clean (nothing differs where both have a cell).
func TestGitMergeAddAddCellInPlace(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"jupyter.ipynb", "v4.4.ipynb", "colab.ipynb"} {
		for _, oursLacks := range []bool{true, false} {
			t.Run(name+map[bool]string{true: ", ours lacks it", false: ", theirs lacks it"}[oursLacks], func(t *testing.T) {
				t.Parallel()
				full, err := os.ReadFile(filepath.Join(shipped, name))
				if err != nil {
					t.Fatal(err)
				}
				lacking := withoutCell(t, full, 3)
				ours, theirs := lacking, full
				if !oursLacks {
					ours, theirs = full, lacking
				}
				dir := newRepo(t)
				if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
					t.Fatalf("install: %+v", r)
				}
				commitFile(t, dir, "README", []byte("x\n"), "start")
				gitIn(t, dir, "checkout", "-q", "-b", "other")
				commitFile(t, dir, "nb.ipynb", theirs, "other adds nb")
				gitIn(t, dir, "checkout", "-q", "main")
				commitFile(t, dir, "nb.ipynb", ours, "main adds nb")
				if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "other"); st != 0 {
					t.Fatalf("git merge: exit %d\n%s", st, out)
				}
				got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
				validNotebook(t, got)
				if srcs, want := cellSources(t, got), cellSources(t, full); !slices.Equal(srcs, want) {
					t.Errorf("cells:\n%s\nwant (the side that has cell 3):\n%s", strings.Join(srcs, "\n--\n"), strings.Join(want, "\n--\n"))
				}
			})
		}
	}
}

// withoutCell is the notebook data without its cell i, written by
// encoding/json (see jsonRewritten).
func withoutCell(t *testing.T, data []byte, i int) []byte {
	return jsonRewritten(t, data, func(nb map[string]any) {
		nb["cells"] = slices.Delete(nb["cells"].([]any), i, i+1)
	})
}

// jsonRewritten is the notebook data, changed by edit (nil: unchanged),
// written by encoding/json (keys sorted, one space per level).
func jsonRewritten(t *testing.T, data []byte, edit func(nb map[string]any)) []byte {
	t.Helper()
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(nb)
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}
