package main

// Tests of fix inside git: git's stages merged when the file is as git's merge
// left it, never over the user's edits.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// ipynb fix inside git, on every real conflicted merge as git's own merge
// leaves it (merge, diff3 and zdiff3 styles): the file is recognized as
// git's merge and git's stages are merged, so that the three styles give
// the same bytes and the exit status ipynb merge gives for the same
// three files (sampled in the fast tier; all with IPYNB_LONG=1).
func TestFixRealConflictsInGit(t *testing.T) {
	needGitParallel(t)
	for i, c := range mergeCases(t) {
		if c.gitClean || !testtier.Sample(i) {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			read := func(p string) string {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			k := kindCase{base: read(c.base), ours: read(c.ours), theirs: read(c.theirs)}
			away := t.TempDir()
			for name, text := range map[string]string{"b.ipynb": k.base, "o.ipynb": k.ours, "t.ipynb": k.theirs} {
				os.WriteFile(filepath.Join(away, name), []byte(text), 0o644)
			}
			want := ipynbWithin(t, 60e9, away, "merge", "b.ipynb", "o.ipynb", "t.ipynb").code
			var first []byte
			for _, style := range []string{"merge", "diff3", "zdiff3"} {
				if style == "zdiff3" && !gitHasZdiff3(t) {
					continue // (git before 2.35)
				}
				dir := repoMerged(t, k, style)
				r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
				got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
				if r.code != want || !strings.Contains(r.stderr, "merged git's stages") {
					t.Errorf("%s: fix exit %d (ipynb merge: %d), want git's stages merged\n%s", style, r.code, want, r.stderr)
					continue
				}
				validNotebook(t, got)
				if first == nil {
					first = got
				} else if !bytes.Equal(got, first) {
					t.Errorf("%s style gives other bytes than the merge style", style)
				}
			}
		})
	}
}

// Edits since git's merge that keep every line a line of git's stages (a
// line deleted, a line copied, lines of a conflict reordered) are the
// user's: fix never merges git's stages over them, but merges the sides
// read back (theirs' value kept) or refuses them, the file unchanged.
func TestFixNeverMergesStagesOverEdits(t *testing.T) {
	t.Parallel()
	needGit(t)
	vscode := kindCases()[0]
	for _, tc := range []struct {
		name string
		edit func(marked string) string
	}{
		{"a line deleted", func(m string) string { return strings.Replace(m, "    \"x = 1\"\n", "", 1) }},
		{"a line copied", func(m string) string {
			return strings.Replace(m, " \"nbformat\": 4,\n", " \"nbformat\": 4,\n \"nbformat\": 4,\n", 1)
		}},
		{"the markers' lines of a conflict reordered", func(m string) string {
			i := strings.Index(m, "<<<<<<< ")
			j := strings.Index(m, ">>>>>>> ")
			k := j + strings.Index(m[j:], "\n") + 1
			lines := strings.SplitAfter(m[i:k], "\n")
			lines[1], lines[2] = lines[2], lines[1]
			return m[:i] + strings.Join(lines, "") + m[k:]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := repoMerged(t, vscode, "diff3")
			p := filepath.Join(dir, "nb.ipynb")
			marked, _ := os.ReadFile(p)
			edited := tc.edit(string(marked))
			if edited == string(marked) {
				t.Fatal("nothing edited")
			}
			os.WriteFile(p, []byte(edited), 0o644)
			r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
			after, _ := os.ReadFile(p)
			if strings.Contains(r.stderr, "merged git's stages") {
				t.Errorf("fix merged git's stages over the edit (exit %d)\n%s", r.code, r.stderr)
			}
			if r.code == exitError && string(after) != edited {
				t.Error("fix changed the file it refused")
			}
			if r.code != exitError {
				validNotebook(t, after)
				if !strings.Contains(string(after), "QkJCQg==") {
					t.Errorf("fix exit %d: theirs' attachment is in no file\n%s", r.code, after)
				}
			}
		})
	}
}

// fix of an untracked file whose name is a pattern matching a file git
// has unmerged (nb[1].ipynb, :nb1.ipynb) merges that file's own sides,
// never the other file's stages.
func TestFixNamesAreNotPathspecs(t *testing.T) {
	t.Parallel()
	c := kindCases()[2] // (no joined kinds: its sides merge)
	dir := repoMerged(t, kindCase{base: c.base, ours: c.ours, theirs: c.theirs}, "diff3")
	// (repoMerged commits nb.ipynb: the pattern names are nb?.ipynb.)
	marked, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	for _, name := range []string{"n[b].ipynb", ":nb.ipynb", "nb*.ipynb"} {
		edited := strings.Replace(string(marked), `"# Title"`, `"# Title of the copy"`, 1)
		os.WriteFile(filepath.Join(dir, name), []byte(edited), 0o644)
		r := ipynbWithin(t, 60e9, dir, "fix", "--", name)
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if strings.Contains(r.stderr, "merged git's stages") || !strings.Contains(string(got), "Title of the copy") {
			t.Errorf("%s: fix took nb.ipynb's stages (exit %d)\n%s", name, r.code, r.stderr)
		}
	}
}

// A criss-cross merge: git's base stage is the virtual base it merged
// from the two merge bases, markers and all (no notebook). fix reads
// the sides from the file then and marks the conflict.
func TestFixCrissCrossMerge(t *testing.T) {
	t.Parallel()
	cell := func(id, src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": id, "metadata": map[string]any{}, "source": []any{src}}
	}
	nb := func(src string) []byte {
		return []byte(jupyterNotebook(5, cell("a", "a"), cell("b", "b"), cell("c", src)))
	}
	dir := newRepo(t)
	commitFile(t, dir, "nb.ipynb", nb("base"), "base")
	gitIn(t, dir, "checkout", "-q", "-b", "b1")
	commitFile(t, dir, "nb.ipynb", nb("one"), "one")
	gitIn(t, dir, "checkout", "-q", "-b", "b2", "main")
	commitFile(t, dir, "nb.ipynb", nb("two"), "two")
	// M1 on b1 merges b2 resolving to M1; M2 on b2 merges b1 as M2.
	gitIn(t, dir, "checkout", "-q", "b1")
	gitStatusIn(t, dir, "merge", "--no-edit", "b2")
	commitFile(t, dir, "nb.ipynb", nb("M1"), "M1")
	gitIn(t, dir, "checkout", "-q", "b2")
	gitStatusIn(t, dir, "merge", "--no-edit", "b1~1")
	commitFile(t, dir, "nb.ipynb", nb("M2"), "M2")
	gitIn(t, dir, "checkout", "-q", "b1")
	if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "b2"); st != 1 {
		t.Fatalf("git merge: exit %d (want its conflict)\n%s", st, out)
	}
	r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
	got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	if r.code != exitFindings || strings.Contains(r.stderr, "merged git's stages") {
		t.Fatalf("fix exit %d, want %d from the sides\n%s", r.code, exitFindings, r.stderr)
	}
	validNotebook(t, got)
	for _, s := range []string{"M1", "M2"} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("%s is in no file:\n%s", s, got)
		}
	}
}

// Sides whose joined cells hold another kind's members that no side
// changed (ours' stray outputs and count are base's, read back from the
// same lines) merge as before; where a side changed one (ours re-counted
// a cell theirs made markdown: the count, on ours' side, sits in a
// markdown cell), fix refuses rather than drop it. Version 3 files of the
// outside attack's edit-pair generator, through git merge-file --diff3.
func TestFixJoinedKindsRefusedOnlyForChanges(t *testing.T) {
	t.Parallel()
	needGit(t)
	for _, tc := range []struct {
		dir    string
		refuse bool
	}{{"same", false}, {"count", true}} {
		read := func(name string) string {
			data, err := os.ReadFile(filepath.Join("testdata", "fixhybrid", tc.dir, name+".ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		dir := t.TempDir()
		p := gitConflict(t, dir, read("base"), read("ours"), read("theirs"), "--diff3")
		before, _ := os.ReadFile(p)
		r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
		after, _ := os.ReadFile(p)
		switch {
		case tc.refuse && (r.code != exitError || !strings.Contains(r.stderr, `holding "prompt_number"`) || !bytes.Equal(before, after)):
			t.Errorf("%s: fix exit %d, want the count refused, the file unchanged\n%s", tc.dir, r.code, r.stderr)
		case !tc.refuse && r.code == exitError:
			t.Errorf("%s: fix refused sides no side changed a joined member of\n%s", tc.dir, r.stderr)
		case !tc.refuse:
			validNotebook(t, after)
		}
	}
}

// A file git writes with CRLF line ends (core.autocrlf, or the eol=crlf
// attribute: its stages hold LF) is recognized as git's merge all the
// same, and the merge of its stages is written with CRLF line ends.
func TestFixMergesStagesOfCRLFFiles(t *testing.T) {
	t.Parallel()
	c := kindCases()[0]
	for _, how := range []string{"core.autocrlf", "eol=crlf"} {
		dir := repoMerged(t, c, "diff3", func(dir string) {
			if how == "core.autocrlf" {
				gitIn(t, dir, "config", "core.autocrlf", "true")
			} else {
				os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.ipynb text eol=crlf\n"), 0o644)
				gitIn(t, dir, "add", ".gitattributes")
			}
		})
		p := filepath.Join(dir, "nb.ipynb")
		marked, _ := os.ReadFile(p)
		if !bytes.Contains(marked, []byte("\r\n")) {
			t.Fatalf("%s: git wrote no CRLF", how)
		}
		r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
		got, _ := os.ReadFile(p)
		if r.code != exitFindings || !strings.Contains(r.stderr, "merged git's stages") {
			t.Errorf("%s: fix exit %d, want %d, merging git's stages\n%s", how, r.code, exitFindings, r.stderr)
		}
		if n, crlf := bytes.Count(got, []byte("\n")), bytes.Count(got, []byte("\r\n")); n == 0 || n != crlf {
			t.Errorf("%s: %d of %d line ends are CRLF", how, crlf, n)
		}
		validNotebook(t, got)
		if !bytes.Contains(got, []byte("QkJCQg==")) {
			t.Errorf("%s: theirs' attachment is in no file", how)
		}
	}
}
