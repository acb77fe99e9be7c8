package nbformat

// The oracles of the attack on the unedited check by blocks
// (attack_snapblocks_test.go), none taken from the snapshot.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
)

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// semantic returns what encoding/json reads from b, numbers as float64
// (so that 1, 1.0 and 1e0 are one value).
func semantic(b []byte) (any, bool) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return attackJoinLines(v), true
}

// attackJoinLines replaces every array of strings in v by their concatenation:
// a multiline string is one value whether written as one string or as
// lines (the notebook's style decides), and other arrays of strings are
// compared the same way on both sides.
func attackJoinLines(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = attackJoinLines(x)
		}
	case []any:
		all := len(v) > 0
		var b strings.Builder
		for i, x := range v {
			s, ok := x.(string)
			all = all && ok
			b.WriteString(s)
			v[i] = attackJoinLines(x)
		}
		if all {
			return b.String()
		}
	}
	return v
}

// firstDiff returns the first place where a and b differ.
func firstDiff(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
		}) {
			if d := firstDiff(path+"/"+k, x[k], y[k]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return path + " (members)"
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path + " (length)"
		}
		for i := range x {
			if d := firstDiff(path+"/"+strconv.Itoa(i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v != %v", path, a, b)
	}
	return ""
}

// inMemory writes nb's Document as a notebook built in memory would be.
func inMemory(nb *Notebook) ([]byte, error) {
	return Marshal(&Notebook{Document: nb.Document})
}

// bypassed writes nb with the encoder, never as the bytes read.
func bypassed(nb *Notebook) ([]byte, error) {
	var out []byte
	err := nb.encode(func(pieces ...[]byte) error {
		out = join(pieces)
		return nil
	}, false)
	return out, err
}

// snapOracles says which oracles built from the Document alone agree
// with the notebook as read (and so are used after its edits): what
// encoding/json reads from Marshal's output (json), the canonical bytes
// (canon), the problems Validate finds (valid).
type snapOracles struct{ json, canon, valid bool }

// attackCanonical returns the canonical bytes of nb, or the error's text.
func attackCanonical(nb *Notebook) string {
	out, err := MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(out)
}

// problemsOf returns the problems Validate finds in nb, as text.
func problemsOf(nb *Notebook) string {
	err := Validate(nb)
	if err == nil {
		return "valid"
	}
	var b strings.Builder
	for _, p := range Problems(err) {
		b.WriteString(p.Error())
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "error: " + err.Error()
	}
	return b.String()
}

func oraclesFor(nb *Notebook, data []byte) snapOracles {
	mem := &Notebook{Document: nb.Document}
	c := attackCanonical(nb)
	return snapOracles{
		json: semanticOK(nb, data),
		// Only for notebooks that have a canonical form: one that has
		// none for a reason the Document does not hold (a member that
		// is not an object, kept as read) may get one once edited.
		canon: !strings.HasPrefix(c, "error: ") && c == attackCanonical(mem),
		valid: problemsOf(nb) == problemsOf(mem),
	}
}

// semanticOK reports whether nb, as read, writes what encoding/json reads
// as the Document written in memory (else the semantic oracle is not
// used for it: an upgraded version 3 notebook, invalid values).
func semanticOK(nb *Notebook, data []byte) bool {
	mem, err := inMemory(nb)
	if err != nil {
		return false
	}
	a, ok1 := semantic(data)
	b, ok2 := semantic(mem)
	return ok1 && ok2 && firstDiff("", a, b) == ""
}

// checkBlockEdit checks nb, read from data and edited (what).
func checkBlockEdit(t testing.TB, what string, nb *Notebook, data []byte, o snapOracles) {
	t.Helper()
	snap, walk := snapSaysUnedited(nb), walkSaysUnedited(nb)
	if snap && !walk {
		t.Errorf("%s: FALSE UNEDITED: the snapshot says unedited, the walk edited", what)
	}
	if bom := nb.dropBOM && nb.src.tape.BOM; nb.Edited() != (!walk || bom) {
		t.Errorf("%s: Edited() = %v, the walk says unedited = %v", what, nb.Edited(), walk)
	}
	if nilVariantError(nb) != nil {
		return
	}
	out, err := Marshal(nb)
	if err != nil {
		return // a cycle or a value that cannot be written (not this test's concern)
	}
	fresh, err := bypassed(nb)
	if err != nil {
		t.Errorf("%s: Marshal succeeds, the encoder fails: %v", what, err)
		return
	}
	if !bytes.Equal(out, fresh) {
		t.Errorf("%s: Marshal (snapshot %v, walk %v) differs from the encoder's output with the unedited path bypassed", what, snap, walk)
	}
	if bytes.Equal(out, data) != walk && !(nb.dropBOM && nb.src.tape.BOM) {
		// The walk says edited but the bytes are the same: allowed (an
		// edit undone in a way the walk sees). The reverse is not.
		if walk {
			t.Errorf("%s: the walk says unedited but Marshal wrote other bytes", what)
		}
	}
	mem := &Notebook{Document: nb.Document}
	if o.canon && attackCanonical(nb) != attackCanonical(mem) {
		t.Errorf("%s: the canonical bytes (snapshot %v, walk %v) are not those of the Document written in memory", what, snap, walk)
	}
	if o.valid {
		if a, b := problemsOf(nb), problemsOf(mem); a != b {
			t.Errorf("%s: Validate (snapshot %v, walk %v) finds %q, in the Document in memory %q", what, snap, walk, a, b)
		}
	}
	if o.json {
		mem, err := inMemory(nb)
		if err != nil {
			return
		}
		a, ok1 := semantic(out)
		b, ok2 := semantic(mem)
		if d := firstDiff("", a, b); !ok1 || !ok2 || d != "" {
			t.Errorf("%s: encoding/json reads Marshal's output (snapshot %v, walk %v) as other values than the Document written in memory, at %s", what, snap, walk, d)
		}
	}
}

// snapBlocksInputs returns notebooks of every version and shape: the
// module's testdata, hand-made ones of versions 3 and 4.0-4.5, the block
// notebooks, and a part of the shared corpus.
func snapBlocksInputs(t *testing.T) map[string][]byte {
	in := testdataNotebooks(t)
	for minor := range 6 {
		in["v4."+strconv.Itoa(minor)] = versionNotebook(minor)
	}
	in["v3-made"] = snapBlocksInputsV3
	in["blocks-6"] = blockNotebook(6)
	in["blocks-40"] = blockNotebook(40)
	n := 0
	for e, data := range corpus.Files(t) {
		if !testtier.Full() && n >= 10 || n >= 50 {
			break
		}
		n++
		in["corpus/"+e.Path] = data
	}
	return in
}

// snapBlocksInputsV3 is a version 3 notebook of a bit of everything.
var snapBlocksInputsV3 = []byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "x", "n": 1.5}, "worksheets": [{"cells": [` +
	`{"cell_type": "code", "collapsed": false, "input": ["a = 1\n", "a"], "language": "python", "metadata": {"tags": ["t"], "k": 2},` +
	` "outputs": [{"output_type": "pyout", "prompt_number": 3, "text": ["1"], "metadata": {}}, {"output_type": "stream", "stream": "stdout", "text": "x"}], "prompt_number": 3},` +
	`{"cell_type": "heading", "level": 2, "metadata": {}, "source": "T"}, {"cell_type": "markdown", "metadata": {}, "source": "m"}], "metadata": {}}]}`)

// versionNotebook returns a notebook of nbformat 4.minor with a bit of
// everything (ids only from 4.5 on).
func versionNotebook(minor int) []byte {
	id := func(s string) string {
		if minor >= 5 {
			return `"id": "` + s + `", `
		}
		return ""
	}
	return []byte(`{"nbformat": 4, "nbformat_minor": ` + strconv.Itoa(minor) + `, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},` +
		` "authors": [{"name": "ann", "x": 1}, {"name": "bob"}], "language_info": {"name": "python", "file_extension": ".py", "codemirror_mode": {"name": "ipython", "version": 3}},` +
		` "custom": {"a": [1, 2.5, {"b": null}], "n": 3, "f": 1.0, "s": "str\u00e9"}, "flag": true}, "cells": [` +
		`{"cell_type": "code", ` + id("c0") + `"execution_count": 4, "metadata": {"tags": ["a", "b"], "collapsed": true, "x": {"y": [1]}, "num": 7},` +
		` "source": ["x = 1\n", "x"], "outputs": [{"output_type": "execute_result", "execution_count": 4, "data": {"text/plain": ["1"], "application/json": {"k": [1, 2]}}, "metadata": {"isolated": true, "w": 2}},` +
		` {"output_type": "stream", "name": "stdout", "text": "out\n"}, {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["tb1", "tb2"]},` +
		` {"output_type": "display_data", "data": {"image/png": "iVBO", "text/plain": "<fig>"}, "metadata": {}}]},` +
		`{"cell_type": "code", ` + id("c1") + `"execution_count": 5, "metadata": {"tags": ["a"], "collapsed": false}, "source": "y = 2", "outputs": [{"output_type": "stream", "name": "stderr", "text": ["e\n"]}]},` +
		`{"cell_type": "markdown", ` + id("m0") + `"metadata": {"k": "v"}, "source": ["# T\n", "text"]},` +
		`{"cell_type": "raw", ` + id("r0") + `"metadata": {"format": "text/plain"}, "source": "raw"},` +
		`{"cell_type": "code", ` + id("c2") + `"execution_count": null, "metadata": {}, "source": "", "outputs": []},` +
		`{"cell_type": "code", ` + id("e0") + `"execution_count": 1, "metadata": {"scrolled": true, "execution": {"iopub.status.busy": "2024-01-01T00:00:00Z"}}, "source": "", "outputs": [{"output_type": "mystery", "k": [1, 2]}]},` +
		`{"cell_type": "markdown", ` + id("a0") + `"metadata": {}, "source": "![a](attachment:a.png)", "attachments": {"a.png": {"image/png": "iVBORw0K"}}},` +
		`{"cell_type": "future", "x": {"y": [1]}}]}` + "\n")
}
