package nblimits_test

// Tests that the version and the limits are those nbformat applies.

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
	"github.com/nbdialog/ipynb/schema"
)

// The version written for new notebooks is the newest schema's.
func TestVersion(t *testing.T) {
	if _, future, err := schema.File(nblimits.MajorVersion, nblimits.MinorVersion); err != nil || future {
		t.Errorf("MinorVersion %d has no schema of its own: %v", nblimits.MinorVersion, err)
	}
	if _, future, _ := schema.File(nblimits.MajorVersion, nblimits.MinorVersion+1); !future {
		t.Errorf("MinorVersion %d is not the newest schema's", nblimits.MinorVersion)
	}
	nb := nbformat.New()
	if nb.Nbformat != nblimits.MajorVersion || nb.NbformatMinor != nblimits.MinorVersion {
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
		{"MaxCells", cells(nblimits.DefaultMaxCells), cells(nblimits.DefaultMaxCells + 1)},
		{"MaxDepth", deep(nblimits.DefaultMaxDepth - 2), deep(nblimits.DefaultMaxDepth - 1)},
	} {
		if _, err := nbformat.Unmarshal(tc.at); err != nil {
			t.Errorf("%s: at the limit: %v", tc.name, err)
		}
		if _, err := nbformat.Unmarshal(tc.past); !errors.Is(err, nbformat.ErrLimit) {
			t.Errorf("%s: past the limit: %v, want ErrLimit", tc.name, err)
		}
	}
}
