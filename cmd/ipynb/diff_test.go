package main

// Tests of diff and --textconv on known edits, of metadata shown as compact
// JSON, of replies, and of realIDs.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// diffPair writes jupyter.ipynb as a.ipynb and, as b.ipynb, a copy
// edited with encoding/json in known ways (see the comments).
func diffPair(t *testing.T) string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	nb := decodeJSON(t, data)
	cells := nb["cells"].([]any)
	cellOf(nb, 2)["source"] = []any{"1+2"}                                        // c3d4e5f6: content
	cellOf(nb, 1)["outputs"].([]any)[0].(map[string]any)["text"] = []any{"bye\n"} // b2c3d4e5: outputs
	cellOf(nb, 3)["metadata"] = map[string]any{"tags": []any{"x"}}                // d4e5f6a7: metadata
	// e5f6a7b8 (4) removed, a7b8c9d0 (6) moved first, a cell added last.
	cells = []any{cells[6], cells[0], cells[1], cells[2], cells[3], cells[5], cells[7],
		map[string]any{"cell_type": "markdown", "id": "n0000001", "metadata": map[string]any{}, "source": []any{"New"}}}
	nb["cells"] = cells
	nb["metadata"].(map[string]any)["kernelspec"].(map[string]any)["display_name"] = "Python 3 (ipykernel)"
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), append(b, '\n'), 0o644)
	return dir
}

func TestDiff(t *testing.T) {
	t.Parallel()
	dir := diffPair(t)
	// The edits, as b's cell ids in order.
	var b struct{ Cells []struct{ ID string } }
	data, _ := os.ReadFile(filepath.Join(dir, "b.ipynb"))
	json.Unmarshal(data, &b)
	var order []string
	for _, c := range b.Cells {
		order = append(order, c.ID)
	}
	if want := []string{"a7b8c9d0", "a1b2c3d4", "b2c3d4e5", "c3d4e5f6", "d4e5f6a7", "f6a7b8c9", "b8c9d0e1", "n0000001"}; !slices.Equal(order, want) {
		t.Fatalf("test notebook: cells %v, want %v", order, want)
	}

	r := ipynb(t, dir, "", "diff", "--json", "a.ipynb", "b.ipynb")
	if r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var doc struct {
		Same    bool
		Changes []jsonChange
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]jsonChange{}
	for _, c := range doc.Changes {
		got[c.Kind+" "+c.ID] = c
	}
	for key, parts := range map[string][]string{
		"changed c3d4e5f6":   {"content"},
		"changed b2c3d4e5":   {"outputs"},
		"changed d4e5f6a7":   {"metadata"},
		"removed e5f6a7b8":   nil,
		"added n0000001":     nil,
		"moved a7b8c9d0":     nil,
		"notebook metadata ": {"metadata"},
	} {
		c, ok := got[key]
		if !ok {
			t.Errorf("no change %q in %s", key, r.stdout)
			continue
		}
		if !slices.Equal(c.Parts, parts) {
			t.Errorf("%s: parts %v, want %v", key, c.Parts, parts)
		}
	}
	if len(doc.Changes) != 7 || doc.Same {
		t.Errorf("%d changes, want 7:\n%s", len(doc.Changes), r.stdout)
	}
	if c := got["changed c3d4e5f6"]; c.Content != "@@ -1 +1 @@\n-1+1\n+1+2\n" || *c.A != 3 || *c.B != 4 {
		t.Errorf("content diff %q, cells %v→%v", c.Content, *c.A, *c.B)
	}
	if c := got["changed d4e5f6a7"]; !slices.Equal(c.Keys, []string{"tags"}) {
		t.Errorf("metadata keys %v", c.Keys)
	}
	if c := got["notebook metadata "]; !slices.Equal(c.Keys, []string{"kernelspec"}) {
		t.Errorf("notebook metadata keys %v", c.Keys)
	}

	// Text, as a person reads it.
	r = ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb")
	for _, l := range []string{
		"--- a.ipynb", "+++ b.ipynb",
		"## raw a7b8c9d0 (cell 1): moved from cell 7",
		"## code c3d4e5f6 [2] (cell 4): changed content", "-1+1", "+1+2",
		"## code b2c3d4e5 [1] (cell 3): changed outputs",
		"## code d4e5f6a7 [3] (cell 5): changed metadata", `+## meta tags = ["x"]`,
		"## code e5f6a7b8 [4] (cell 5): removed", "-1/0",
		"## note n0000001 (cell 8): added", "+New",
		"## notebook metadata: changed kernelspec",
		` ## meta kernelspec.display_name: "Python 3" → "Python 3 (ipykernel)"`,
	} {
		if !strings.Contains("\n"+r.stdout, "\n"+l+"\n") {
			t.Errorf("no line %q in:\n%s", l, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "\n-## out: stream stdout, 1 line") || !strings.Contains(r.stdout, "\n+## out: stream stdout, 1 line") {
		t.Errorf("outputs not summarised:\n%s", r.stdout)
	}
	if r.code != 1 || strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("exit %d, or colour without a terminal", r.code)
	}
	if r := ipynb(t, dir, "", "diff", "--color", "always", "a.ipynb", "b.ipynb"); !strings.Contains(r.stdout, "\x1b[31m-1+1\x1b[0m\n") {
		t.Errorf("--color always: %q", r.stdout)
	}

	// The same notebook: nothing, exit 0.
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "a.ipynb"); r.code != 0 || r.stdout != "" {
		t.Errorf("same: %+v", r)
	}
	if r := ipynb(t, dir, "", "diff", "--json", "a.ipynb", "a.ipynb"); r.code != 0 || !strings.Contains(r.stdout, `"same": true`) {
		t.Errorf("same --json: %+v", r)
	}

	// Git's 7 arguments: exit 0 with differences; /dev/null for a new file.
	r = ipynb(t, dir, "", "diff", "nb.ipynb", "a.ipynb", "1111111", "100644", "b.ipynb", "2222222", "100644")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "--- a/nb.ipynb\n+++ b/nb.ipynb\n") {
		t.Errorf("git driver: %+v", r)
	}
	r = ipynb(t, dir, "", "diff", "nb.ipynb", os.DevNull, ".", ".", "b.ipynb", "2222222", "100644")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "--- /dev/null\n+++ b/nb.ipynb\n") || strings.Count(r.stdout, "): added\n") != 8 {
		t.Errorf("git driver, new file: %+v", r)
	}

	// Not a notebook: located, exit 2.
	ls := strings.SplitAfter(string(data), "\n")
	ls[9] = "   oops\n"
	os.WriteFile(filepath.Join(dir, "bad.ipynb"), []byte(strings.Join(ls, "")), 0o644)
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "bad.ipynb"); r.code != 2 || !strings.HasPrefix(r.stderr, "bad.ipynb:10:4: ") {
		t.Errorf("bad input: %+v", r)
	}
}

// --textconv: every cell's text as it is, under a header naming the
// cell by kind and id; ids made up for notebooks without them are not
// shown, so the text is the same on every run.
func TestTextconv(t *testing.T) {
	t.Parallel()
	r := ipynb(t, shipped, "", "diff", "--textconv", "jupyter.ipynb")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	for _, src := range cellSources(t, data) {
		if !strings.Contains(r.stdout, src) {
			t.Errorf("cell text %q not shown", src)
		}
	}
	for _, l := range []string{"## note a1b2c3d4", "## code b2c3d4e5 [1]", "## raw a7b8c9d0", "## out: error ZeroDivisionError: division by zero"} {
		if !strings.Contains(r.stdout, "\n"+l) {
			t.Errorf("no line %q:\n%s", l, r.stdout)
		}
	}
	r1 := ipynb(t, shipped, "", "diff", "--textconv", "v4.4.ipynb")
	r2 := ipynb(t, shipped, "", "diff", "--textconv", "v4.4.ipynb")
	if r1.code != 0 || r1.stdout != r2.stdout || !strings.Contains(r1.stdout, "\n## code [1]\n") {
		t.Errorf("textconv of a notebook without ids:\n%s", r1.stdout)
	}
}

// Metadata values are shown as JSON as written (Python's json.dumps
// with compact separators), not HTML-escaped.
func TestCompactJSON(t *testing.T) {
	t.Parallel()
	if got := compactJSON(map[string]any{"b": "<i>&</i>", "a": []any{1.5, nil}}); got != `{"a":[1.5,null],"b":"<i>&</i>"}` {
		t.Errorf("compactJSON: %s", got)
	}
}

// A prompt's reply is diffed as text of its own, under "## reply".
func TestDiffReply(t *testing.T) {
	t.Parallel()
	data, _ := os.ReadFile(filepath.Join(shipped, "dialog.ipynb"))
	b := replaceOnce(t, data, `"The answer is **2**."`, `"The answer is **two**."`)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), b, 0o644)
	r := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb")
	want := "## prompt 5f1e2d3c (cell 3): changed reply\n ## reply\n@@ -1 +1 @@\n-The answer is **2**.\n+The answer is **two**.\n"
	if r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("exit %d:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
}

// realIDs finds ids as "id" members whatever the spacing, and nothing
// else.
func TestRealIDs(t *testing.T) {
	t.Parallel()
	text := []byte(`{"id":"a1", "x": {"id" :
 "b2"}, "idx": "c3", "y": "id", "z": ["id", "d4"], "n": {"id": 5}, "s": "\"id\": \"e5\""}`)
	got := realIDs([]string{"a1", "b2", "c3", "d4", "e5", "zz", ""}, text)
	want := map[string]bool{"a1": true, "b2": true}
	if !maps.Equal(got, want) {
		t.Errorf("realIDs = %v, want %v", got, want)
	}
}

// BenchmarkRealIDs: one pass over the text however many ids are asked
// about (a search per id took 25 s on a 31 MB notebook).
func BenchmarkRealIDs(b *testing.B) {
	var text bytes.Buffer
	var ids []string
	for i := range 20000 {
		id := fmt.Sprintf("%08x", i)
		ids = append(ids, id)
		fmt.Fprintf(&text, "  {\n   \"cell_type\": \"code\",\n   \"id\": \"%s\",\n   \"source\": [\"x = %d\\n\"]\n  },\n", id, i)
	}
	b.SetBytes(int64(text.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if n := len(realIDs(ids, text.Bytes())); n != len(ids) {
			b.Fatalf("%d ids found", n)
		}
	}
}
