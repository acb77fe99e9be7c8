package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A version 3 file whose conflict has no base section (git's merge
// style): fix merges two-way, from an empty base, so the signature that
// theirs' notebook metadata has and ours' has not is theirs' addition and
// is kept (the upgrade the cells are merged as drops name and signature:
// it was lost; seed 26005650 of the fix path, where git's base section
// did not read).
func TestFixTwoWayV3KeepsTheirsSignature(t *testing.T) {
	const marked = `{
<<<<<<< ours
 "metadata": {
  "name": ""
 },
=======
 "metadata": {
  "name": "",
  "signature": "sha256:787297c0"
 },
>>>>>>> theirs
 "nbformat": 3,
 "nbformat_minor": 0,
 "worksheets": [
  {
   "cells": [
    {
     "cell_type": "code",
     "collapsed": false,
     "input": [
      "x = 1"
     ],
     "language": "python",
     "metadata": {},
     "outputs": []
    }
   ],
   "metadata": {}
  }
 ]
}
`
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(p, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, dir, "", "fix", p)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	nb := decoded(t, p)
	meta := nb["metadata"].(map[string]any)
	if meta["signature"] != "sha256:787297c0" || meta["name"] != "" || nb["nbformat"] != 3.0 {
		t.Errorf("metadata %v (nbformat %v), want theirs' signature and the name both have, version 3", meta, nb["nbformat"])
	}
}
