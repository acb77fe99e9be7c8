package draft04

// Tests of the stack validation takes per level of nesting, through each kind
// of step.

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbtest"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// TestStackPerLevel: validating a document nested 64 levels deep, through
// each kind of step the recursion takes per level (a property, an
// additionalProperties member, an array item, a oneOf or anyOf branch),
// reporting its problems or not, fits in a stack of 64 KiB: under 1 KiB
// per level. The recursion takes 2-3 frames per level (check, then
// onePass, array or checkCombined and matches), kept small: failures are
// explained out of line. (Measured: ~400-500 bytes per level, ~700 when
// explaining a failed oneOf at every level; it was ~1-2 KiB in 4-7 frames,
// and a stack grown at its deepest point copies and adjusts every frame
// on it.)
func TestStackPerLevel(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation enlarges frames")
	}
	const depth = 64
	nest := func(open, inner, close string) []byte {
		return []byte(strings.Repeat(open, depth) + inner + strings.Repeat(close, depth))
	}
	for _, c := range []struct {
		name   string
		schema string
		doc    []byte
	}{
		{"properties", `{"type": "object", "properties": {"a": {"$ref": "#"}}, "required": ["a"]}`, nest(`{"a": `, `{}`, `}`)},
		{"additionalProperties", `{"type": "object", "additionalProperties": {"$ref": "#"}}`, nest(`{"b": `, `1`, `}`)},
		{"items", `{"type": "array", "items": {"$ref": "#"}}`, nest(`[`, `1`, `]`)},
		{"oneOf", `{"oneOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"$ref": "#"}}}]}`, nest(`{"a": `, `{"a": 1}`, `}`)},
		{"anyOf", `{"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#"}}]}`, nest(`[`, `[1]`, `]`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Compile([]byte(c.schema), false)
			if err != nil {
				t.Fatal(err)
			}
			tape, err := jsontree.Parse(c.doc, jsontree.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			// (The innermost value fails: the reporting path is measured
			// too, and the explanation of a oneOf or anyOf.)
			var probs []Problem
			if nbtest.StackGrewDuring(t, 32<<10, func() { probs = s.Validate(tape, jsontree.Root) }) {
				t.Errorf("validating %d levels grew a stack of 64 KiB", depth)
			}
			if nbtest.StackGrewDuring(t, 32<<10, func() { s.Valid(tape, jsontree.Root) }) {
				t.Errorf("checking %d levels grew a stack of 64 KiB", depth)
			}
			t.Logf("%d problems", len(probs))
		})
	}
}
