package nbformat_test

// Tests of json.Marshal and json.Unmarshal of notebooks, texts and bundles: the
// file's values, and wrong kinds refused.

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestJSONMarshalNotebooksTextsBundles: on every version 4 notebook of the
// corpus sample, json.Marshal of the notebook is, as a JSON value, the
// file itself (notebook metadata's unnamed members and all), and
// json.Unmarshal of the file into a Notebook writes the file back byte for
// byte (but for the whitespace after the notebook's object, which
// encoding/json does not pass on); json.Marshal of each cell's source and each output's data is the
// value of the file's "source" and "data" member, and unmarshals into a
// value holding the same text (the same JSON). The reference is the file,
// decoded by encoding/json.
func TestJSONMarshalNotebooksTextsBundles(t *testing.T) {
	t.Parallel()
	for e, data := range corpus.Sample(t) {
		if !testtier.Full() && len(data) > 512<<10 {
			continue // encoding/json's reflection over megabytes; every file in the long tier
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			continue
		}
		file := jsonValue(t, data)
		got, err := json.Marshal(nb)
		if err != nil {
			t.Fatalf("%s: json.Marshal(nb): %v", e.Path, err)
		}
		if d := cmp.Diff(file, jsonValue(t, got)); d != "" {
			t.Errorf("%s: json.Marshal(nb) differs from the file (-file +json):\n%s", e.Path, d)
		}
		var back nbformat.Notebook
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: json.Unmarshal into a Notebook: %v", e.Path, err)
		}
		if out, err := nbformat.Marshal(&back); err != nil || !bytes.Equal(bytes.TrimRight(out, " \t\r\n"), bytes.TrimRight(data, " \t\r\n")) {
			t.Errorf("%s: a Notebook read by json.Unmarshal does not write the file back (%v)", e.Path, err)
		}
		cells, _ := file.(map[string]any)["cells"].([]any)
		for i, c := range nb.Cells {
			fc, _ := cells[i].(map[string]any)
			var src nbformat.MultilineString
			switch c := c.(type) {
			case *nbformat.CodeCell:
				src = c.Source
				fouts, _ := fc["outputs"].([]any)
				for j, o := range c.Outputs {
					fo, _ := fouts[j].(map[string]any)
					var data nbformat.MimeBundle
					switch o := o.(type) {
					case *nbformat.DisplayData:
						data = o.Data
					case *nbformat.ExecuteResult:
						data = o.Data
					default:
						continue
					}
					if want, ok := fo["data"].(map[string]any); ok { // (a value of another kind is in AdditionalProperties)
						checkValueJSON(t, e.Path, data, want, unmarshalAs[nbformat.MimeBundle])
					}
				}
			case *nbformat.MarkdownCell:
				src = c.Source
			case *nbformat.RawCell:
				src = c.Source
			default:
				continue
			}
			if want, ok := fc["source"]; ok && isText(want) { // (a value of another kind is in AdditionalProperties)
				checkValueJSON(t, e.Path, src, want, unmarshalAs[nbformat.MultilineString])
			}
		}
	}
}

// unmarshalAs reads b into a new T with encoding/json.
func unmarshalAs[T any](b []byte) (any, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// checkValueJSON checks json.Marshal(v) against want, the file's value,
// and that what read reads from it marshals the same.
func checkValueJSON(t *testing.T, path string, v, want any, read func([]byte) (any, error)) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Errorf("%s: json.Marshal(%T): %v", path, v, err)
		return
	}
	if d := cmp.Diff(want, jsonValue(t, got)); d != "" {
		t.Errorf("%s: json.Marshal(%T) differs from the file (-file +json):\n%s", path, v, d)
		return
	}
	back, err := read(got)
	if err != nil {
		t.Errorf("%s: json.Unmarshal into %T: %v", path, v, err)
		return
	}
	again, err := json.Marshal(back)
	if err != nil || !bytes.Equal(again, got) {
		t.Errorf("%s: %T marshalled, unmarshalled and marshalled: %s, first %s (%v)", path, v, again, got, err)
	}
}

// Texts and bundles built in memory marshal as a new notebook writes them
// (text split into lines as Python's nbformat splits them, text data
// too); values of the
// wrong kind are refused, naming the value, and JSON null leaves the value
// as it was (encoding/json's convention).
func TestJSONUnmarshalTextsBundlesRefused(t *testing.T) {
	t.Parallel()
	got, err := json.Marshal(struct {
		T nbformat.MultilineString
		B nbformat.MimeBundle
	}{nbformat.Text("a\nb\r\nc"), nbformat.NewMimeBundle("text/plain", "x")})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"T":["a\n","b\r\n","c"],"B":{"text/plain":["x"]}}`; string(got) != want {
		t.Errorf("json.Marshal: %s, want %s", got, want)
	}
	for _, in := range []string{`1`, `{"a":1}`, `["a",1]`, `true`} {
		m := nbformat.Text("kept")
		err := json.Unmarshal([]byte(in), &m)
		if err == nil || !strings.Contains(err.Error(), "nbformat: reading a text: "+in) || m.String() != "kept" {
			t.Errorf("a text from %s: %v, value %q; want a refusal naming it, the value kept", in, err, m.String())
		}
	}
	for _, in := range []string{`"x"`, `[]`, `1`} {
		m := nbformat.NewMimeBundle("text/plain", "kept")
		err := json.Unmarshal([]byte(in), &m)
		if err == nil || !strings.Contains(err.Error(), "nbformat: reading a MIME bundle") || strings.Join(m.Keys(), " ") != "text/plain" {
			t.Errorf("a bundle from %s: %v, keys %v; want a refusal, the value kept", in, err, m.Keys())
		}
	}
	var v struct {
		T  nbformat.MultilineString
		B  nbformat.MimeBundle
		NB nbformat.Notebook
	}
	v.T, v.B = nbformat.Text("kept"), nbformat.NewMimeBundle("text/plain", "kept")
	v.NB.Nbformat = 4
	if err := json.Unmarshal([]byte(`{"T": null, "B": null, "NB": null}`), &v); err != nil || v.T.String() != "kept" || len(v.B.Keys()) != 1 || v.NB.Nbformat != 4 {
		t.Errorf("null: %v, %q %v %d; want the values left as they were", err, v.T.String(), v.B.Keys(), v.NB.Nbformat)
	}
	var nb nbformat.Notebook
	if err := json.Unmarshal([]byte(`{"cells": 1}`), &nb); err == nil {
		t.Error("a notebook whose cells are a number: no error")
	}
}
