package nbformat_test

import (
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
	"github.com/nbdialog/ipynb/schema"
)

// TestValidateFixedCost: once a version's schema is compiled, validating
// a small notebook reads no schema file again (reading one copied its
// 12–16 KB on every call, more than the rest of validating a 5 KB notebook
// allocates), for known and future minor versions alike. The least of a
// few calls is judged: a cost paid on every call shows in each, while the
// parser's scratch, pooled, is now and then allocated anew after a
// collection (some 5 KB).
func TestValidateFixedCost(t *testing.T) {
	for _, v := range []struct{ minor int }{{5}, {4}, {0}, {99}} {
		name, _, err := schema.File(4, v.minor)
		if err != nil {
			t.Fatal(err)
		}
		file, err := schema.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": ` + itoa(v.minor) + `, "metadata": {}, "cells": []}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := nbformat.Validate(nb); err != nil {
			t.Fatalf("4.%d: %v", v.minor, err)
		}
		n := allocated(func() { _ = nbformat.Validate(nb) })
		for range 4 {
			n = min(n, allocated(func() { _ = nbformat.Validate(nb) }))
		}
		if n >= uint64(len(file))/4 {
			t.Errorf("4.%d: Validate of an empty notebook allocated %d bytes (the schema file is %d)", v.minor, n, len(file))
		}
	}
}
