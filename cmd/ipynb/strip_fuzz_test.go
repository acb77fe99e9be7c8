package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzStrip: for any input strip accepts, the result is JSON, has no
// output left that the options do not keep (leftovers, the tests' own
// checker), keeps every byte when nothing changed, stays valid when the
// input was a valid nbformat 4 notebook, and stripping it again changes
// nothing. Inputs strip refuses must not panic.
func FuzzStrip(f *testing.F) {
	for _, h := range hostile {
		f.Add([]byte(h.nb), uint8(0))
	}
	for _, h := range refused {
		f.Add([]byte(h.nb), uint8(0))
	}
	for _, dir := range []string{shipped, filepath.Join("testdata", "strip")} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.ipynb"))
		for i, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data, uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		opt := stripOptions{
			keepOutput:     flags&1 != 0,
			keepCount:      flags&2 != 0,
			stripInitCells: flags&4 != 0,
			keys:           strippedKeys,
		}
		rules := checkRules{keepOutput: opt.keepOutput, keepCount: opt.keepCount, stripInitCells: opt.stripInitCells}
		out, changes, err := stripNotebook(data, opt)
		if err != nil {
			return
		}
		left, perr := leftovers(out, rules)
		if perr != nil {
			t.Fatalf("result is not JSON: %v\n%q", perr, out)
		}
		if len(left) > 0 {
			t.Fatalf("outputs left: %v\nin:  %q\nout: %q", left, data, out)
		}
		if len(changes) == 0 && !bytes.Equal(out, data) {
			t.Fatalf("bytes changed with no change reported:\nin:  %q\nout: %q", data, out)
		}
		again, changes2, err := stripNotebook(out, opt)
		if err != nil || !bytes.Equal(again, out) || len(changes2) > 0 {
			t.Fatalf("not idempotent: %v %v\nonce:  %q\ntwice: %q", err, changes2, out, again)
		}
		if nb, err := nbformat.Unmarshal(data); err == nil && nb.Nbformat == 4 && nbformat.Validate(nb) == nil {
			snb, err := nbformat.Unmarshal(out)
			if err != nil {
				t.Fatalf("stripped valid notebook does not read: %v\n%q", err, out)
			}
			if err := nbformat.Validate(snb); err != nil {
				t.Fatalf("stripping a valid notebook made it invalid: %v\nin:  %q\nout: %q", err, data, out)
			}
		}
	})
}
