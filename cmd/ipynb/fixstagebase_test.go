package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fix of git's default-style markers (no base section), edited since
// git's merge (so that fix does not merge git's stages in its place),
// while git has the file unmerged merges three-way with git's stage :1:
// as the base: ours deleted a cell theirs edited, and fix marks that
// conflict, writing what fix writes of the same merge's diff3-style
// markers (git checkout --conflict=diff3), which carry the base, with the
// same edit; and a cell each side edited apart merges cleanly as from
// the diff3 file. Outside git (no stages) the same file merges two-way,
// and theirs' edit is kept.
func TestFixMergeStyleUsesStageBase(t *testing.T) {
	t.Parallel()
	full, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	base := reindented(t, full)
	for _, tc := range []struct {
		name         string
		ours, theirs []byte
		status       int
		inResult     []string
	}{
		{"delete/edit", withoutCell(t, full, 2), reindented(t, replaceOnce(t, full, `"1+1"`, `"1+1 # theirs"`)), exitFindings, []string{"1+1 # theirs", "raw text, edited since"}},
		{"edit/delete", reindented(t, replaceOnce(t, full, `"1+1"`, `"1+1 # ours"`)), withoutCell(t, full, 2), exitFindings, []string{"1+1 # ours", "raw text, edited since"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t)
			commitFile(t, dir, "nb.ipynb", base, "base")
			gitIn(t, dir, "checkout", "-q", "-b", "other")
			commitFile(t, dir, "nb.ipynb", tc.theirs, "theirs")
			gitIn(t, dir, "checkout", "-q", "main")
			commitFile(t, dir, "nb.ipynb", tc.ours, "ours")
			if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "other"); st != 1 {
				t.Fatalf("git merge: exit %d (want its conflict)\n%s", st, out)
			}
			marked, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
			if bytes.Contains(marked, []byte("\n|||||||")) {
				t.Fatal("git wrote a base section: the test needs the default style")
			}
			marked = replaceOnce(t, marked, `"raw text"`, `"raw text, edited since"`)
			os.WriteFile(filepath.Join(dir, "nb.ipynb"), marked, 0o644)
			// The merge style, fixed inside the repository.
			r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
			got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
			if r.code != tc.status || !strings.Contains(r.stderr, "git's stage :1: as the base") {
				t.Errorf("fix: exit %d, want %d\n%s", r.code, tc.status, r.stderr)
			}
			// The diff3 style of the same merge, fixed outside it.
			gitIn(t, dir, "checkout", "--conflict=diff3", "nb.ipynb")
			diff3, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
			if !bytes.Contains(diff3, []byte("\n|||||||")) {
				t.Fatal("git checkout --conflict=diff3 wrote no base section")
			}
			diff3 = replaceOnce(t, diff3, `"raw text"`, `"raw text, edited since"`)
			away := t.TempDir()
			os.WriteFile(filepath.Join(away, "nb.ipynb"), diff3, 0o644)
			r3 := ipynbWithin(t, 60e9, away, "fix", "nb.ipynb")
			want, _ := os.ReadFile(filepath.Join(away, "nb.ipynb"))
			if r3.code != tc.status {
				t.Errorf("fix of the diff3 style: exit %d, want %d\n%s", r3.code, tc.status, r3.stderr)
			}
			// (git checkout --conflict labels its markers ours and
			// theirs, its merge HEAD and the branch.)
			relabelled := bytes.ReplaceAll(bytes.ReplaceAll(got, []byte(" HEAD ("), []byte(" ours (")), []byte(" other ("), []byte(" theirs ("))
			if !bytes.Equal(relabelled, want) {
				t.Errorf("fix of the merge style with the stage base:\n%s\nfix of the diff3 style:\n%s", got, want)
			}
			validNotebook(t, got)
			for _, s := range tc.inResult {
				if !bytes.Contains(got, []byte(s)) {
					t.Errorf("result lacks %q", s)
				}
			}
			// Outside git, the merge style merges two-way.
			os.WriteFile(filepath.Join(away, "nb.ipynb"), marked, 0o644)
			r2 := ipynbWithin(t, 60e9, away, "fix", "nb.ipynb")
			if r2.code == exitError || strings.Contains(r2.stderr, "stage :1:") {
				t.Errorf("fix outside git: exit %d\n%s", r2.code, r2.stderr)
			}
		})
	}
}

// reindented is the notebook written by encoding/json, the layout
// withoutCell writes.
func reindented(t *testing.T, data []byte) []byte { return jsonRewritten(t, data, nil) }
