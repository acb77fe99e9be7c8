package draft04

// Tests of verdicts against fastjsonschema's (testdata/cases.json), of problems
// and their pointers, and of schemas refused.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

type refCase struct {
	Name     string          `json:"name"`
	Schema   json.RawMessage `json:"schema"`
	Instance string          `json:"instance"`
	Valid    bool            `json:"valid"`
}

// Every keyword the package supports, with Python's value semantics, gives
// fastjsonschema's verdict: testdata/cases.json holds cases and the
// verdicts fastjsonschema gave them (scripts/reference/draft04_cases.py).
func TestVerdictsMatchFastjsonschema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 150 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			s, err := Compile(tc.Schema, false)
			if err != nil {
				t.Fatalf("Compile(%s): %v", tc.Schema, err)
			}
			tape, err := jsontree.Parse([]byte(tc.Instance), jsontree.Limits{MaxDepth: 100, MaxString: 1 << 20})
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.Instance, err)
			}
			probs := s.Validate(tape, jsontree.Root)
			if got := len(probs) == 0; got != tc.Valid {
				t.Errorf("schema %s, instance %s: valid=%v, fastjsonschema says %v (%v)", tc.Schema, tc.Instance, got, tc.Valid, probs)
			}
			if got := s.Valid(tape, jsontree.Root); got != tc.Valid {
				t.Errorf("Valid = %v, Validate found %d problems", got, len(probs))
			}
			for _, p := range probs {
				if p.Keyword == "" || p.Msg == "" {
					t.Errorf("problem without keyword or message: %+v", p)
				}
			}
		})
	}
}

// The committed table is what fastjsonschema says today (skipped without
// Debian's python3-fastjsonschema).
func TestCasesAreFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Python")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import fastjsonschema").Run(); err != nil {
		t.Skipf("no Python fastjsonschema: %v", err)
	}
	out, err := exec.Command(py, filepath.Join("..", "..", "scripts", "reference", "draft04_cases.py")).Output()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Error("testdata/cases.json differs from what scripts/reference/draft04_cases.py prints now; regenerate it")
	}
}

// Every problem is reported, in document order, each with the JSON
// Pointer of the offending value (RFC 6901 escaping of "/" and "~").
func TestProblemsAndPointers(t *testing.T) {
	schema := `{"properties": {
		"a": {"type": "integer"},
		"b": {"items": {"type": "string"}},
		"c/d~e": {"enum": [1]},
		"r": {"required": ["x", "y"]}
	}, "additionalProperties": false}`
	s, err := Compile([]byte(schema), false)
	if err != nil {
		t.Fatal(err)
	}
	inst := `{"a": "no", "b": ["ok", 2, "ok", null], "c/d~e": 2, "r": {}, "extra": 1}`
	tape, err := jsontree.Parse([]byte(inst), jsontree.Limits{MaxDepth: 100, MaxString: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	required := 0
	for _, p := range s.Validate(tape, jsontree.Root) {
		if p.Keyword == "required" && strings.HasPrefix(p.Pointer, "/r") {
			required++ // one per missing member, x and y
			continue
		}
		got = append(got, p.Pointer+" "+p.Keyword)
	}
	if required != 2 {
		t.Errorf("%d required problems under /r, want 2 (x and y)", required)
	}
	want := []string{"/a type", "/b/1 type", "/b/3 type", "/c~1d~0e enum", "/extra additionalProperties"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("problems\n got %q\nwant %q", got, want)
	}
	// relax (a future minor version): additionalProperties become true.
	r, err := Compile([]byte(schema), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Validate(tape, jsontree.Root) {
		if p.Keyword == "additionalProperties" {
			t.Errorf("relaxed schema still reports %v", p)
		}
	}
}

// Schemas that cannot be compiled are refused with an error naming the
// problem, never compiled to something that means something else.
func TestCompileErrors(t *testing.T) {
	tests := []struct{ name, schema, want string }{
		{"NotJSON", `{"type": `, "draft04: "},
		{"NotASchema", `[1]`, "a schema must be an object"},
		{"DollarInClass", `{"pattern": "[$]"}`, `bad escape \Z`},
		{"UnicodeWord", `{"pattern": "^\\w+$"}`, `\w is Unicode-aware`},
		{"UnicodeSpace", `{"patternProperties": {"\\s": {}}}`, `\s is Unicode-aware`},
		{"DollarThenMore", `{"patternProperties": {"a$\\n": {}}}`, `"$" followed by more pattern`},
		{"BadRegexp", `{"pattern": "(a"}`, "draft04: pattern \"(a\""},
		{"UnterminatedClass", `{"pattern": "[a"}`, "unterminated character class"},
		{"TrailingBackslash", `{"pattern": "a\\"}`, "ends with a backslash"},
		{"MissingRef", `{"$ref": "#/definitions/none"}`, "draft04: "},
		{"RefCycle", `{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}, "items": {"$ref": "#/definitions/a"}}`, "leads back to itself"},
		{"RefSelf", `{"$ref": "#"}`, "leads back to itself"},
		{"OneOfNotArray", `{"oneOf": {"type": "string"}}`, "take an array of schemas"},
		{"AnyOfNotArray", `{"anyOf": "x"}`, "take an array of schemas"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile([]byte(tc.schema), false)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "draft04: ") {
				t.Errorf("Compile(%s) = %v, want an error saying %q", tc.schema, err, tc.want)
			}
		})
	}
}
