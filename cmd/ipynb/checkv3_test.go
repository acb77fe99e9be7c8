package main

// Tests that check finds every form of conflict merge and fix leave in a
// version 3 notebook, and none once resolved.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// v3Edit returns the shipped version 3 notebook (heading, markdown and
// code cell), re-encoded by encoding/json, with edit applied to its
// cells.
func v3Edit(t *testing.T, edit func(cells []any) []any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shipped, "v3.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb := decodeJSON(t, data)
	ws := nb["worksheets"].([]any)[0].(map[string]any)
	if edit != nil {
		ws["cells"] = edit(ws["cells"].([]any))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pointerValue is the value at a JSON Pointer of data, decoded by
// encoding/json (ok false when the pointer names nothing).
func pointerValue(t *testing.T, data []byte, p string) (any, bool) {
	t.Helper()
	var v any = decodeJSON(t, data)
	for _, tok := range strings.Split(p, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// check finds every form of conflict merge and fix leave in a version 3
// notebook (markers in a cell's input, source or outputs, records in a
// cell's metadata, a deleted and edited cell) at its place in the version
// 3 file: exit 1, status conflict, a pointer of the file naming the
// marked line (or text) or the record, the cell named by its place (the file has
// no ids).
func TestCheckReportsV3Conflicts(t *testing.T) {
	t.Parallel()
	code := func(cells []any) map[string]any { return cells[2].(map[string]any) }
	set := func(f func(cells []any)) func([]any) []any { return func(c []any) []any { f(c); return c } }
	stream := func(text string) []any {
		return []any{map[string]any{"output_type": "stream", "stream": "stdout", "text": []any{text}, "metadata": map[string]any{}}}
	}
	for _, c := range []struct {
		name          string
		ours, theirs  func([]any) []any
		pointer, want string
		marked        bool // the pointer's value holds a marker line (else it is a record)
	}{
		{"input", set(func(c []any) { code(c)["input"] = []any{"print(2)\n", "1"} }), set(func(c []any) { code(c)["input"] = []any{"print(3)\n", "1"} }),
			"/worksheets/0/cells/2/input/0", "cell 3: conflict markers in its source", true},
		{"outputs", set(func(c []any) { code(c)["outputs"] = stream("ours\n") }), set(func(c []any) { code(c)["outputs"] = stream("theirs\n") }),
			"/worksheets/0/cells/2/outputs/0/text", "cell 3: conflict marker outputs", true},
		{"prompt number", set(func(c []any) { code(c)["prompt_number"] = 5 }), set(func(c []any) { code(c)["prompt_number"] = 7 }),
			"/worksheets/0/cells/2/metadata/ipynb_conflicts/0", "cell 3: conflict recorded: execution count", false},
		{"metadata", set(func(c []any) { c[1].(map[string]any)["metadata"] = map[string]any{"a": 1} }),
			set(func(c []any) { c[1].(map[string]any)["metadata"] = map[string]any{"a": 2} }),
			"/worksheets/0/cells/1/metadata/ipynb_conflicts/0", "cell 2: conflict recorded: metadata key a", false},
		{"deleted and edited", set(func(c []any) { c[1].(map[string]any)["source"] = []any{"Some *text*, edited"} }),
			func(c []any) []any { return append(c[:1:1], c[2:]...) },
			"/worksheets/0/cells/1/source/0", "cell 2: conflict markers in its source (<<<<<<< ours (edited this cell)", true},
	} {
		dir := t.TempDir()
		for name, data := range map[string][]byte{"base.ipynb": v3Edit(t, nil), "nb.ipynb": v3Edit(t, c.ours), "theirs.ipynb": v3Edit(t, c.theirs)} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if r := ipynb(t, dir, "", "merge", "base.ipynb", "nb.ipynb", "theirs.ipynb"); r.code != 1 {
			t.Errorf("%s: merge exit %d: %s", c.name, r.code, r.stderr)
			continue
		}
		got, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
		validV3(t, got)
		r := ipynb(t, dir, "", "check", "nb.ipynb")
		if r.code != 1 || !strings.HasPrefix(r.stdout, "conflict nb.ipynb (") || !strings.Contains(r.stdout, ": "+c.pointer+": conflict: "+c.want) {
			t.Errorf("%s: check exit %d, want 1 and %s: %s:\n%s%s", c.name, r.code, c.pointer, c.want, r.stdout, r.stderr)
			continue
		}
		v, ok := pointerValue(t, got, c.pointer)
		if !ok {
			t.Errorf("%s: %s names nothing in the file", c.name, c.pointer)
			continue
		}
		text := fmt.Sprint(v)
		if c.marked && !strings.Contains(text, "<<<<<<< ") {
			t.Errorf("%s: %s holds no marker: %s", c.name, c.pointer, text)
		}
		if rec, isRec := v.(map[string]any); !c.marked && (!isRec || rec["pointer"] == nil) {
			t.Errorf("%s: %s is no record: %s", c.name, c.pointer, text)
		}
	}
}

// check of a version 3 notebook repaired by fix (git's markers, merge
// style), and of one resolved, its markers and records gone: conflict
// (exit 1), then same.
func TestCheckV3AfterFix(t *testing.T) {
	t.Parallel()
	base, ours, theirs := v3Sides(t, true)
	dir := mergeFiles(t, base, ours, theirs)
	if _, st := gitStatusIn(t, dir, "merge-file", "ours.ipynb", "base.ipynb", "theirs.ipynb"); st != 1 {
		t.Fatalf("git merge-file: exit %d", st)
	}
	if r := ipynb(t, dir, "", "fix", "ours.ipynb"); r.code != 1 {
		t.Fatalf("fix: %+v", r)
	}
	if r := ipynb(t, dir, "", "check", "ours.ipynb"); r.code != 1 || !strings.Contains(r.stdout, ": /worksheets/0/cells/2/input/0: conflict: cell 3: conflict markers in its source") {
		t.Errorf("check after fix: %+v", r)
	}
	if err := os.WriteFile(filepath.Join(dir, "ours.ipynb"), ours, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := ipynb(t, dir, "", "check", "ours.ipynb"); r.code != 0 || !strings.HasPrefix(r.stdout, "same ours.ipynb\n") {
		t.Errorf("check of the resolved file: %+v", r)
	}
}
