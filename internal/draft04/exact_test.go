package draft04

// Tests that the validator's shortcuts change no verdict and no problem, on
// notebooks, edits of them and fuzzed input.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// The shortcuts (oneOf/anyOf branches skipped by type and discriminating
// member, objects checked in one pass, short string arrays compared
// pairwise for uniqueItems) change nothing: with them and without them
// (exhaustive, which tries every branch and takes every object's general
// path) Validate reports the same problems, with the same pointers,
// keywords and messages, and Valid gives the same verdict.

// sameWithoutShortcuts compares validating doc with and without the
// shortcuts; it returns the number of problems.
func sameWithoutShortcuts(t *testing.T, s *Schema, what string, doc []byte) int {
	t.Helper()
	tape, err := jsontree.Parse(doc, jsontree.Limits{MaxDepth: 200, MaxString: 1 << 24})
	if err != nil {
		return 0
	}
	fast := s.Validate(tape, jsontree.Root)
	slow := s.validate(&validator{t: tape, report: true, exhaustive: true}, jsontree.Root)
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Errorf("%s: with shortcuts\n%v\nwithout\n%v\n(-without +with):\n%s", what, fast, slow, diff)
	}
	valid := s.Valid(tape, jsontree.Root)
	all := validator{t: tape, exhaustive: true}
	if slowValid := all.check(s.root, jsontree.Root); valid != slowValid || valid != (len(fast) == 0) {
		t.Errorf("%s: Valid = %v, without shortcuts %v, Validate found %d problems", what, valid, slowValid, len(fast))
	}
	return len(fast)
}

// edits change a notebook's text where the shortcuts decide: the
// discriminating members, their types, repeated keys, tags.
var edits = []struct{ old, new string }{
	{`"cell_type": "code"`, `"cell_type": "raw"`},
	{`"cell_type": "markdown"`, `"cell_type": "code"`},
	{`"cell_type": "code"`, `"cell_type": "bogus"`},
	{`"cell_type": "code"`, `"cell_type": 1`},
	{`"cell_type": "markdown"`, `"cell_type": null`},
	{`"cell_type": `, `"cell_type": "raw", "cell_type": `},
	{`"cell_type": "markdown"`, `"cell_type": "markdown", "cell_type": "code"`},
	{`"cell_type": `, `"cell\u005ftype": `},
	{`"output_type": "stream"`, `"output_type": "display_data"`},
	{`"output_type": "execute_result"`, `"output_type": "stream"`},
	{`"output_type": "display_data"`, `"output_type": "error"`},
	{`"output_type": `, `"output_type": "widget", "output_type": `},
	{`"output_type": "stream"`, `"output_type": ["stream"]`},
	{`"source": `, `"source": 5, "source": `},
	{`"source": `, `"source": ["a", 1], "x": `},
	{`"metadata": {`, `"metadata": {"tags": ["a", "b", "a", "\u0061"], `},
	{`"metadata": {`, `"metadata": {"tags": ["a", 1, "a"], "name": "", `},
	{`"metadata": {`, `"metadata": {"execution": {"iopub.status.busy": 1, "x\n": 2}, `},
	{`"text/plain": `, `"text/plain": 5, "text/plain": `},
	{`"text/plain": `, `"application/json": {}, "text/plain": `},
	{`"data": {`, `"data": {"text/html": ["a", 2], `},
	{`"id": `, `"id": "a b", "id": `},
	{`"id": "`, `"id": "\u002d`},
	{`"execution_count": `, `"execution_count": -1, "execution_count": `},
	{`{`, `[`},
	{`"cells": [`, `"cells": [1, "x", [], null, `},
}

func TestShortcutsExact(t *testing.T) {
	var paths []string
	testdata, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	paths = append(paths, testdata...)
	if testtier.Full() && corpus.Shared() != "" {
		dir, entries := corpus.Entries(t)
		for _, e := range entries {
			paths = append(paths, filepath.Join(dir, e.Path))
		}
	}
	docs, invalid := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 4<<20 {
			continue
		}
		s := schemaOf(t, data)
		if s == nil {
			continue
		}
		docs++
		sameWithoutShortcuts(t, s, p, data)
		for _, e := range edits {
			for n := 1; n <= 3; n++ {
				// The nth occurrence alone, then all of them.
				i := nthIndex(data, e.old, n)
				if i < 0 {
					break
				}
				doc := append(append(append([]byte(nil), data[:i]...), e.new...), data[i+len(e.old):]...)
				docs++
				if sameWithoutShortcuts(t, s, fmt.Sprintf("%s with %s (%d)", p, e.new, n), doc) > 0 {
					invalid++
				}
			}
			docs++
			sameWithoutShortcuts(t, s, p+" with every "+e.new, bytes.ReplaceAll(data, []byte(e.old), []byte(e.new)))
		}
	}
	t.Logf("%d documents, %d edited ones invalid", docs, invalid)
	if docs < 300 || invalid < 100 {
		t.Errorf("only %d documents (%d invalid)", docs, invalid)
	}
}

func nthIndex(data []byte, s string, n int) int {
	off := 0
	for k := 1; ; k++ {
		i := bytes.Index(data[off:], []byte(s))
		if i < 0 {
			return -1
		}
		if k == n {
			return off + i
		}
		off += i + len(s)
	}
}

var schemaCache sync.Map // nbformat version → *Schema

// schemaOf returns the schema of the notebook data's version (nil when
// it does not parse or has none).
func schemaOf(tb testing.TB, data []byte) *Schema {
	tape, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: 200})
	if err != nil || tape.Nodes[jsontree.Root].Kind != jsontree.Object {
		return nil
	}
	version := func(key string) string {
		if k := tape.Lookup(jsontree.Root, key); k >= 0 {
			return string(tape.Raw(k))
		}
		return ""
	}
	key := version("nbformat") + "." + version("nbformat_minor")
	if s, ok := schemaCache.Load(key); ok {
		return s.(*Schema)
	}
	s := notebookSchema(tb, tape)
	if s != nil {
		schemaCache.Store(key, s)
	}
	return s
}

// FuzzShortcutsExact: any document, against the schema of its nbformat
// version (the v4.5 one when it names none), validates alike with and
// without the shortcuts.
func FuzzShortcutsExact(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, e := range edits[:8] {
			f.Add(bytes.Replace(data, []byte(e.old), []byte(e.new), 1))
		}
	}
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "cell_type": "raw"}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s := schemaOf(t, doc)
		if s == nil {
			s = schemaOf(t, []byte(`{"nbformat": 4, "nbformat_minor": 5}`))
		}
		sameWithoutShortcuts(t, s, "fuzz input", doc)
	})
}

// A member that chose a oneOf/anyOf branch through its enum is taken as
// valid against that branch's schema for it only where the schema checks
// nothing else of a string: a minLength, pattern or not beside the enum
// is still checked, and escaped or repeated discriminating members are
// looked at as written.
func TestDiscriminantShortcutExact(t *testing.T) {
	schemas := []string{
		`{"oneOf": [{"properties": {"kind": {"enum": ["aa", "b"], "minLength": 2}}, "required": ["kind"]}, {"properties": {"kind": {"enum": ["c"]}}, "required": ["kind"]}]}`,
		`{"anyOf": [{"properties": {"kind": {"enum": ["a", "b"], "pattern": "^a$"}}}, {"properties": {"kind": {"enum": ["c", 1]}}}]}`,
		`{"oneOf": [{"properties": {"kind": {"enum": ["a", "b"], "not": {"enum": ["b"]}}}}, {"properties": {"kind": {"enum": ["b"]}}}]}`,
		`{"oneOf": [{"properties": {"kind": {"enum": ["a"], "type": "integer"}}}, {"properties": {"kind": {"enum": ["b"]}}}]}`,
		`{"oneOf": [{"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "v": {"type": "integer"}}}, {"properties": {"kind": {"enum": ["b"]}, "v": {"type": "string"}}}]}`,
	}
	docs := []string{`{"kind": "aa"}`, `{"kind": "b"}`, `{"kind": "c"}`, `{"kind": "a"}`, `{"kind": 1}`, `{"kind": "\u0062"}`,
		`{"kind": "b", "kind": "a"}`, `{"kind": "b", "v": 1}`, `{"kind": "b", "v": "x"}`, `{}`, `[]`}
	invalid := invalidWithoutShortcuts(t, schemas, docs)
	if invalid < 10 {
		t.Errorf("only %d invalid cases", invalid)
	}
}

// invalidWithoutShortcuts checks every document against every schema with
// and without the validator's shortcuts (sameWithoutShortcuts fails t
// where they differ), and returns how many of the pairs were invalid, for
// the caller to check that its cases reach the shortcuts' failing paths.
func invalidWithoutShortcuts(t *testing.T, schemas, docs []string) int {
	t.Helper()
	invalid := 0
	for _, src := range schemas {
		s, err := Compile([]byte(src), false)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range docs {
			if sameWithoutShortcuts(t, s, src+" on "+doc, []byte(doc)) > 0 {
				invalid++
			}
		}
	}
	return invalid
}
