package nbformat_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// TestEditCommaFirstLayout edits notebooks whose separators put the comma
// at the start of a line ("\n," or "\n  , "), around members that are
// empty or replaced, where new content is written on new lines indented
// like the line it continues. The output must be JSON (the comma of a
// comma-first separator is not indentation), hold the edit, and keep the
// other cells' bytes.
func TestEditCommaFirstLayout(t *testing.T) {
	t.Parallel()
	type edit func(t *testing.T, nb *nbformat.Notebook)
	setSource := func(t *testing.T, nb *nbformat.Notebook) {
		s := nbformat.SourceOf(nb.Cells[0])
		s.Set("edited\nline 2\n")
		nb.Cells[0] = &nbformat.MarkdownCell{Source: s}
	}
	addOutput := func(t *testing.T, nb *nbformat.Notebook) {
		c, ok := nb.Cells[0].(*nbformat.CodeCell)
		if !ok {
			t.Fatalf("cell 0 is %T", nb.Cells[0])
		}
		c.Outputs = append(c.Outputs, nbformat.NewStream("stdout", "out\nmore\n"))
	}
	setMeta := func(t *testing.T, nb *nbformat.Notebook) {
		c, ok := nb.Cells[0].(*nbformat.CodeCell)
		if !ok {
			t.Fatalf("cell 0 is %T", nb.Cells[0])
		}
		if c.Metadata.AdditionalProperties == nil {
			c.Metadata.AdditionalProperties = map[string]any{}
		}
		c.Metadata.AdditionalProperties["k"] = map[string]any{"a": []any{1.0, "x"}, "b": map[string]any{}}
	}
	for _, tc := range []struct {
		name string
		in   string
		edit edit
		want string // the edited first cell, as encoding/json reads it
	}{
		{"issue repro", "{\n \"cells\": [   {    \"cell_type\": \"markdown\",    \"x\": 1\n,\"source\":[]}],\"nbformat\":4}",
			setSource, `{"cell_type":"markdown","metadata":{},"source":"edited\nline 2\n"}`},
		{"indented comma", "{\n  \"cells\": [\n    {\n      \"cell_type\": \"markdown\"\n      , \"metadata\": {}\n      , \"source\": []\n    }\n    , {\"cell_type\": \"raw\", \"metadata\": {}, \"source\": \"keep\"}\n  ]\n  , \"metadata\": {}\n  , \"nbformat\": 4\n  , \"nbformat_minor\": 4\n}\n",
			setSource, `{"cell_type":"markdown","metadata":{},"source":"edited\nline 2\n"}`},
		{"tab and CRLF", "{\r\n\t\"cells\": [\r\n\t\t{\r\n\t\t\t\"cell_type\": \"markdown\"\r\n\t\t\t,\t\"metadata\": {}\r\n\t\t\t,\t\"source\": []\r\n\t\t}\r\n\t]\r\n\t,\t\"metadata\": {}\r\n\t,\t\"nbformat\": 4\r\n\t,\t\"nbformat_minor\": 4\r\n}\r\n",
			setSource, `{"cell_type":"markdown","metadata":{},"source":"edited\nline 2\n"}`},
		{"empty outputs", "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\"\n  ,\"execution_count\": null\n  ,\"metadata\": {}\n  ,\"outputs\": []\n  ,\"source\": []\n  }\n ,{\"cell_type\": \"raw\", \"metadata\": {}, \"source\": \"keep\"}\n ]\n,\"metadata\": {}\n,\"nbformat\": 4\n,\"nbformat_minor\": 4\n}\n",
			addOutput, `{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[{"name":"stdout","output_type":"stream","text":"out\nmore\n"}],"source":""}`},
		{"empty metadata", "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\"\n   , \"execution_count\": 1\n   , \"metadata\": {}\n   , \"outputs\": []\n   , \"source\": \"x\"\n  }\n ]\n , \"metadata\": {}\n , \"nbformat\": 4\n , \"nbformat_minor\": 4\n}\n",
			setMeta, `{"cell_type":"code","execution_count":1,"metadata":{"k":{"a":[1,"x"],"b":{}}},"outputs":[],"source":"x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := nbformat.Unmarshal([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(t, nb)
			out, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(out) {
				t.Fatalf("output is not JSON:\n%s", out)
			}
			inCells, outCells := rawCells(t, []byte(tc.in)), rawCells(t, out)
			if len(inCells) != len(outCells) {
				t.Fatalf("%d cells written, want %d:\n%s", len(outCells), len(inCells), out)
			}
			if got, want := joinedJSON(t, outCells[0]), joinedJSON(t, []byte(tc.want)); got != want {
				t.Errorf("edited cell reads\n%s\nwant\n%s", got, want)
			}
			for i := 1; i < len(inCells); i++ {
				if !bytes.Equal(inCells[i], outCells[i]) {
					t.Errorf("unedited cell %d changed: %s → %s", i, inCells[i], outCells[i])
				}
			}
			// New lines are indented by whitespace only.
			for _, line := range strings.Split(string(out), "\n") {
				if trimmed := strings.TrimLeft(line, " \t"); strings.HasPrefix(trimmed, ",") && strings.TrimSpace(strings.TrimPrefix(trimmed, ",")) == "" {
					t.Errorf("a line holds only a comma:\n%s", out)
				}
			}
		})
	}
}

// rawCells returns the bytes of each element of the notebook's cells, as
// encoding/json delimits them.
func rawCells(t *testing.T, data []byte) []json.RawMessage {
	t.Helper()
	var doc struct {
		Cells []json.RawMessage `json:"cells"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	return doc.Cells
}

// joinedJSON returns a cell as encoding/json reads it, re-encoded with
// sorted keys, its source (and stream text) joined into one string.
func joinedJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v:\n%s", err, raw)
	}
	v = joinMultiline(v, "")
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// joinMultiline returns v (as encoding/json decodes it) with every
// multiline string stored as an array of lines joined into one string:
// source, stream text, and the non-JSON entries of mime bundles. key is
// the member v is the value of.
func joinMultiline(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, m := range x {
			switch {
			case k == "source" || k == "text":
				out[k] = joinLines(m)
			case key == "data" && !strings.HasSuffix(k, "json"):
				out[k] = joinLines(m)
			default:
				out[k] = joinMultiline(m, k)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = joinMultiline(m, key)
		}
		return out
	}
	return v
}

// joinLines joins an array of strings; anything else is returned as is.
func joinLines(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	var b strings.Builder
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return v
		}
		b.WriteString(s)
	}
	return b.String()
}
