package nbimpl_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
	"github.com/nbdialog/ipynb/schema"
)

// Importing nbformat sets every function (they are nbformat's own).
func TestSetByNbformat(t *testing.T) {
	if nbimpl.ReadAll == nil || nbimpl.UnmarshalOwned == nil ||
		nbimpl.CloneCell == nil || nbimpl.Heal == nil {
		t.Fatal("a function is not set")
	}
}

// The version written for new notebooks is the newest schema's.
func TestVersion(t *testing.T) {
	if _, future, err := schema.File(nbimpl.MajorVersion, nbimpl.MinorVersion); err != nil || future {
		t.Errorf("MinorVersion %d has no schema of its own: %v", nbimpl.MinorVersion, err)
	}
	if _, future, _ := schema.File(nbimpl.MajorVersion, nbimpl.MinorVersion+1); !future {
		t.Errorf("MinorVersion %d is not the newest schema's", nbimpl.MinorVersion)
	}
	nb := nbformat.New()
	if nb.Nbformat != nbimpl.MajorVersion || nb.NbformatMinor != nbimpl.MinorVersion {
		t.Errorf("New() is %d.%d", nb.Nbformat, nb.NbformatMinor)
	}
}

// The constants are the limits nbformat applies when an UnmarshalOptions
// field is 0: a notebook at a limit reads, one past it is refused.
func TestDefaultLimits(t *testing.T) {
	cells := func(n int) []byte {
		return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` +
			strings.TrimSuffix(strings.Repeat("{},", n), ",") + `]}`)
	}
	deep := func(n int) []byte { // n nested arrays inside the metadata object (depth n+2)
		return []byte(`{"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {"x": ` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`)
	}
	for _, tc := range []struct {
		name     string
		at, past []byte
	}{
		{"MaxCells", cells(nbimpl.DefaultMaxCells), cells(nbimpl.DefaultMaxCells + 1)},
		{"MaxDepth", deep(nbimpl.DefaultMaxDepth - 2), deep(nbimpl.DefaultMaxDepth - 1)},
	} {
		if _, err := nbformat.Unmarshal(tc.at); err != nil {
			t.Errorf("%s: at the limit: %v", tc.name, err)
		}
		if _, err := nbformat.Unmarshal(tc.past); !errors.Is(err, nbformat.ErrLimit) {
			t.Errorf("%s: past the limit: %v, want ErrLimit", tc.name, err)
		}
	}
}

// UnmarshalOwned keeps the caller's bytes (no copy): an unedited notebook
// is written from them.
func TestUnmarshalOwned(t *testing.T) {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`)
	v, err := nbimpl.UnmarshalOwned(data)
	if err != nil {
		t.Fatal(err)
	}
	nb := v.(*nbformat.Notebook)
	out, err := nbformat.Marshal(nb)
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("Marshal: %q, %v", out, err)
	}
	if _, err := nbimpl.UnmarshalOwned([]byte("[]")); err == nil {
		t.Error("a JSON array read as a notebook")
	}
}

// Heal's options: ids from NewID, and a byte-order mark kept.
func TestHeal(t *testing.T) {
	data := []byte("\xef\xbb\xbf" + `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": ""}]}`)
	for _, keep := range []bool{false, true} {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{"not valid!", "given1"}
		r, err := nbimpl.Heal(nb, nbimpl.HealOptions{KeepBOM: keep, NewID: func() string { id := ids[0]; ids = ids[1:]; return id }})
		if err != nil {
			t.Fatal(err)
		}
		repairs := r.([]nbformat.Repair)
		if got := nbformat.CellIDOf(nb.Cells[0]); got != "given1" {
			t.Errorf("keep %v: id %q, want given1 (the first valid candidate)", keep, got)
		}
		out, _ := nbformat.Marshal(nb)
		if bom := bytes.HasPrefix(out, []byte("\xef\xbb\xbf")); bom != keep {
			t.Errorf("KeepBOM %v: the output starts with a BOM: %v (repairs %v)", keep, bom, repairs)
		}
	}
	nb, _ := nbformat.Unmarshal(data)
	c := nbimpl.CloneCell(nb.Cells[0]).(nbformat.Cell)
	nbformat.SetCellID(c, "other")
	if nbformat.CellIDOf(nb.Cells[0]) == "other" {
		t.Error("CloneCell shares the cell")
	}
}
