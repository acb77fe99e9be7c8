package nbformat_test

// Tests of json.Marshal and json.Unmarshal of cells and outputs: the JSON
// nbformat writes for them in the notebook.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// jsonValue decodes b as encoding/json does, numbers kept as written.
func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v in %.200s", err, b)
	}
	return v
}

// TestJSONMarshalCorpus: json.Marshal of every cell and output of the
// corpus notebooks is, as a JSON value, what nbformat writes for it in the
// notebook, and json.Unmarshal of that into a value of the same type gives
// a value that marshals the same.
func TestJSONMarshalCorpus(t *testing.T) {
	t.Parallel()
	for e, data := range corpus.Sample(t) {
		if !testtier.Full() && len(data) > 512<<10 {
			continue // encoding/json's reflection over megabytes; every file in the long tier
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		var written struct {
			Cells []struct {
				Outputs []json.RawMessage
			}
		}
		var cells struct{ Cells []json.RawMessage }
		if err := json.Unmarshal(out, &written); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if err := json.Unmarshal(out, &cells); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		for i, c := range nb.Cells {
			checkJSON(t, e.Path, c, cells.Cells[i])
			if code, ok := c.(*nbformat.CodeCell); ok {
				for j, o := range code.Outputs {
					checkJSON(t, e.Path, o, written.Cells[i].Outputs[j])
				}
			}
		}
	}
}

// checkJSON checks v (a cell or output, as a pointer) against want, the
// JSON nbformat wrote for it.
func checkJSON(t *testing.T, path string, v any, want []byte) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Errorf("%s: json.Marshal(%T): %v", path, v, err)
		return
	}
	if d := cmp.Diff(jsonValue(t, want), dropFilled(jsonValue(t, want), jsonValue(t, got))); d != "" {
		t.Errorf("%s: json.Marshal(%T) differs from nbformat's (-nbformat +json):\n%s", path, v, d)
		return
	}
	back := reflect.New(reflect.TypeOf(v).Elem())
	if err := json.Unmarshal(got, back.Interface()); err != nil {
		t.Errorf("%s: json.Unmarshal into %T: %v", path, v, err)
		return
	}
	again, err := json.Marshal(back.Interface())
	if err != nil {
		t.Errorf("%s: json.Marshal(%T) after Unmarshal: %v", path, v, err)
		return
	}
	if d := cmp.Diff(jsonValue(t, got), jsonValue(t, again)); d != "" {
		t.Errorf("%s: %T marshalled, unmarshalled and marshalled differs (-first +again):\n%s", path, v, d)
	}
}

// dropFilled removes from got the members want lacks that hold an empty
// value: the required members nbformat writes for a cell that is missing
// them (an invalid file's code cell without "outputs") when the cell is
// written outside the notebook it was read from.
func dropFilled(want, got any) any {
	w, ok1 := want.(map[string]any)
	g, ok2 := got.(map[string]any)
	if !ok1 || !ok2 {
		return got
	}
	for k, v := range g {
		if _, ok := w[k]; ok {
			continue
		}
		switch v := v.(type) {
		case []any:
			if len(v) == 0 {
				delete(g, k)
			}
		case map[string]any:
			if len(v) == 0 {
				delete(g, k)
			}
		case string:
			if v == "" {
				delete(g, k)
			}
		}
	}
	return g
}

// TestJSONMarshalNewCells: cells built in memory marshal with their
// source, attachments and metadata, as values and as pointers, and a
// value of another type is refused when unmarshalled.
func TestJSONMarshalNewCells(t *testing.T) {
	t.Parallel()
	md := nbformat.NewMarkdownCell("# Title\n\nText")
	md.ID = "abc"
	md.Metadata.AdditionalProperties = map[string]any{"tags": json.RawMessage(`["x"]`), "n": 1}
	md.Attachments = map[string]nbformat.MimeBundle{"a.png": nbformat.NewMimeBundle("image/png", "iVBORw==")}
	want := `{"attachments":{"a.png":{"image/png":"iVBORw=="}},"cell_type":"markdown","id":"abc","metadata":{"n":1,"tags":["x"]},"source":["# Title\n","\n","Text"]}`
	for _, v := range []any{md, *md} {
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(jsonValue(t, []byte(want)), jsonValue(t, got)); d != "" {
			t.Errorf("json.Marshal(%T) (-want +got):\n%s", v, d)
		}
	}
	var code nbformat.CodeCell
	err := json.Unmarshal([]byte(want), &code)
	if err == nil || !strings.Contains(err.Error(), `a "markdown" cell is not a code cell`) {
		t.Errorf("unmarshalling a markdown cell into a CodeCell: %v, want a refusal", err)
	}
	var s nbformat.Stream
	if err := json.Unmarshal([]byte(`{"output_type":"stream","name":"stdout","text":["a\n","b"]}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Name != "stdout" || s.Text.String() != "a\nb" {
		t.Errorf("Stream read as %q %q", s.Name, s.Text.String())
	}
	if _, err := json.Marshal(nbformat.UnknownCell{}); err == nil {
		t.Error("json.Marshal of an UnknownCell without Raw: no error")
	}
}

// json.Marshal of the cells of one notebook from several goroutines at
// once, while the notebook itself is written: cells are read, never
// changed, by MarshalJSON (run with -race).
func TestJSONMarshalConcurrent(t *testing.T) {
	t.Parallel()
	data := []byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {"x": [1]},
  "outputs": [{"name": "stdout", "output_type": "stream", "text": ["1\n"]}], "source": ["x = 1\n", "x"]},
 {"cell_type": "markdown", "id": "b", "metadata": {}, "source": "m"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(nb.Cells)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte)
	for range 4 {
		go func() {
			b, _ := json.Marshal(nb.Cells)
			done <- b
		}()
	}
	if out, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(out, data) {
		t.Errorf("the notebook written while its cells marshal: %v\n%s", err, out)
	}
	for range 4 {
		if got := <-done; !bytes.Equal(got, want) {
			t.Errorf("concurrent json.Marshal: %s, want %s", got, want)
		}
	}
}
