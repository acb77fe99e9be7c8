package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Seed 42002880 (fix path): base's cell is a prompt with a reply; git's
// hunks gave both sides read back from the markers theirs' deletion of
// "solveit_ai", so that ours made it a note keeping its whole source and
// theirs a note without the reply. The reply's deletion is a change of
// the cell's source only theirs made, so the merged source is theirs'
// (before: ours', base's question taken for base's text). Expected: git
// merge-file's merge of the three cells' sources, for that shape and for
// a side still a prompt editing its reply while the other made it a note
// or code, or deleted the reply.
func TestMergePromptMadeAnotherKindMergesTheWholeSource(t *testing.T) {
	needGit(t)
	const sep = "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n"
	q, r := "«b1»\nb1.1 - item\nb1.2 - item", "b1.r1 answer\nb1.r2 more"
	prompt := func(q, r string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": "928accb1", "metadata": map[string]any{"solveit_ai": true, "note": "n"}, "source": q + sep + r}
	}
	note := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": "928accb1", "metadata": map[string]any{"note": "n"}, "source": src}
	}
	code := func(src string) map[string]any {
		c := codeCell("928accb1", src, map[string]any{"note": "n"})
		c["source"] = src
		return c
	}
	cases := []struct {
		name         string
		ours, theirs map[string]any
	}{
		{"both notes, theirs without the reply", note(q + sep + r), note(q)},
		{"ours edits the reply, theirs a note", prompt(q, "b1.r1 answer\nb1.r2 changed"), note(q + sep + r)},
		{"ours a note, theirs edits the question", note(q + sep + r), prompt(q+"\nb1.3 added", r)},
		{"ours code without the reply, theirs a note", code(q), note(q + sep + r + "\nb1.r3 added")},
		{"ours a note without the reply, theirs edits the reply", note(q), prompt(q, "b1.r1 answer\nb1.r2 changed")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			base := prompt(q, r)
			files := map[string]map[string]any{"base.ipynb": base, "ours.ipynb": c.ours, "theirs.ipynb": c.theirs}
			srcs := map[string]string{}
			for name, cell := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(jupyterNotebook(5, cell)), 0o644); err != nil {
					t.Fatal(err)
				}
				srcs[name] = cell["source"].(string)
				if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(srcs[name]+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ref := exec.Command("git", "merge-file", "-p", "ours.ipynb.txt", "base.ipynb.txt", "theirs.ipynb.txt")
			ref.Dir = dir
			want, err := ref.Output()
			clean := err == nil
			if !clean {
				if _, ok := err.(*exec.ExitError); !ok {
					t.Fatal(err)
				}
			}
			res := ipynb(t, dir, "", "merge", "-o", "-", "base.ipynb", "ours.ipynb", "theirs.ipynb")
			var nb struct {
				Cells []struct {
					Source any `json:"source"`
				} `json:"cells"`
			}
			if err := json.Unmarshal([]byte(res.stdout), &nb); err != nil || len(nb.Cells) != 1 {
				t.Fatalf("exit %d: %v %s\n%s", res.code, err, res.stderr, res.stdout)
			}
			var got string
			switch s := nb.Cells[0].Source.(type) {
			case string:
				got = s
			case []any:
				for _, l := range s {
					got += l.(string)
				}
			}
			if clean {
				if res.code != 0 || got+"\n" != string(want) {
					t.Errorf("exit %d, source %q; want exit 0 and git's %q (%s)", res.code, got, want, res.stderr)
				}
				return
			}
			if res.code != 1 || !strings.Contains(got, "<<<<<<<") {
				t.Errorf("git conflicts on the source; merge exit %d, source %q (%s)", res.code, got, res.stderr)
			}
		})
	}
}
