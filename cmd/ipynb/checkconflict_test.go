package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Item 15 of issue 21: "ipynb check" says "conflict" (exit 1), with
// path:line:col: and the cell, for every conflict "ipynb merge" leaves in
// a file — markers in a source, in a prompt's reply, in outputs, of any
// size and label, marker cells, conflict records in a cell's or the
// notebook's metadata — and in its JSON-lines form; the merged file is
// otherwise a valid notebook that round-trips. Text that only looks like
// part of a marker is no conflict.
func TestCheckReportsConflicts(t *testing.T) {
	t.Parallel()
	out := func(text string) map[string]any {
		return map[string]any{"output_type": "stream", "name": "stdout", "text": []any{text}}
	}
	prompt := func(q, reply string) map[string]any {
		return map[string]any{"cell_type": "markdown", "id": "p", "metadata": map[string]any{"solveit_ai": true},
			"source": []any{q + "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n" + reply}}
	}
	// cells in the order of ids, each a code cell of its id.
	ordered := func(ids string) string {
		var cs []map[string]any
		for _, id := range strings.Fields(ids) {
			cs = append(cs, codeCell(id, id+"\n", map[string]any{}))
		}
		return jupyterNotebook(5, cs...)
	}
	nbMeta := func(nb string, v int) string {
		return strings.Replace(nb, `"metadata": {},`+"\n "+`"nbformat"`, `"metadata": {"widgets": {"v": `+string(rune('0'+v))+`}},`+"\n "+`"nbformat"`, 1)
	}
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		args               []string
		want               []string // pieces of the problem lines
	}{
		{"source markers", jupyterNotebook(5, codeCell("c", "a\n", map[string]any{})), jupyterNotebook(5, codeCell("c", "b\n", map[string]any{})),
			jupyterNotebook(5, codeCell("c", "c\n", map[string]any{})), nil, []string{"/cells/0/source", "cell 1 (id c): conflict markers in its source (<<<<<<< ours … >>>>>>> theirs)"}},
		{"marker size and labels", jupyterNotebook(5, codeCell("c", "a\n", map[string]any{})), jupyterNotebook(5, codeCell("c", "b\n", map[string]any{})),
			jupyterNotebook(5, codeCell("c", "c\n", map[string]any{})), []string{"--marker-size", "3", "--ours-label", "main", "--theirs-label", "topic branch"},
			[]string{"conflict markers in its source (<<< main … >>> topic branch)"}},
		{"reply markers", jupyterNotebook(5, prompt("Q", "R")), jupyterNotebook(5, prompt("Q", "R1")), jupyterNotebook(5, prompt("Q", "R2")), nil,
			[]string{"cell 1 (id p): conflict markers in its source"}},
		{"outputs", jupyterNotebook(5, codeCell("c", "a\n", map[string]any{}, out("1\n"))), jupyterNotebook(5, codeCell("c", "a\n", map[string]any{}, out("2\n"))),
			jupyterNotebook(5, codeCell("c", "a\n", map[string]any{}, out("3\n"))), nil, []string{"/cells/0/outputs/0/text", "conflict marker outputs"}},
		{"record", jupyterNotebook(5, codeCell("c", "a\n", map[string]any{"tags": []any{"x"}})), jupyterNotebook(5, codeCell("c", "a\n", map[string]any{"tags": []any{"y"}})),
			jupyterNotebook(5, codeCell("c", "a\n", map[string]any{"tags": []any{"z"}})), nil, []string{"/cells/0/metadata/ipynb_conflicts/0", "cell 1 (id c): conflict recorded: metadata key tags at /metadata/tags"}},
		{"notebook record", nbMeta(jupyterNotebook(5, codeCell("c", "a\n", map[string]any{})), 1), nbMeta(jupyterNotebook(5, codeCell("c", "a\n", map[string]any{})), 2),
			nbMeta(jupyterNotebook(5, codeCell("c", "a\n", map[string]any{})), 3), nil, []string{"/metadata/ipynb_conflicts/0", "notebook metadata: conflict recorded"}},
		{"marker cells", jupyterNotebook(5, codeCell("a", "a\n", map[string]any{}), codeCell("b", "b\n", map[string]any{})),
			jupyterNotebook(5, codeCell("a", "a\n", map[string]any{}), codeCell("o", "ours\n", map[string]any{})),
			jupyterNotebook(5, codeCell("a", "a\n", map[string]any{}), codeCell("t", "theirs\n", map[string]any{})), nil,
			[]string{"/cells/1/source", "a marker cell of cells both sides put in one place (<<<<<<< ours … >>>>>>> theirs)"}},
		{"deleted and edited", jupyterNotebook(5, codeCell("a", "a\n", map[string]any{}), codeCell("b", "b\n", map[string]any{})),
			jupyterNotebook(5, codeCell("a", "a\n", map[string]any{})),
			jupyterNotebook(5, codeCell("a", "a\n", map[string]any{}), codeCell("b", "b, edited\n", map[string]any{})), nil,
			[]string{"cell 2 (id b): conflict markers in its source (<<<<<<< ours (deleted this cell) … >>>>>>> theirs (edited this cell))"}},
		// a moved after c by ours, after d by theirs: at ours' place (the
		// third cell), theirs' recorded.
		{"cell moved on both sides", ordered("a b c d"), ordered("b c a d"), ordered("b c d a"), nil,
			[]string{"/cells/2/metadata/ipynb_conflicts/0", "cell 3 (id a): conflict recorded: moved on both sides"}},
		// x added after a by ours, after b by theirs: once, at ours'
		// place (the second cell), both places recorded.
		{"cell added on both sides at different places", ordered("a b c"), ordered("a x b c"), ordered("a b x c"), nil,
			[]string{"/cells/1/metadata/ipynb_conflicts/0", "cell 2 (id x): conflict recorded: added on both sides at different places"}},
	} {
		dir := t.TempDir()
		for name, text := range map[string]string{"base.ipynb": c.base, "nb.ipynb": c.ours, "theirs.ipynb": c.theirs} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := append(append([]string{"merge"}, c.args...), "base.ipynb", "nb.ipynb", "theirs.ipynb")
		if r := ipynb(t, dir, "", args...); r.code != 1 {
			t.Errorf("%s: merge exit %d: %s", c.name, r.code, r.stderr)
			continue
		}
		r := ipynb(t, dir, "", "check", "nb.ipynb")
		if r.code != 1 || !strings.HasPrefix(r.stdout, "conflict nb.ipynb (1 conflict)\n") || !strings.Contains(r.stdout, "1 conflict, 0 invalid, 0 error") {
			t.Errorf("%s: check exit %d:\n%s%s", c.name, r.code, r.stdout, r.stderr)
			continue
		}
		line := strings.Split(r.stdout, "\n")[1]
		if !regexp.MustCompile(`^  nb\.ipynb:[0-9]+:[0-9]+: /\S+: conflict: `).MatchString(line) {
			t.Errorf("%s: problem line %q", c.name, line)
		}
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", c.name, line, w)
			}
		}
		j := ipynb(t, dir, "", "check", "--json", "nb.ipynb")
		var rec struct {
			Status   string
			Problems []struct {
				Line, Column     int
				Pointer, Keyword string
			}
		}
		first := strings.SplitN(j.stdout, "\n", 2)[0]
		if err := json.Unmarshal([]byte(first), &rec); err != nil || j.code != 1 || rec.Status != "conflict" || len(rec.Problems) != 1 ||
			rec.Problems[0].Line == 0 || rec.Problems[0].Keyword != "conflict" {
			t.Errorf("%s: --json exit %d: %s (%v)", c.name, j.code, j.stdout, err)
		}
	}
	// Lines that only look like markers, in a notebook written as Jupyter
	// writes it: no conflict.
	dir := t.TempDir()
	nb := jupyterNotebook(5, codeCell("c", "<<<<<<< not a conflict\n", map[string]any{}), codeCell("d", "=======\n", map[string]any{}),
		codeCell("e", "a\n<<<<<<<\nb\n>>>>>>>\n", map[string]any{}))
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(nb), 0o644)
	if r := ipynb(t, dir, "", "check", "nb.ipynb"); strings.HasPrefix(r.stdout, "conflict") {
		t.Errorf("false conflict:\n%s", r.stdout)
	}
}
