package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cell whose id was removed, or replaced by another cell's (a 4.5
// notebook made invalid), is a change of the file: diff reports it,
// exit 1, where before it said nothing and exited 0 (same). Cells of
// notebooks without ids (4.4), whose ids are made up on both sides, show
// no id change.
func TestDiffShowsIDChanges(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	write := func(name string, f func(nb map[string]any)) {
		nb := decodeJSON(t, data)
		f(nb)
		b, err := json.MarshalIndent(nb, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, name), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cell := func(nb map[string]any, i int) map[string]any { return nb["cells"].([]any)[i].(map[string]any) }
	write("a.ipynb", func(map[string]any) {})
	write("noid.ipynb", func(nb map[string]any) { delete(cell(nb, 2), "id") })
	write("dup.ipynb", func(nb map[string]any) { cell(nb, 2)["id"] = cell(nb, 0)["id"] })
	noIDs := func(nb map[string]any) {
		nb["nbformat_minor"] = 4
		for _, c := range nb["cells"].([]any) {
			delete(c.(map[string]any), "id")
		}
	}
	write("v44.ipynb", noIDs)
	write("v44-moved.ipynb", func(nb map[string]any) {
		noIDs(nb)
		cs := nb["cells"].([]any)
		cs[0], cs[1] = cs[1], cs[0]
	})
	a := decodeJSON(t, data)
	id2, id0 := cell(a, 2)["id"].(string), cell(a, 0)["id"].(string)

	for _, c := range []struct {
		a, b string
		code int
		want []string // lines of the output
	}{
		{"a.ipynb", "noid.ipynb", 1, []string{"(cell 3): changed id", " id: " + id2 + " → none"}},
		{"noid.ipynb", "a.ipynb", 1, []string{"## code " + id2 + " [2] (cell 3): changed id", " id: none → " + id2}},
		{"a.ipynb", "dup.ipynb", 1, []string{"(cell 3): changed id", " id: " + id2 + " → " + id0}},
		{"v44.ipynb", "v44-moved.ipynb", 1, nil},
		{"v44.ipynb", "v44.ipynb", 0, nil},
		{"a.ipynb", "a.ipynb", 0, nil},
	} {
		r := ipynb(t, d, "", "diff", c.a, c.b)
		if r.code != c.code {
			t.Errorf("diff %s %s: exit %d, want %d\n%s%s", c.a, c.b, r.code, c.code, r.stdout, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("diff %s %s: no %q in\n%s", c.a, c.b, w, r.stdout)
			}
		}
		if strings.Contains(c.a, "v44") && strings.Contains(r.stdout, "id:") {
			t.Errorf("diff %s %s: ids made up on both sides shown:\n%s", c.a, c.b, r.stdout)
		}
		j := ipynb(t, d, "", "diff", "--json", c.a, c.b)
		var doc struct {
			Same    bool
			Changes []struct {
				Parts []string
				IDs   []*string `json:"ids"`
			}
		}
		if err := json.Unmarshal([]byte(j.stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, j.stdout)
		}
		if doc.Same != (c.code == 0) {
			t.Errorf("diff --json %s %s: same %v", c.a, c.b, doc.Same)
		}
		if len(c.want) > 0 {
			found := false
			for _, ch := range doc.Changes {
				if strings.Contains(strings.Join(ch.Parts, ","), "id") && len(ch.IDs) == 2 {
					found = true
				}
			}
			if !found {
				t.Errorf("diff --json %s %s: no id change with ids [a, b]:\n%s", c.a, c.b, j.stdout)
			}
		}
	}
}
