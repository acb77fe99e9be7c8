package nbformat_test

// A fuzz test of Heal's contract: the notebook validates, a second heal changes
// nothing, content is kept.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzHeal checks Heal's contract on any input that reads as nbformat 4:
// it succeeds and the notebook validates (also after writing and reading
// it back); healing again changes nothing (same bytes, no repairs); the
// same input heals to the same bytes; and every string and number with a
// valid place is kept (missingContent). Other versions are refused with
// ErrUnsupportedVersion. Seeds: testdata notebooks, the problems of issue
// 9, testdata/fuzz/FuzzHeal.
func FuzzHeal(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		nb45(`{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": "stream", "name": "stdout", "text": "t", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}]}`),
		nb45(`{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "", "attachments": {"a.png": {"image/png": ["iVBO", "AAAA"]}, "b.png": 5}}`),
		nb45(`{"cell_type": "code", "metadata": {"tags": ["a", "a,b"]}, "source": 1, "execution_count": "3", "outputs": [{"output_type": "unknown", "data": {"text/plain": 42, "text/html": ["a", 1]}, "execution_count": 3}, {"output_type": "error", "traceback": "T"}]}`),
		nb45(`{"cell_type": "Code", "source": "x", "outputs": [], "execution_count": 1}, {"cell_type": "heading", "level": 2, "source": "H"}, 5, "text", null`),
		`{"nbformat": 4, "nbformat_minor": 0, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": "", "id": "colab1"}, {"cell_type": "raw", "metadata": {}, "source": ""}]}`,
		`{"nbformat": 4, "nbformat_minor": "5", "metadata": [], "cells": {}, "x": 1}`,
		`{"cell_type": "raw", "id": "a b", "metadata": {"jupyter": {"source_hidden": 1}}, "source": ["a", 1], "attachments": []}`,
		`{"output_type": "execute_result", "data": "x", "metadata": 1, "execution_count": 1.5}, {"output_type": "stream", "name": 1, "text": ["a", null]}`,
		`{"output_type": "pyout", "prompt_number": 2, "data": {"text/plain": "2"}}, {"output_type": "display_data"}, 3`,
		`{"output_type": "Stream", "metadata": {}, "data": {"text/plain": "fig", "image/png": "iVBO"}}, {"output_type": "stream", "name": "stdout", "text": "t", "execution_count": 1}, {"output_type": "display_data", "metadata": {}, "data": {}, "traceback": ["t"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The input as a notebook, as its cells, and as one cell's outputs
		// (most mutations of a notebook are no longer notebooks).
		checkHeal(t, data)
		checkHeal(t, []byte(nb45(string(data))))
		checkHeal(t, []byte(nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": null, "outputs": [`+string(data)+`]}`)))
	})
}

func checkHeal(t *testing.T, data []byte) {
	nb, err := nbformat.UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
	if err != nil {
		return
	}
	if nb.Nbformat != 4 {
		if _, err := nbformat.Heal(nb); !errors.Is(err, nbformat.ErrUnsupportedVersion) {
			t.Fatalf("Heal of nbformat %d: %v", nb.Nbformat, err)
		}
		return
	}
	out := healBytes(t, data)
	back, err := nbformat.Unmarshal(out)
	if err != nil {
		t.Fatalf("healed output does not parse: %v\n%s", err, out)
	}
	if err := nbformat.Validate(back); err != nil {
		t.Fatalf("healed output invalid: %v\n%s", err, out)
	}
	repairs, err := healWith(back, counterIDs())
	if err != nil || len(repairs) > 0 {
		t.Fatalf("second heal: %v %v\n%s", repairs, err, out)
	}
	if again, _ := nbformat.Marshal(back); !bytes.Equal(again, out) {
		t.Fatalf("second heal changed the bytes %s", firstDiff(out, again))
	}
	if out2 := healBytes(t, data); !bytes.Equal(out2, out) {
		t.Fatalf("same input healed to other bytes %s", firstDiff(out, out2))
	}
	if !json.Valid(data) {
		return // NaN and Infinity: encoding/json cannot check content
	}
	missing, err := missingContent(data, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("content lost: %q\nin:  %s\nout: %s", missing, data, out)
	}
}
