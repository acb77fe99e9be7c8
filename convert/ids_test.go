package convert_test

// Tests that ids of an older file's cells survive an edit, and that a byte-
// order mark comes back through a dialog.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// An nbformat 4.4 file whose cells carry ids (as Colab and nbdev write
// them) keeps every id through an edit: the edited and new cells are
// written with their messages' ids, and the file becomes 4.5 (the repair
// that loses nothing), as reading it back with encoding/json shows.
func TestEditKeepsIDsOfOlderFile(t *testing.T) {
	t.Parallel()
	src := `{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "51ef017d", "metadata": {}, "source": "# Title"},
 {"cell_type": "code", "id": "b149a6fa", "metadata": {}, "source": "x = 1", "outputs": [], "execution_count": null}]}`
	d, err := convert.Unmarshal([]byte(src), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[1].Content = "x = 2"
	if _, err := d.Make(dialog.Note, "added", dialog.MakeOptions{ID: "c0ffee00"}); err != nil {
		t.Fatal(err)
	}
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Minor int `json:"nbformat_minor"`
		Cells []struct {
			ID     string `json:"id"`
			Source any    `json:"source"`
		}
	}
	if err := json.Unmarshal(out, &nb); err != nil {
		t.Fatal(err)
	}
	if nb.Minor != 5 || len(nb.Cells) != 3 {
		t.Fatalf("minor %d, %d cells:\n%s", nb.Minor, len(nb.Cells), out)
	}
	for i, want := range []string{"51ef017d", "b149a6fa", "c0ffee00"} {
		if nb.Cells[i].ID != want {
			t.Errorf("cell %d: id %q, want %q\n%s", i, nb.Cells[i].ID, want, out)
		}
	}
}

// A notebook that starts with a UTF-8 byte-order mark comes back through a
// dialog exactly as it went in, mark included (contract 4); an edit
// changes only the edited cell's bytes, and the mark stays.
func TestDialogKeepsBOM(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	data := append([]byte("\xef\xbb\xbf"), src...)
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Error("unedited round trip changed the file")
	}
	d.Messages[0].Content += "!"
	out, err = convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("\xef\xbb\xbf{")) {
		t.Errorf("the edit dropped the mark: %.20q", out)
	}
}
