package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Colab writes nbformat 4.0 with cell ids: fmt (both layouts) keeps the
// ids, raising the version to 4.5 and giving an id to the cell lacking one
// (it used to remove every id), and the result checks.
func TestFmtColabIDs(t *testing.T) {
	t.Parallel()
	in := `{
  "nbformat": 4,
  "nbformat_minor": 0,
  "metadata": {"colab": {"provenance": []}, "kernelspec": {"name": "python3", "display_name": "Python 3"}},
  "cells": [
    {"cell_type": "code", "source": ["print(1)"], "metadata": {"id": "abcDEF12"}, "execution_count": null, "outputs": [], "id": "abcDEF12"},
    {"cell_type": "markdown", "source": ["x"], "metadata": {}}
  ]
}
`
	for _, mode := range [][]string{nil, {"--keep-style"}} {
		dir := t.TempDir()
		path := filepath.Join(dir, "colab.ipynb")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"fmt", "-v"}, mode...), "colab.ipynb")
		r := ipynb(t, dir, "", args...)
		if r.code != 0 || !strings.Contains(r.stderr, "raised nbformat_minor from 0 to 5") || strings.Contains(r.stderr, "removed an id") {
			t.Errorf("fmt %v: %+v", mode, r)
		}
		out, _ := os.ReadFile(path)
		for _, w := range []string{`"nbformat_minor": 5`, `"id": "abcDEF12"`} {
			if !bytes.Contains(out, []byte(w)) {
				t.Errorf("fmt %v: output lacks %s:\n%s", mode, w, out)
			}
		}
		if bytes.Count(out, []byte(`"id": `)) != 3 { // two cell ids and Colab's metadata id
			t.Errorf("fmt %v: not every cell has an id:\n%s", mode, out)
		}
		if r := ipynb(t, dir, "", "check", "colab.ipynb"); r.code != 0 {
			t.Errorf("fmt %v: result does not check: %+v", mode, r)
		}
	}
}
