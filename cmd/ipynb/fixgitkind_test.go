package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kindCase is a merge where ours changes a cell's kind and theirs edits a
// member only the old kind has: git merges ours' "cell_type" line
// cleanly, so that the sides read back from the markers are cells no
// version had (a code cell with theirs' attachments).
type kindCase struct {
	name               string
	base, ours, theirs string
	tokens             []string // theirs' values, which must be in the result
}

func kindCases() []kindCase {
	att := func(data string) map[string]any { return map[string]any{"a.png": map[string]any{"image/png": data}} }
	md := func(id, src string, extra map[string]any) map[string]any {
		c := map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": []any{src}}
		if id != "" {
			c["id"] = id
		}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	code := func(id, src string, count any, out string) map[string]any {
		c := codeCell(id, src, map[string]any{})
		c["execution_count"] = count
		if out != "" {
			c["outputs"] = []any{map[string]any{"name": "stdout", "output_type": "stream", "text": []any{out}}}
		}
		if id == "" {
			delete(c, "id")
		}
		return c
	}
	raw := func(id, src string) map[string]any {
		c := map[string]any{"cell_type": "raw", "metadata": map[string]any{}, "source": []any{src}}
		if id != "" {
			c["id"] = id
		}
		return c
	}
	v3 := func(cells ...map[string]any) string {
		nb := map[string]any{"metadata": map[string]any{"name": ""}, "nbformat": 3, "nbformat_minor": 0,
			"worksheets": []any{map[string]any{"cells": cells, "metadata": map[string]any{}}}}
		b, _ := json.MarshalIndent(nb, "", " ")
		return string(b) + "\n"
	}
	code3 := func(src string, count any, out string) map[string]any {
		c := map[string]any{"cell_type": "code", "collapsed": false, "input": []any{src}, "language": "python", "metadata": map[string]any{}, "outputs": []any{}, "prompt_number": count}
		if out != "" {
			c["outputs"] = []any{map[string]any{"output_type": "stream", "stream": "stdout", "text": []any{out}}}
		}
		return c
	}
	md3 := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": []any{src}}
	}
	// Members in the order cell_type, id, execution_count, metadata,
	// outputs, source, attachments: git's hunks then join ours'
	// "cell_type" line with theirs' attachments and count.
	const vscodeBase = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "m0",
   "metadata": {},
   "source": [
    "![a](attachment:a.png)"
   ],
   "attachments": {
    "a.png": {
     "image/png": "AAAA"
    }
   }
  },
  {
   "cell_type": "code",
   "id": "c1",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "x = 1"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`
	vscodeOurs := strings.NewReplacer(`"cell_type": "markdown",
   "id": "m0",
   "metadata": {},`, `"cell_type": "code",
   "id": "m0",
   "execution_count": null,
   "metadata": {},
   "outputs": [],`, `],
   "attachments": {
    "a.png": {
     "image/png": "AAAA"
    }
   }`, `]`, `"cell_type": "code",
   "id": "c1",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],`, `"cell_type": "markdown",
   "id": "c1",
   "metadata": {},`).Replace(vscodeBase)
	vscodeTheirs := strings.NewReplacer(`"AAAA"`, `"QkJCQg=="`, `"execution_count": 1`, `"execution_count": 7`).Replace(vscodeBase)
	// (From the outside attack's edit-pair generator.)
	hist := map[string]string{}
	for _, name := range []string{"base", "ours", "theirs"} {
		data, _ := os.ReadFile(filepath.Join("testdata", "fixhistogram", name+".ipynb"))
		hist[name] = string(data)
	}
	return []kindCase{
		{"members in VS Code's order: markdown with an attachment made code, the attachment edited; code made markdown, its count changed",
			vscodeBase, vscodeOurs, vscodeTheirs, []string{"QkJCQg=="}},
		{"markdown with an attachment made code, the attachment edited; code made markdown, its count changed",
			jupyterNotebook(5, md("m0", "![a](attachment:a.png)", map[string]any{"attachments": att("AAAA")}), code("c1", "x = 1", 1, "")),
			jupyterNotebook(5, code("m0", "![a](attachment:a.png)", nil, ""), md("c1", "x = 1", nil)),
			jupyterNotebook(5, md("m0", "![a](attachment:a.png)", map[string]any{"attachments": att("QkJCQg==")}), code("c1", "x = 1", 7, "")),
			[]string{"QkJCQg=="}},
		{"code made markdown, re-run by theirs",
			jupyterNotebook(5, md("h", "# Title", nil), code("c0", "print(0)", 1, "out0\n"), md("t", "text", nil)),
			jupyterNotebook(5, md("h", "# Title", nil), md("c0", "print(0)", nil), md("t", "text", nil)),
			jupyterNotebook(5, md("h", "# Title", nil), code("c0", "print(0)", 4, "THEIRS_RERUN\n"), md("t", "text", nil)),
			[]string{"THEIRS_RERUN"}},
		{"no ids: code made raw, re-run by theirs",
			jupyterNotebook(4, md("", "# Title", nil), code("", "print(0)", 1, "out0\n"), code("", "print(2)", 2, "out2\n")),
			jupyterNotebook(4, md("", "# Title", nil), raw("", "print(0)"), code("", "print(2)", 2, "out2\n")),
			jupyterNotebook(4, md("", "# Title", nil), code("", "print(0)", 9, "THEIRS_RERUN\n"), code("", "print(2)", 2, "out2\n")),
			[]string{"THEIRS_RERUN"}},
		{"no ids: ours made a cell markdown and deleted another, theirs re-ran it and moved one (merge-ort's histogram diff places the conflict where git merge-file's does not)",
			hist["base"], hist["ours"], hist["theirs"], []string{"TOK_T_1_224798"}},
		{"nbformat 3: code made markdown, re-run by theirs",
			v3(md3("# Title"), code3("print(0)", 1, "out0\n"), md3("text")),
			v3(md3("# Title"), md3("print(0)"), md3("text")),
			v3(md3("# Title"), code3("print(0)", 6, "THEIRS_RERUN\n"), md3("text")),
			[]string{"THEIRS_RERUN"}},
	}
}

// repoMerged commits base, then theirs on a branch and ours on main, and
// merges the branch into main without ipynb's driver in the conflict
// style given, expecting git's conflict; it returns the repository.
// Each setup runs in the new repository first.
func repoMerged(t *testing.T, c kindCase, style string, setup ...func(dir string)) string {
	t.Helper()
	dir := newRepo(t)
	for _, f := range setup {
		f(dir)
	}
	gitIn(t, dir, "config", "merge.conflictStyle", style)
	commitFile(t, dir, "nb.ipynb", []byte(c.base), "base")
	gitIn(t, dir, "checkout", "-q", "-b", "topic")
	commitFile(t, dir, "nb.ipynb", []byte(c.theirs), "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", []byte(c.ours), "ours")
	if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic"); st != 1 {
		t.Fatalf("git merge: exit %d (want its conflict)\n%s", st, out)
	}
	return dir
}

// fix, while git has the file unmerged and as git's merge left it, merges
// git's stages (as ipynb merge does) rather than the sides read back from
// the markers: theirs' values are in the file, the conflict is marked in
// it (exit 1), and every conflict style gives the same bytes.
func TestFixMergesStagesWhereGitJoinedKinds(t *testing.T) {
	t.Parallel()
	needGit(t)
	for _, c := range kindCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var first []byte
			byMergeTree := false
			for _, style := range []string{"merge", "diff3", "zdiff3"} {
				if style == "zdiff3" && !gitHasZdiff3(t) {
					continue // (git before 2.35)
				}
				dir := repoMerged(t, c, style)
				if strings.Contains(c.name, "histogram") {
					// (The case holds only where git's merge and git
					// merge-file's differ: fix recognizes the merge by
					// git merge-tree then.)
					marked, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
					for name, text := range map[string]string{"b": c.base, "o": c.ours, "t": c.theirs} {
						os.WriteFile(filepath.Join(dir, ".git", name), []byte(text), 0o644)
					}
					sides := markerSides(marked)
					mo, _ := gitStatusIn(t, filepath.Join(dir, ".git"), "merge-file", "-p", "--ours", "o", "b", "t")
					mt, _ := gitStatusIn(t, filepath.Join(dir, ".git"), "merge-file", "-p", "--theirs", "o", "b", "t")
					if mo != string(sides[1]) || mt != string(sides[2]) {
						byMergeTree = true
					}
				}
				// (The merge style's fix runs outside the repository:
				// git's stages are those of the file's repository.)
				var r result
				if style == "merge" {
					r = ipynbWithin(t, 60e9, filepath.Dir(dir), "fix", filepath.Join(filepath.Base(dir), "nb.ipynb"))
				} else {
					r = ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
				}
				got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
				if r.code != exitFindings || !strings.Contains(r.stderr, "merged git's stages") {
					t.Errorf("%s: fix exit %d, want %d, merging git's stages\n%s", style, r.code, exitFindings, r.stderr)
				}
				validNotebook(t, got)
				for _, tok := range c.tokens {
					if !bytes.Contains(got, []byte(tok)) {
						t.Errorf("%s: theirs' %q is in no file:\n%s", style, tok, got)
					}
				}
				if first == nil {
					first = got
				} else if !bytes.Equal(got, first) {
					t.Errorf("%s style gives other bytes than the merge style:\n%s\nmerge style:\n%s", style, got, first)
				}
				if r := ipynbWithin(t, 60e9, dir, "check", "nb.ipynb"); r.code != exitFindings {
					t.Errorf("%s: check of the result: exit %d, want a conflict\n%s", style, r.code, r.stdout)
				}
			}
			if strings.Contains(c.name, "histogram") && !byMergeTree {
				t.Error("git merge-file --ours and --theirs gave the sides of git's merge in every style: the case does not hold")
			}
		})
	}
}

// Where fix cannot merge git's stages (no repository, or the file edited
// since git's merge), it reads the sides back from the markers: theirs'
// values are in the result (exit 1), or where sides' cells hold members
// of another kind of cell, differently on each side (git joined lines of
// two versions of a cell), fix refuses them, naming the line and the
// cell (exit 2), and leaves the file as it is: merging them would drop
// theirs' value. Members in VS Code's order give such sides.
func TestFixRefusesSidesJoiningKinds(t *testing.T) {
	t.Parallel()
	needGit(t)
	for k, c := range kindCases() {
		if strings.Contains(c.name, "histogram") {
			continue // (its sides are notebooks of no joined cell)
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			noLoss := func(what string, r result, before, after []byte) {
				t.Helper()
				switch {
				case r.code == exitError:
					if !strings.Contains(r.stderr, "nb.ipynb:") || !strings.Contains(r.stderr, "a member of another kind of cell") {
						t.Errorf("%s: fix refused without naming the line and the cell:\n%s", what, r.stderr)
					}
					if !bytes.Equal(before, after) {
						t.Errorf("%s: fix changed the file it refused", what)
					}
				case r.code == exitFindings:
					validNotebook(t, after)
					for _, tok := range c.tokens {
						if !bytes.Contains(after, []byte(tok)) {
							t.Errorf("%s: theirs' %q is in no file:\n%s", what, tok, after)
						}
					}
				default:
					t.Errorf("%s: fix exit %d, want a conflict or a refusal\n%s", what, r.code, r.stderr)
				}
				if k == 0 && strings.HasPrefix(what, "outside") && r.code != exitError {
					t.Errorf("%s: fix exit %d, want the sides joining kinds refused", what, r.code)
				}
			}
			for _, style := range []string{"", "--diff3", "--zdiff3"} {
				if style == "--zdiff3" && !gitHasZdiff3(t) {
					continue // (git before 2.35)
				}
				dir := t.TempDir()
				var opts []string
				if style != "" {
					opts = []string{style}
				}
				p := gitConflict(t, dir, c.base, c.ours, c.theirs, opts...)
				before, _ := os.ReadFile(p)
				r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
				after, _ := os.ReadFile(p)
				noLoss("outside git "+style, r, before, after)
			}
			// Inside git, edited since git's merge (a line none of the
			// stages holds).
			dir := repoMerged(t, c, "diff3")
			p := filepath.Join(dir, "nb.ipynb")
			marked, _ := os.ReadFile(p)
			edited := bytes.Replace(marked, []byte(`"x = 1"`), []byte(`"x = 1 # edited"`), 1)
			edited = bytes.Replace(edited, []byte(`"# Title"`), []byte(`"# Title, edited"`), 1)
			if bytes.Equal(edited, marked) {
				t.Fatal("nothing edited")
			}
			os.WriteFile(p, edited, 0o644)
			r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
			after, _ := os.ReadFile(p)
			if strings.Contains(r.stderr, "merged git's stages") {
				t.Errorf("edited: fix merged git's stages over the edit\n%s", r.stderr)
			}
			if r.code == exitError && !strings.Contains(r.stderr, "edited since git's merge") {
				t.Errorf("edited: the refusal does not say the file was edited since git's merge\n%s", r.stderr)
			}
			noLoss("edited inside git", r, edited, after)
		})
	}
}

// A conflict resolved by hand since git's merge is the user's: fix does
// not merge git's stages over it (which would conflict there again) but
// the sides read back, and marks only the conflict left.
func TestFixKeepsConflictResolvedByHand(t *testing.T) {
	t.Parallel()
	needGit(t)
	cell := func(id, src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": id, "metadata": map[string]any{}, "source": []any{src}}
	}
	nb := func(a, z string) string {
		return jupyterNotebook(5, cell("a", a), cell("b", "b"), cell("c", "c"), cell("d", "d"), cell("e", "e"), cell("z", z))
	}
	c := kindCase{base: nb("a", "z"), ours: nb("a ours", "z ours"), theirs: nb("a theirs", "z theirs")}
	for _, style := range []string{"merge", "diff3"} {
		dir := repoMerged(t, c, style)
		p := filepath.Join(dir, "nb.ipynb")
		marked, _ := os.ReadFile(p)
		// Resolve the first conflict keeping ours' lines.
		lines := strings.SplitAfter(string(marked), "\n")
		var out []string
		state, hunk := "", 0
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "<<<<<<< "):
				hunk++
				state = "ours"
				if hunk > 1 {
					out = append(out, l)
				}
				continue
			case strings.HasPrefix(l, "||||||| "), strings.HasPrefix(l, "=======") && state != "":
				if hunk > 1 {
					out = append(out, l)
				}
				state = "other"
				continue
			case strings.HasPrefix(l, ">>>>>>> "):
				if hunk > 1 {
					out = append(out, l)
				}
				state = ""
				continue
			}
			if hunk == 1 && state == "other" {
				continue
			}
			out = append(out, l)
		}
		if hunk != 2 {
			t.Fatalf("%s: git made %d conflicts, want 2:\n%s", style, hunk, marked)
		}
		os.WriteFile(p, []byte(strings.Join(out, "")), 0o644)
		r := ipynbWithin(t, 60e9, dir, "fix", "nb.ipynb")
		got, _ := os.ReadFile(p)
		if r.code != exitFindings || strings.Contains(r.stderr, "merged git's stages") {
			t.Errorf("%s: fix exit %d, want %d from the sides\n%s", style, r.code, exitFindings, r.stderr)
		}
		if bytes.Contains(got, []byte("a theirs")) || !bytes.Contains(got, []byte("a ours")) {
			t.Errorf("%s: the conflict resolved by hand is not as resolved:\n%s", style, got)
		}
		if !bytes.Contains(got, []byte("z theirs")) || !bytes.Contains(got, []byte("z ours")) {
			t.Errorf("%s: the conflict left is not marked with both sides:\n%s", style, got)
		}
	}
}
