package main

// Tests of fix on real conflicted merges (every side's change is in the valid
// result), on errors, two-way markers and changed files.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// cellSources returns the sources of a notebook's cells, read with
// encoding/json (v4: cells; v3: worksheets' cells, "input" for code).
func cellSources(t *testing.T, data []byte) []string {
	t.Helper()
	var nb struct {
		Cells      []map[string]any
		Worksheets []struct{ Cells []map[string]any }
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	cells := nb.Cells
	for _, w := range nb.Worksheets {
		cells = append(cells, w.Cells...)
	}
	var out []string
	for _, c := range cells {
		src := c["source"]
		if src == nil {
			src = c["input"]
		}
		switch s := src.(type) {
		case string:
			out = append(out, s)
		case []any:
			var b strings.Builder
			for _, l := range s {
				b.WriteString(l.(string))
			}
			out = append(out, b.String())
		}
	}
	return out
}

// missingLines returns the lines of the texts want that are not lines of
// any text of got.
func missingLines(want, got []string) []string {
	have := map[string]bool{}
	for _, g := range got {
		for _, l := range strings.Split(g, "\n") {
			have[strings.TrimRight(l, "\r")] = true
		}
	}
	var miss []string
	for _, w := range want {
		for _, l := range strings.Split(w, "\n") {
			if l = strings.TrimRight(l, "\r"); !have[l] {
				miss = append(miss, l)
			}
		}
	}
	return miss
}

// ipynb fix on every real conflicted merge, as git's line merge leaves it
// (merge, diff3 and zdiff3 styles): the result is a valid notebook holding every
// cell text either side changed or added (each side as git itself gives
// it, git merge-file --ours / --theirs); exit 0 when merged cleanly, 1
// with conflicts, 2 only when a side is not JSON (file unchanged).
func TestFixRealConflicts(t *testing.T) {
	needGitParallel(t)
	counts := map[string]int{}
	for i, c := range mergeCases(t) {
		if c.gitClean || !testtier.Sample(i) {
			continue
		}
		for _, style := range []string{"merge", "diff3", "zdiff3"} {
			t.Run(c.name()+"/"+style, func(t *testing.T) {
				if style == "zdiff3" && !gitHasZdiff3(t) {
					t.Skip("git merge-file has no --zdiff3 (git before 2.35)")
				}
				dir := t.TempDir()
				var opts []string
				if style != "merge" {
					opts = []string{"--" + style}
				}
				file, _ := gitMergeFile(t, c, dir, "conflicted.ipynb", opts...)
				before, _ := os.ReadFile(file)
				oursFile, _ := gitMergeFile(t, c, dir, "ours.ipynb", "--ours")
				theirsFile, _ := gitMergeFile(t, c, dir, "theirs.ipynb", "--theirs")
				oursText, _ := os.ReadFile(oursFile)
				theirsText, _ := os.ReadFile(theirsFile)
				baseText, _ := os.ReadFile(c.base)
				r := ipynb(t, dir, "", "fix", "conflicted.ipynb")
				after, _ := os.ReadFile(file)
				if !json.Valid(oursText) || !json.Valid(theirsText) {
					if r.code != 2 || !bytes.Equal(after, before) || !strings.HasPrefix(r.stderr, "conflicted.ipynb:") {
						t.Errorf("a side is not JSON: want exit 2 and the file unchanged: %+v", r)
					}
					counts[style+" refused"]++
					return
				}
				if r.code != 0 && r.code != 1 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				if (r.code == 1) != strings.Contains(r.stderr, "conflict") {
					t.Errorf("exit %d, stderr %q", r.code, r.stderr)
				}
				validNotebook(t, after)
				// Each side's changed or added cell texts are in the result.
				got := cellSources(t, after)
				base := map[string]bool{}
				if style != "merge" {
					for _, s := range cellSources(t, baseText) {
						base[s] = true
					}
				}
				for _, side := range [][]byte{oursText, theirsText} {
					var changed []string
					for _, s := range cellSources(t, side) {
						if !base[s] {
							changed = append(changed, s)
						}
					}
					if miss := missingLines(changed, got); len(miss) > 0 {
						t.Errorf("%d lines of a side's cells are missing, e.g. %q", len(miss), miss[0])
					}
				}
				counts[style+[]string{" clean", " conflicts"}[r.code]]++
			})
		}
	}
	t.Logf("ipynb fix on git's conflicted files: %v", counts)
}

// fix reports where markers or sides are broken, changing nothing;
// leaves files without markers alone; reads standard input.
func TestFixErrors(t *testing.T) {
	t.Parallel()
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	lines := strings.SplitAfter(string(base), "\n")
	// Line 102 (1-based) is cell 3's source, "plot()".
	if strings.TrimSpace(lines[101]) != `"plot()"` {
		t.Fatalf("line 102 is %q", lines[101])
	}
	conflict := func(ours, theirs string) string {
		return strings.Join(lines[:101], "") + "<<<<<<< HEAD\n" + ours + "=======\n" + theirs + ">>>>>>> topic\n" + strings.Join(lines[102:], "")
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
		return text
	}
	// Theirs' side is broken on the file's line 106 (column 5).
	broken := write("broken.ipynb", conflict("    \"plot(1)\"\n", "    \"plot(2)\",\n    oops\n"))
	r := ipynb(t, dir, "", "fix", "broken.ipynb")
	if r.code != 2 || !strings.HasPrefix(r.stderr, "broken.ipynb:106:5: theirs side of the conflicts is not a notebook") {
		t.Errorf("broken side: %+v", r)
	}
	unclosed := write("unclosed.ipynb", strings.Join(lines[:101], "")+"<<<<<<< HEAD\n"+strings.Join(lines[101:], ""))
	r = ipynb(t, dir, "", "fix", "unclosed.ipynb")
	if r.code != 2 || !strings.Contains(r.stderr, "unclosed.ipynb:") || !strings.Contains(r.stderr, "the conflict opened at line 102 is not closed") {
		t.Errorf("unclosed: %+v", r)
	}
	for name, want := range map[string]string{"broken.ipynb": broken, "unclosed.ipynb": unclosed} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
			t.Errorf("%s changed", name)
		}
	}
	// Without markers: nothing to do.
	write("plain.ipynb", string(base))
	if r := ipynb(t, dir, "", "fix", "plain.ipynb"); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("no markers: %+v", r)
	}
	// A folder: every notebook in it, the broken ones reported.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "a.ipynb"), []byte(conflict("    \"plot(1)\"\n", "    \"plot(1)\"\n")), 0o644)
	os.WriteFile(filepath.Join(sub, "b.ipynb"), base, 0o644)
	r = ipynb(t, dir, "", "fix", "sub", "missing.ipynb")
	if r.code != 2 || r.stdout != filepath.Join("sub", "a.ipynb")+"\n" || !strings.Contains(r.stderr, "missing.ipynb: no such file") {
		t.Errorf("folder: %+v", r)
	}
	if got, _ := os.ReadFile(filepath.Join(sub, "a.ipynb")); !bytes.Equal(got, []byte(strings.Replace(string(base), `"plot()"`, `"plot(1)"`, 1))) {
		t.Error("the notebook in the folder is not fixed")
	}
	// A clean two-way fix (no base: both sides are kept), from stdin.
	in := conflict("    \"plot(1)\"\n", "    \"plot(1)\"\n")
	r = ipynb(t, dir, in, "fix", "-")
	if r.code != 0 || !bytes.Equal([]byte(r.stdout), []byte(strings.Replace(string(base), `"plot()"`, `"plot(1)"`, 1))) {
		t.Errorf("fix -: exit %d %s", r.code, r.stderr)
	}
	// A true conflict keeps both in one valid cell, with git's labels.
	write("both.ipynb", conflict("    \"plot(1)\"\n", "    \"plot(2)\"\n"))
	r = ipynb(t, dir, "", "fix", "both.ipynb")
	fixed, _ := os.ReadFile(filepath.Join(dir, "both.ipynb"))
	src := cellSources(t, fixed)[3]
	if r.code != 1 || !strings.Contains(r.stderr, "both.ipynb: 1 conflict left") || !strings.Contains(src, "<<<<<<< HEAD\nplot(1)\n=======\nplot(2)\n>>>>>>> topic") {
		t.Errorf("conflict: %+v\n%s", r, src)
	}
	validNotebook(t, fixed)
	// Fixing again finds no markers (they are inside the JSON now).
	if r := ipynb(t, dir, "", "fix", "both.ipynb"); r.code != 0 {
		t.Errorf("second fix: %+v", r)
	}
}

// Without a base in the markers and without cell ids (nbformat 4.4), a
// cell both sides changed is one cell with both versions between
// markers and a reported conflict — not two cells side by side — and
// every other cell keeps its bytes, without ids.
func TestFixTwoWayWithoutIDs(t *testing.T) {
	t.Parallel()
	orig, _ := os.ReadFile(filepath.Join(shipped, "v4.4.ipynb"))
	lines := strings.SplitAfter(string(orig), "\n")
	if strings.TrimSpace(lines[44]) != `"print(\"hello\")\n",` {
		t.Fatalf("line 45 is %q", lines[44])
	}
	in := strings.Join(lines[:44], "") + "<<<<<<< HEAD\n    \"print(\\\"hi\\\")\\n\",\n=======\n    \"print(\\\"bye\\\")\\n\",\n>>>>>>> topic\n" + strings.Join(lines[45:], "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(in), 0o644)
	r := ipynb(t, dir, "", "fix", "nb.ipynb")
	if r.code != 1 || !strings.Contains(r.stderr, `nb.ipynb: 1 conflict left (marked in the cells): code cell "import sys…": changed on both sides`) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	validNotebook(t, fixed)
	var o, f struct {
		Cells         []json.RawMessage
		NbformatMinor int `json:"nbformat_minor"`
	}
	json.Unmarshal(orig, &o)
	json.Unmarshal(fixed, &f)
	if len(f.Cells) != len(o.Cells) || f.NbformatMinor != 4 {
		t.Fatalf("%d cells, minor %d; want %d cells, minor 4", len(f.Cells), f.NbformatMinor, len(o.Cells))
	}
	for i := range o.Cells {
		if i != 1 && !bytes.Equal(o.Cells[i], f.Cells[i]) {
			t.Errorf("cell %d changed:\n%s", i, f.Cells[i])
		}
	}
	if bytes.Contains(fixed, []byte(`"id"`)) {
		t.Error("the fixed notebook has cell ids")
	}
	src := cellSources(t, fixed)[1]
	if !strings.Contains(src, "import sys\n<<<<<<< HEAD\nprint(\"hi\")\n") || !strings.Contains(src, "print(\"bye\")\n>>>>>>> topic\n") {
		t.Errorf("cell 1:\n%s", src)
	}
}

// A file that changes after it was read is not overwritten, by fix or
// by merge: the check is made right before the rename (internal/
// atomicfile), here with a change made just before the replacement.
func TestFixAndMergeLeaveChangedFilesAlone(t *testing.T) {
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	lines := strings.SplitAfter(string(base), "\n")
	conflicted := strings.Join(lines[:101], "") + "<<<<<<< HEAD\n    \"plot(1)\"\n=======\n    \"plot(1)\"\n>>>>>>> topic\n" + strings.Join(lines[102:], "")
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.ipynb")
	const meanwhile = "changed meanwhile"
	beforeReplace = func(string) { os.WriteFile(p, []byte(meanwhile), 0o644) }
	defer func() { beforeReplace = nil }()
	for _, args := range [][]string{
		{"fix", p},
		{"merge", filepath.Join(dir, "base.ipynb"), p, filepath.Join(dir, "theirs.ipynb")},
	} {
		os.WriteFile(p, []byte(conflicted), 0o644)
		if args[0] == "merge" {
			os.WriteFile(filepath.Join(dir, "base.ipynb"), base, 0o644)
			os.WriteFile(filepath.Join(dir, "theirs.ipynb"), replaceOnce(t, base, `"1+1"`, `"1+2"`), 0o644)
			os.WriteFile(p, base, 0o644)
		}
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
		code := run(e, args)
		if code == 0 || !strings.Contains(errb.String(), "nb.ipynb: changed while processing") {
			t.Errorf("%s: exit %d, %s", args[0], code, errb.String())
		}
		if got, _ := os.ReadFile(p); string(got) != meanwhile {
			t.Errorf("%s: the change made meanwhile was overwritten", args[0])
		}
		if entries, _ := os.ReadDir(dir); len(entries) != map[string]int{"fix": 1, "merge": 3}[args[0]] {
			t.Errorf("%s: temporary files left: %v", args[0], entries)
		}
	}
}
