package main

// diff --json of metadata values encoding/json cannot write.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diff --json writes a changed metadata value that is NaN or Infinity
// as the notebook spells it (it printed nothing, exit 1: the encoder's
// error was ignored), in notebook and cell metadata; the rest of the
// output is as encoding/json indents it.
func TestDiffJSONWritesNaN(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(meta, cellMeta string) string {
		return `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": ` + cellMeta +
			`, "outputs": [], "source": "x"}], "metadata": ` + meta + `, "nbformat": 4, "nbformat_minor": 5}`
	}
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(nb(`{"k": NaN, "s": "<a>"}`, `{"v": [1, NaN]}`)), 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(nb(`{"k": -Infinity, "s": "<b>"}`, `{"v": Infinity}`)), 0o644)
	r := ipynb(t, dir, "", "diff", "--json", "a.ipynb", "b.ipynb")
	if r.code != 1 || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	// As Python's json reads them: the tokens, outside strings.
	text := r.stdout
	for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
		text = strings.ReplaceAll(text, tok, `"`+strings.ToLower(tok)+`"`)
	}
	text = strings.ReplaceAll(text, `"-"infinity""`, `"-infinity"`)
	var got struct {
		Changes []struct {
			Kind     string         `json:"kind"`
			Metadata map[string]any `json:"metadata"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	want := map[string]map[string]any{
		"notebook metadata": {"k": []any{"nan", "-infinity"}, "s": []any{"<a>", "<b>"}},
		"changed":           {"v": []any{[]any{1.0, "nan"}, "infinity"}},
	}
	for _, c := range got.Changes {
		if w, ok := want[c.Kind]; !ok || !cmp.Equal(c.Metadata, w) {
			t.Errorf("%s: %s\n%s", c.Kind, cmp.Diff(w, c.Metadata), r.stdout)
		}
		delete(want, c.Kind)
	}
	if len(want) > 0 {
		t.Errorf("missing %v\n%s", want, r.stdout)
	}
}

// indentJSON indents as json.Indent with two spaces.
func TestIndentJSONAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{`{"a":[],"b":{},"c":[1,{"d":"x,\"}y:"}],"e":null}`, `[]`, `"s"`, `[[],[{}]]`} {
		var want bytes.Buffer
		json.Indent(&want, []byte(s), "", "  ")
		want.WriteByte('\n')
		if got := indentJSON(nil, []byte(s)); string(got) != want.String() {
			t.Errorf("%s:\n%s\nwant\n%s", s, got, want.String())
		}
	}
}
