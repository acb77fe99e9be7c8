package draft04

// Tests of validation's cost: nothing allocated for a valid notebook, and a
// oneOf or anyOf trying only the candidate branches.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Validating a valid notebook allocates nothing, whether stopping at the
// first problem (Valid) or collecting them (Validate): no per-object
// member lists, no sub-validators for oneOf branches, no decoded copies
// of keys and strings to look them up or match patterns.
func TestValidAllocatesNothing(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, c := range notebookCases(t) {
		if !c.schema.Valid(c.tape, jsontree.Root) {
			continue
		}
		if n := testing.AllocsPerRun(20, func() { c.schema.Valid(c.tape, jsontree.Root) }); n != 0 {
			t.Errorf("%s: Valid allocates %v times", c.name, n)
		}
		if n := testing.AllocsPerRun(20, func() { c.schema.Validate(c.tape, jsontree.Root) }); n != 0 {
			t.Errorf("%s: Validate allocates %v times", c.name, n)
		}
	}
}

// checks returns the number of (value, schema) checks validating doc
// against schema takes, and whether doc is valid.
func checks(t *testing.T, schema, doc string) (int, bool) {
	t.Helper()
	s, err := Compile([]byte(schema), false)
	if err != nil {
		t.Fatal(err)
	}
	tape, err := jsontree.Parse([]byte(doc), jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v := validator{t: tape}
	ok := v.check(s.root, jsontree.Root)
	return v.checks, ok
}

// A oneOf or anyOf tries only the branches a value may match: those of its
// type and, for an object, those whose enum for the discriminating member
// (cell_type, output_type) holds its value. So the work per value does not
// grow with the number of branches.
func TestChoiceTriesOnlyCandidates(t *testing.T) {
	for _, keyword := range []string{"oneOf", "anyOf"} {
		var counts []int
		for _, k := range []int{2, 4, 8, 16, 32} {
			var branches []string
			for b := range k {
				branches = append(branches, fmt.Sprintf(`{"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["k%d"]}, "v": {"type": "integer"}}}`, b))
			}
			// Branches of other types: a string and an array of strings.
			branches = append(branches, `{"type": "string"}`, `{"type": "array", "items": {"type": "string"}}`)
			schema := fmt.Sprintf(`{"items": {"%s": [%s]}}`, keyword, strings.Join(branches, ", "))
			// Values meant for the first and the last object branches, and
			// for the string and array ones.
			doc := fmt.Sprintf(`[{"kind": "k0", "v": 1}, {"kind": "k%d", "v": 2}, "text", ["a", "b"]]`, k-1)
			n, ok := checks(t, schema, doc)
			if !ok {
				t.Fatalf("%s of %d: the document is invalid", keyword, k)
			}
			counts = append(counts, n)
		}
		for _, n := range counts[1:] {
			if n != counts[0] {
				t.Errorf("%s: checks for 2, 4, 8, 16, 32 object branches: %v, want them equal", keyword, counts)
				break
			}
		}
	}
}
