package mergecheck

// Tests of merges of notebooks without ids whose cells a side rewrote: the
// library's merge is git's line merge of the files.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Notebooks without ids (4.4 and 3) whose cells a side rewrote so that
// they share nothing with base's (findings 08 and 04 of the attack of
// 2026-12-03): the library's merge is git's line merge of the files (git
// merge-file, the reference) where git merges cleanly, cell by cell
// (kind, text, outputs, count, order); where git conflicts on a cell both
// sides rewrote, it conflicts too and keeps every side's text.
func TestMergeRewrittenCellsAsGit(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	md := func(s string) rwCell { return rwCell{kind: "markdown", src: s} }
	code := func(s, out string, n int) rwCell { return rwCell{kind: "code", src: s, out: out, n: n} }
	for _, c := range []struct {
		name               string
		base, ours, theirs []rwCell
	}{
		{"finding 08: each side rewords others, ours appends",
			[]rwCell{md("# Title"), md("Intro"), md("Method"), md("Results")},
			[]rwCell{md("# Title"), md("Intro"), md("Approach"), md("Results"), md("Appendix (ours)")},
			[]rwCell{md("# Title"), md("Motivation"), md("Method"), md("Findings")}},
		{"finding 04: ours rewrites the code, theirs re-runs it",
			[]rwCell{code("a = 1", "1", 1), code("train(model)", "loss 0.9", 2), md("# end")},
			[]rwCell{code("a = 1", "1", 1), code("fit(net, epochs=10)", "loss 0.9", 2), md("# end")},
			[]rwCell{code("a = 1", "1", 1), code("train(model)", "loss 0.1 (after 3 h)", 5), md("# end")}},
		{"both: rewritten code and prose, theirs re-runs and rewords the title",
			[]rwCell{md("# Title"), code("train(model)", "loss 0.9", 2), md("Notes"), code("plot()", "figure", 3)},
			[]rwCell{md("# Title"), code("fit(net)", "loss 0.9", 2), md("Remarks"), code("plot()", "figure", 3)},
			[]rwCell{md("# A title"), code("train(model)", "loss 0.2", 7), md("Notes"), code("plot()", "figure 2", 8)}},
		{"six cells, ours rewords the 1st and 4th, theirs the 2nd and 6th",
			[]rwCell{md("one"), md("two"), md("three"), md("four"), md("five"), md("six")},
			[]rwCell{md("uno"), md("two"), md("three"), md("cuatro"), md("five"), md("six")},
			[]rwCell{md("one"), md("deux"), md("three"), md("four"), md("five"), md("six et demi")}},
		{"ours rewrites the code and moves the last cell first, theirs re-runs",
			[]rwCell{md("# T"), md("A"), code("train(m)", "loss 0.9", 2), md("B"), md("C")},
			[]rwCell{md("C"), md("# T"), md("A"), code("fit(n)", "loss 0.9", 2), md("B")},
			[]rwCell{md("# T"), md("A"), code("train(m)", "loss 0.1", 5), md("B"), md("C")}},
		{"ours rewrites the code and moves its neighbour away, theirs re-runs",
			[]rwCell{md("# T"), md("A"), code("train(m)", "loss 0.9", 2), md("B"), md("C")},
			[]rwCell{md("# T"), code("fit(n)", "loss 0.9", 2), md("B"), md("A"), md("C")},
			[]rwCell{md("# T"), md("A"), code("train(m)", "loss 0.1", 5), md("B"), md("C")}},
		{"ours replaces a cell by two, theirs rewords the next but one",
			[]rwCell{md("a"), md("b"), md("c"), md("d"), md("e")},
			[]rwCell{md("a"), md("B1"), md("B2"), md("c"), md("d"), md("e")},
			[]rwCell{md("a"), md("b"), md("c"), md("D3"), md("e")}},
		{"both rewrite one cell differently",
			[]rwCell{md("# Title"), md("Intro"), md("Method")},
			[]rwCell{md("# Title"), md("Approach"), md("Method")},
			[]rwCell{md("# Title"), md("Motivation"), md("Method")}},
	} {
		for _, v3 := range []bool{false, true} {
			files := [3][]byte{rwNotebook(c.base, v3), rwNotebook(c.ours, v3), rwNotebook(c.theirs, v3)}
			name := fmt.Sprintf("%s (v3 %v)", c.name, v3)
			want, clean := rwGitMerge(t, git, files)
			out := libraryMerge(files[0], files[1], files[2])
			if out.status > 1 {
				t.Fatalf("%s: merge: %s", name, out.said)
			}
			got, err := rwCells(out.result)
			if err != nil {
				t.Fatalf("%s: result: %v", name, err)
			}
			if !clean {
				if out.status != 1 {
					t.Errorf("%s: git conflicts, the merge is clean: %+v", name, got)
				}
				for _, cs := range [][]rwCell{c.ours, c.theirs} {
					for _, x := range cs {
						if !strings.Contains(string(out.result), x.src) {
							t.Errorf("%s: %q is not in the result", name, x.src)
						}
					}
				}
				continue
			}
			wantCells, err := rwCells(want)
			if err != nil {
				t.Fatalf("%s: git's merge: %v", name, err)
			}
			if out.status != 0 || !slices.Equal(got, wantCells) {
				t.Errorf("%s: merged (status %d, %s)\n%+v\ngit merge-file:\n%+v", name, out.status, out.said, got, wantCells)
			}
		}
	}
}

// rwCell is a one-line cell: its kind, text, a code cell's one stream
// output ("" none) and count (0 none).
type rwCell struct {
	kind, src, out string
	n              int
}

// rwNotebook writes cells as a notebook without ids: version 4.4, or 3
// (v3), indented by one space with sorted keys as Jupyter writes them.
func rwNotebook(cells []rwCell, v3 bool) []byte {
	var cs []any
	for _, c := range cells {
		cell := map[string]any{"cell_type": c.kind, "metadata": map[string]any{}}
		if c.kind != "code" {
			cell["source"] = []string{c.src}
			cs = append(cs, cell)
			continue
		}
		outs := []any{}
		var n any
		if c.n > 0 {
			n = c.n
		}
		if c.out != "" {
			o := map[string]any{"output_type": "stream", "text": []string{c.out + "\n"}}
			if v3 {
				o["stream"] = "stdout"
			} else {
				o["name"] = "stdout"
			}
			outs = append(outs, o)
		}
		cell["outputs"] = outs
		if v3 {
			cell["input"], cell["language"], cell["collapsed"], cell["prompt_number"] = []string{c.src}, "python", false, n
		} else {
			cell["source"], cell["execution_count"] = []string{c.src}, n
		}
		cs = append(cs, cell)
	}
	nb := map[string]any{"cells": cs, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4}
	if v3 {
		nb = map[string]any{"metadata": map[string]any{"name": ""}, "nbformat": 3, "nbformat_minor": 0,
			"worksheets": []any{map[string]any{"cells": cs, "metadata": map[string]any{}}}}
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		panic(err)
	}
	return append(data, '\n')
}

// rwCells reads a notebook's cells back as rwCells (version 4 or 3).
func rwCells(data []byte) ([]rwCell, error) {
	var nb struct {
		Cells      []map[string]any `json:"cells"`
		Worksheets []struct {
			Cells []map[string]any `json:"cells"`
		} `json:"worksheets"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, err
	}
	cells := nb.Cells
	if len(nb.Worksheets) > 0 {
		cells = nb.Worksheets[0].Cells
	}
	text := func(v any) string {
		switch v := v.(type) {
		case string:
			return v
		case []any:
			var b strings.Builder
			for _, l := range v {
				s, _ := l.(string)
				b.WriteString(s)
			}
			return b.String()
		}
		return ""
	}
	var out []rwCell
	for _, c := range cells {
		x := rwCell{kind: fmt.Sprint(c["cell_type"]), src: text(c["source"]) + text(c["input"])}
		outs, _ := c["outputs"].([]any)
		for _, o := range outs {
			if m, ok := o.(map[string]any); ok {
				x.out += strings.TrimSuffix(text(m["text"]), "\n")
			}
		}
		for _, k := range []string{"execution_count", "prompt_number"} {
			if f, ok := c[k].(float64); ok {
				x.n = int(f)
			}
		}
		out = append(out, x)
	}
	return out, nil
}

// rwGitMerge returns git merge-file's merge of the files (base, ours,
// theirs) and whether it was clean.
func rwGitMerge(t *testing.T, git string, files [3][]byte) ([]byte, bool) {
	t.Helper()
	dir := t.TempDir()
	for i, name := range []string{"base", "ours", "theirs"} {
		if err := os.WriteFile(filepath.Join(dir, name), files[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, true
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128:
		return out, false
	}
	t.Fatalf("git merge-file: %v", err)
	return nil, false
}

// A version 3 heading is a cell type of its own: ours' new heading in the
// place of the markdown cell it deleted is not that cell edited because
// their formulaic texts share byte triples (property seed 14004881:
// theirs made the markdown cell code, and ours' heading came out a code
// cell, theirs' edit in no cell). Expected, by the rule of a deletion
// against an edit: theirs' code cell kept in a conflict, ours' heading
// beside it as ours wrote it.
func TestMergeV3HeadingIsNoMarkdownCellsEdit(t *testing.T) {
	t.Parallel()
	nb := func(cell string) []byte {
		return []byte(`{"metadata":{"name":"nb"},"nbformat":3,"nbformat_minor":0,"worksheets":[{"cells":[` + cell + `],"metadata":{}}]}` + "\n")
	}
	base := nb(`{"cell_type":"markdown","metadata":{},"source":["«b6»\n","b6.1 - item\n","b6.2 - item\n","b6.3 text\n","b6.s lone \ud83d"]}`)
	ours := nb(`{"cell_type":"heading","level":2,"metadata":{},"source":["«o4»\n","o4.1 text\n","o4.2 - item\n","o4.3 - item\n","o4.s lone \ud83d"]}`)
	theirs := nb(`{"cell_type":"code","collapsed":false,"input":["«b6»\n","b6.1 - item\n","b6.2 - item\n","b6.3 text\n","b6.s lone \ud83d"],"language":"python","metadata":{},"outputs":[]}`)
	out := libraryMerge(base, ours, theirs)
	var nbv struct {
		Worksheets []struct {
			Cells []map[string]any `json:"cells"`
		} `json:"worksheets"`
	}
	if err := json.Unmarshal(out.result, &nbv); err != nil || len(nbv.Worksheets) != 1 {
		t.Fatalf("result (status %d, %s): %v\n%s", out.status, out.said, err, out.result)
	}
	var heading, code bool
	for _, c := range nbv.Worksheets[0].Cells {
		text := fmt.Sprint(c["source"], c["input"])
		heading = heading || c["cell_type"] == "heading" && strings.Contains(text, "«o4»")
		code = code || c["cell_type"] == "code" && strings.Contains(text, "b6.1 - item")
	}
	if out.status != 1 || !heading || !code {
		t.Errorf("status %d (%s), ours' heading kept %v, theirs' code cell kept %v:\n%s", out.status, out.said, heading, code, out.result)
	}
}
