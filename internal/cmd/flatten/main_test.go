package main

// Tests of flatten: the committed generation schema is what it makes of the
// official one, with what the generator relies on.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const schemaDir = "../../../schema"

// The committed generation schema is exactly what flatten makes of the
// official schema generate.go names (golden test: a change to flatten
// that changes its output must come with the regenerated file).
func TestGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "notebook.schema.json")
	if err := run(filepath.Join(schemaDir, "nbformat.v4.5.schema.json"), out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(schemaDir, "notebook.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("flatten output differs from schema/notebook.schema.json at byte %d: got …%s…, want …%s…",
			i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
	}
	// Running it again over its own output file changes nothing and leaves
	// no temporary file behind.
	if err := run(filepath.Join(schemaDir, "nbformat.v4.5.schema.json"), out); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("%d files in the output folder, want 1", len(entries))
	}
}

// The generation schema has what the generator relies on: the unions
// replaced by handwritten types, no nested misc definitions, no root type.
func TestReshapeContract(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(schemaDir, "notebook.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{`"goJSONSchema"`, `"Cell"`, `"Output"`, `"MultilineString"`, `"MimeBundle"`, `"document"`, `"error_output"`} {
		if !strings.Contains(s, want) {
			t.Errorf("generation schema lacks %s", want)
		}
	}
	if strings.Contains(s, "#/definitions/misc/") {
		t.Error("generation schema still refers to #/definitions/misc/")
	}
	// Type hints: every cell_type, output_type and execution_count member
	// names its Go type and has no enum (go-jsonschema would generate a
	// one-value enum type per variant, CodeCellCellType and so on).
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for def, v := range root["definitions"].(map[string]any) {
		props, _ := v.(map[string]any)["properties"].(map[string]any)
		for name, goType := range map[string]string{"cell_type": "CellType", "output_type": "OutputType", "execution_count": "*int"} {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			seen[name]++
			if hint, _ := p["goJSONSchema"].(map[string]any); hint["type"] != goType {
				t.Errorf("definitions/%s/properties/%s: hint %v, want type %s", def, name, p["goJSONSchema"], goType)
			}
			if _, ok := p["enum"]; ok {
				t.Errorf("definitions/%s/properties/%s keeps its enum", def, name)
			}
		}
	}
	if diff := cmp.Diff(map[string]int{"cell_type": 3, "output_type": 4, "execution_count": 2}, seen); diff != "" {
		t.Errorf("hinted members (-want +got):\n%s", diff)
	}
	// Definitions that would only add a named type become plain Go types.
	for _, def := range []string{"metadata_name", "metadata_tags", "output_metadata", "attachments"} {
		if _, ok := root["definitions"].(map[string]any)[def]; ok {
			t.Errorf("definitions/%s kept (a named Go type)", def)
		}
	}
	for _, hint := range []string{`"type": "string"`, `"type": "[]string"`, `"type": "map[string]any"`, `"type": "map[string]MimeBundle"`} {
		if !strings.Contains(s, hint) {
			t.Errorf("generation schema lacks the hint %s", hint)
		}
	}
}

// Bad input is an error naming the file, and the output is not written.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	bad := map[string]string{"notjson.json": "{", "nodefs.json": `{"type": "object"}`, "clash.json": `{"definitions": {"a": {}, "misc": {"a": {}}}}`}
	for name, content := range bad {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		err := run(in, out)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", name)
		}
	}
	if err := run(filepath.Join(dir, "missing.json"), out); err == nil {
		t.Error("missing input: no error")
	}
	// Never through a symbolic link.
	target := filepath.Join(dir, "target.json")
	os.WriteFile(target, []byte("keep"), 0o644)
	if err := os.Symlink(target, out); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := run(filepath.Join(schemaDir, "nbformat.v4.5.schema.json"), out); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Error("the link's target changed")
	}
}
