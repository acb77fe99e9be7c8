package nbimpl_test

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Importing nbformat sets every function (they are nbformat's own).
func TestSetByNbformat(t *testing.T) {
	if nbimpl.Heal == nil {
		t.Fatal("a function is not set")
	}
}

// Heal's options: a byte-order mark kept.
func TestHeal(t *testing.T) {
	data := []byte("\xef\xbb\xbf" + `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": ""}]}`)
	for _, keep := range []bool{false, true} {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		r, err := nbimpl.Heal(nb, nbimpl.HealOptions{KeepBOM: keep})
		if err != nil {
			t.Fatal(err)
		}
		repairs := r.([]nbformat.Repair)
		if got := nbformat.CellIDOf(nb.Cells[0]); !got.Valid() {
			t.Errorf("keep %v: id %q, not valid", keep, got)
		}
		out, _ := nbformat.Marshal(nb)
		if bom := bytes.HasPrefix(out, []byte("\xef\xbb\xbf")); bom != keep {
			t.Errorf("KeepBOM %v: the output starts with a BOM: %v (repairs %v)", keep, bom, repairs)
		}
	}
}
