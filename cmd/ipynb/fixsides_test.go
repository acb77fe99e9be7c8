package main

// Tests that fix records conflicts of both sides' values as merge does, and
// reads the version from parsed values.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// gitConflict writes base, ours and theirs into dir and has git's line
// merge (with opts, such as --diff3) leave its conflict markers in a copy
// of ours, whose path it returns; the test fails unless git conflicts.
func gitConflict(t *testing.T, dir, base, ours, theirs string, opts ...string) string {
	t.Helper()
	for name, text := range map[string]string{"base.ipynb": base, "nb.ipynb": ours, "theirs.ipynb": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{"merge-file"}, opts...)
	args = append(args, "nb.ipynb", "base.ipynb", "theirs.ipynb")
	if out, st := gitStatusIn(t, dir, args...); st <= 0 {
		t.Fatalf("git merge-file did not conflict (%d): %s", st, out)
	}
	return filepath.Join(dir, "nb.ipynb")
}

// jupyterCells writes cells as Jupyter does (indent 1, one member a line).
func jupyterNotebook(minor int, cells ...map[string]any) string {
	nb := map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": minor}
	b, _ := json.MarshalIndent(nb, "", " ")
	return string(b) + "\n"
}

func codeCell(id, source string, meta map[string]any, outputs ...map[string]any) map[string]any {
	c := map[string]any{"cell_type": "code", "execution_count": nil, "metadata": meta, "outputs": outputs, "source": []any{source}}
	if outputs == nil {
		c["outputs"] = []any{}
	}
	if id != "" {
		c["id"] = id
	}
	return c
}

func decoded(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", path, err, data)
	}
	return v
}

// Item 4 of issue 21: where both sides changed a tag list, another
// metadata value or an attachment, fix marks the conflict as merge does —
// a record in the cell's metadata holding both sides' values — rather
// than keeping ours' alone; with the base in the markers (diff3) and
// without it. Exit 1, conflicts named on standard error.
func TestFixRecordsBothSides(t *testing.T) {
	needGit(t)
	meta := func(tags []any, h float64) map[string]any {
		return map[string]any{"tags": tags, "colab": map[string]any{"height": h}}
	}
	md := func(data string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": "m", "metadata": map[string]any{}, "source": []any{"![](attachment:a.png)"},
			"attachments": map[string]any{"a.png": map[string]any{"image/png": data}}}
	}
	base := jupyterNotebook(5, codeCell("c", "x\n", meta([]any{"a"}, 1)), md("aGk="))
	ours := jupyterNotebook(5, codeCell("c", "x\n", meta([]any{"a", "o"}, 2)), md("b3Vycw=="))
	theirs := jupyterNotebook(5, codeCell("c", "x\n", meta([]any{"t"}, 3)), md("dGhlaXJz"))
	for _, style := range [][]string{nil, {"--diff3"}} {
		dir := t.TempDir()
		p := gitConflict(t, dir, base, ours, theirs, style...)
		r := ipynb(t, dir, "", "fix", p)
		if r.code != 1 {
			t.Fatalf("%v: exit %d: %s", style, r.code, r.stderr)
		}
		nb := decoded(t, p)
		cells := nb["cells"].([]any)
		seen := map[string]map[string]any{}
		for _, c := range cells {
			m := c.(map[string]any)
			recs, _ := m["metadata"].(map[string]any)["ipynb_conflicts"].([]any)
			for _, r := range recs {
				rec := r.(map[string]any)
				seen[rec["pointer"].(string)] = rec
			}
		}
		for p, want := range map[string]string{"/metadata/tags": `["t"]`, "/metadata/colab/height": "3", "/attachments/a.png": `{"image/png":"dGhlaXJz"}`} {
			rec := seen[p]
			got, _ := json.Marshal(rec["theirs"])
			if rec == nil || string(got) != want {
				t.Errorf("%v: record %s: %v (want theirs %s); stderr %s", style, p, rec, want, r.stderr)
			}
			if style != nil && rec != nil && rec["base"] == nil {
				t.Errorf("%v: record %s has no base", style, p)
			}
		}
		if !strings.Contains(r.stderr, "metadata key tags") {
			t.Errorf("%v: stderr %s", style, r.stderr)
		}
	}
}

// Item 10 of issue 21: fix works on parsed values. A 4.4 notebook whose
// output holds the text "nbformat_minor": 5 (which a pattern over the
// file took for the version) is repaired; a cell id cannot come from
// theirs into a result before 4.5 (theirs adds a cell with an id to a 4.4
// file); a side at 4.5 makes the result 4.5, every cell with an id (fresh
// ones for cells that had none). The results are valid for Python
// nbformat and keep every cell's text.
func TestFixVersionFromParsedValues(t *testing.T) {
	needGitParallel(t)
	out := map[string]any{"output_type": "stream", "name": "stdout", "text": []any{"\"nbformat_minor\": 5,\n", "\"id\": \"ipynb-fix-00000000-1\",\n"}}
	mk := func(minor int, ids bool, second string, more ...map[string]any) string {
		id := func(s string) string {
			if ids {
				return s
			}
			return ""
		}
		return jupyterNotebook(minor, append([]map[string]any{codeCell(id("c1"), "print(1)\n", map[string]any{}, out), codeCell(id("c2"), second, map[string]any{})}, more...)...)
	}
	added := codeCell("c3", "added\n", map[string]any{})
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		minor              int
	}{
		{"4.4, an output naming version 5", mk(4, false, "b\n"), mk(4, false, "ours\n"), mk(4, false, "theirs\n"), 4},
		{"4.4, a cell of theirs with an id", mk(4, false, "b\n"), mk(4, false, "ours\n"), mk(4, false, "theirs\n", added), 4},
		// Every cell has an id once git merged theirs' (as Colab writes
		// 4.x files): healed to 4.5, as fmt heals such a file.
		{"4.4, every cell with an id", mk(4, false, "b\n"), mk(4, false, "ours\n"), mk(4, true, "theirs\n"), 5},
		{"theirs at 4.5", mk(4, false, "b\n"), mk(4, false, "ours\n"), mk(5, true, "theirs\n"), 5},
	} {
		dir := t.TempDir()
		p := gitConflict(t, dir, c.base, c.ours, c.theirs)
		r := ipynb(t, dir, "", "fix", p)
		if r.code != 1 {
			t.Errorf("%s: exit %d: %s", c.name, r.code, r.stderr)
			continue
		}
		nb := decoded(t, p)
		if nb["nbformat_minor"] != float64(c.minor) {
			t.Errorf("%s: nbformat_minor %v, want %d", c.name, nb["nbformat_minor"], c.minor)
		}
		ids := map[string]bool{}
		for i, cell := range nb["cells"].([]any) {
			id, has := cell.(map[string]any)["id"]
			switch {
			case c.minor < 5 && has:
				t.Errorf("%s: cell %d has id %v in a 4.%d notebook", c.name, i, id, c.minor)
			case c.minor == 5 && (!has || ids[fmt.Sprint(id)] || strings.HasPrefix(fmt.Sprint(id), "ipynb-fix-")):
				t.Errorf("%s: cell %d id %v", c.name, i, id)
			}
			ids[fmt.Sprint(id)] = true
		}
		data, _ := os.ReadFile(p)
		srcs := cellSources(t, data)
		if miss := missingLines([]string{"print(1)\n", "ours\n", "theirs\n"}, srcs); len(miss) > 1 || len(miss) == 1 && miss[0] != "" {
			t.Errorf("%s: lines missing %q", c.name, miss)
		}
		if !strings.Contains(string(data), `\"nbformat_minor\": 5`) || !strings.Contains(string(data), `ipynb-fix-00000000-1`) {
			t.Errorf("%s: the output's text changed:\n%s", c.name, data)
		}
		if msg := pythonInvalid(t, data); msg != "" {
			t.Errorf("%s: invalid for Python nbformat: %s", c.name, msg)
		}
	}
}

// pythonInvalid returns Python nbformat's complaint about a notebook
// ("" when valid, or when Python nbformat is absent: then unchecked).
func pythonInvalid(t *testing.T, data []byte) string {
	t.Helper()
	msg, ok := nbtest.PythonComplaint(data)
	if !ok {
		t.Log("Python nbformat absent: validity unchecked")
	}
	return msg
}
