package draft04

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// choicesOf returns every oneOf and anyOf of schema n and below.
func choicesOf(n *node) []*choice {
	var out []*choice
	done := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || done[n] {
			return
		}
		done[n] = true
		for _, c := range []*choice{n.oneOf, n.anyOf} {
			if c != nil {
				out = append(out, c)
			}
		}
		for _, s := range children(n) {
			walk(s)
		}
	}
	walk(n)
	return out
}

// matchSet (the candidates of a oneOf/anyOf as a bit set) counts the
// branches matchEach (each branch's candidate, one by one) counts, for
// every value of the testdata notebooks and of their edits at the
// discriminating members, against every choice of their schema, at
// every limit the validator uses.
func TestMatchSetAsMatchEach(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	compared, sets := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := schemaOf(t, data)
		if s == nil {
			continue
		}
		choices := choicesOf(s.root)
		docs := [][]byte{data}
		for _, e := range edits {
			docs = append(docs, bytes.ReplaceAll(data, []byte(e.old), []byte(e.new)))
		}
		for _, doc := range docs {
			tape, err := jsontree.Parse(doc, jsontree.Limits{})
			if err != nil {
				continue
			}
			for i := range tape.Nodes {
				for _, c := range choices {
					if c.byClass == nil {
						t.Fatalf("a choice of %d branches without bit sets", len(c.branches))
					}
					v := validator{t: tape}
					k, strs := v.discriminant(c, i)
					cl := v.classOf(i)
					set := k < 0 || strs != allBranches
					for _, limit := range []int{0, 1} {
						each := v.matchEach(c, i, limit, classBits[cl], k, strs)
						if set {
							got := v.matchSet(c, i, limit, k, strs, c.byClass[cl])
							if got != each {
								t.Fatalf("%s: node %d (%s): matchSet %d, matchEach %d (limit %d)", p, i, tape.Raw(i), got, each, limit)
							}
							sets++
						}
						compared++
					}
				}
			}
		}
	}
	if sets < 1000 {
		t.Errorf("only %d comparisons by sets (%d in all)", sets, compared)
	}
}

// "required" checked off by one mask test (every name a property, the
// object holding them all) reports what checking name by name does:
// objects missing any subset of the required names, with repeated keys,
// escaped keys and members without a property, against schemas whose
// required names all have a property, and one whose names do not.
func TestRequiredByMaskExact(t *testing.T) {
	schemas := []string{
		`{"properties": {"a": {}, "b": {"type": "integer"}, "cc": {}}, "required": ["a", "b"]}`,
		`{"properties": {"a": {}, "b": {}}, "required": ["b", "z", "a"]}`,
		`{"properties": {"a": {}}, "required": ["a"], "additionalProperties": false}`,
		`{"required": ["a"]}`,
	}
	docs := []string{`{}`, `{"a": 1}`, `{"b": 1}`, `{"a": 1, "b": 2}`, `{"b": 2, "a": 1, "cc": 3}`,
		`{"a": 1, "b": "x"}`, `{"a": 1, "a": 2}`, `{"\u0061": 1, "b": 2}`, `{"z": 1, "a": 1, "b": 1}`,
		`{"x": 1, "b": 2}`, `{"a": 1, "b": 2, "x": 3}`, `[]`, `1`}
	missing := invalidWithoutShortcuts(t, schemas, docs)
	if missing < 20 {
		t.Errorf("only %d invalid cases", missing)
	}
}
