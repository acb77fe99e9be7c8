package draft04

// Tests of the verdicts worked out per schema and class of values: those of
// checking every value of the class in full.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/schema"
)

// Values of every class: those the schemas' keywords tell apart (empty,
// enum members, lengths, commas, line ends, signs, duplicates).
var classSamples = []string{
	`null`, `true`, `false`,
	`0`, `1`, `-1`, `3`, `4`, `5`, `64`, `-0`, `100000000000000000000`,
	`1.5`, `-0.5`, `1e400`, `4.0`, `1e-9`,
	`""`, `"a"`, `"a,b"`, `"a b"`, `"code"`, `"markdown"`, `"raw"`, `"stream"`, `"error"`, `"display_data"`,
	`"execute_result"`, `"x\n"`, `"\n"`, `"é"`, `"` + strings.Repeat("x", 70) + `"`, `"auto"`, `"application/json"`,
	`{}`, `{"a": 1}`, `{"cell_type": "code"}`, `{"name": "x", "display_name": "y"}`, `{"name": 1}`,
	`{"output_type": "stream", "name": "stdout", "text": "x"}`, `{"text/plain": "x"}`, `{"text/plain": 1}`,
	`[]`, `[1]`, `["a"]`, `["a", "a"]`, `["a", "b"]`, `["a,b"]`, `[""]`, `[null]`, `[{}]`, `[[]]`, `["a", 1]`,
}

// schemaNodes returns every schema below s's root.
func schemaNodes(s *Schema) []*node {
	var out []*node
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
		for _, c := range children(n) {
			walk(c)
		}
	}
	walk(s.root)
	return out
}

// verdictSchemas returns the embedded nbformat schemas (as nbformat
// compiles them, and relaxed for a future minor version) and the schemas
// of testdata/cases.json.
func verdictSchemas(t *testing.T) map[string]*Schema {
	t.Helper()
	out := map[string]*Schema{}
	entries, err := schema.FS.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := schema.FS.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, relax := range []bool{false, true} {
			s, err := Compile(data, relax)
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()+map[bool]string{false: "", true: " relaxed"}[relax]] = s
		}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		s, err := Compile(c.Schema, false)
		if err != nil {
			t.Fatal(err)
		}
		out["case "+c.Name] = s
	}
	return out
}

// The verdicts compiling gives a schema on a class of values are those of
// checking each value of the class in full: for every schema of the
// nbformat schemas and of the reference cases, and every sample value, a
// schema whose verdict on the value's class is yes accepts the value, one
// whose verdict is no rejects it (checked without shortcuts, on a full
// parse). A lazy array of strings is checked as its full parse is.
func TestVerdictsExact(t *testing.T) {
	type sample struct {
		src  string
		lazy *jsontree.Tape // the value as a lazy node (node 0), or nil
		full *jsontree.Tape
	}
	var samples []sample
	for _, src := range classSamples {
		full, err := jsontree.Parse([]byte(src), jsontree.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		sm := sample{src: src, full: full}
		if src[0] == '[' {
			lazy, err := jsontree.ParseShaped([]byte(src), jsontree.Limits{}, &jsontree.Shape{Flat: true})
			if err != nil {
				t.Fatal(err)
			}
			sm.lazy = lazy
		}
		samples = append(samples, sm)
	}
	decided := map[verdict]int{}
	lazyStrings := 0
	for name, s := range verdictSchemas(t) {
		for _, n := range schemaNodes(s) {
			for _, sm := range samples {
				want := (&validator{t: sm.full, exhaustive: true}).check(n, jsontree.Root)
				tapes := []*jsontree.Tape{sm.full}
				if sm.lazy != nil {
					tapes = append(tapes, sm.lazy)
				}
				for _, tp := range tapes {
					v := &validator{t: tp}
					c := v.classOf(jsontree.Root)
					if c == cStrings {
						lazyStrings++
					}
					switch got := n.verdicts[c]; {
					case got == yes && !want, got == no && want:
						t.Errorf("%s: a schema's verdict on %s (class %d) is %d, but checking it in full says valid=%v", name, sm.src, c, got, want)
					case got != look:
						decided[got]++
					}
				}
			}
		}
	}
	t.Logf("decided: %d yes, %d no; %d lazy arrays of strings", decided[yes], decided[no], lazyStrings)
	if decided[yes] < 1000 || decided[no] < 1000 || lazyStrings == 0 {
		t.Errorf("too few verdicts exercised: %v (%d lazy arrays of strings)", decided, lazyStrings)
	}
}

// The verdicts decide where a notebook's values are commonly found: every
// string and every array of strings against multiline_string, every null
// against an execution count, every object against output metadata.
func TestVerdictsDecideNotebookValues(t *testing.T) {
	data, err := schema.FS.ReadFile("nbformat.v4.5.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(data, false)
	if err != nil {
		t.Fatal(err)
	}
	def := func(path ...string) *node {
		n := s.root
		for _, p := range path {
			n = deref(n.props.lookup(p))
		}
		return n
	}
	code := deref(def("cells").items).oneOf.branches[2]
	multiline := deref(code.props.lookup("source"))
	count := deref(code.props.lookup("execution_count"))
	for _, c := range []struct {
		what string
		n    *node
		c    class
		want verdict
	}{
		{"multiline_string on a string", multiline, cStr, yes},
		{"multiline_string on a lazy array of strings", multiline, cStrings, yes},
		{"multiline_string on an array", multiline, cArr, look},
		{"multiline_string on an object", multiline, cObj, no},
		{"execution_count on null", count, cNull, yes},
		{"execution_count on an integer", count, cInt, look},
		{"execution_count on a string", count, cStr, no},
		{"a code cell on an object", code, cObj, look},
	} {
		if got := c.n.verdicts[c.c]; got != c.want {
			t.Errorf("%s: verdict %d, want %d", c.what, got, c.want)
		}
	}
}

// The class table gives every node kind and flags the class classOfNode
// gives, for every kind the tape has (all below 8, as the table needs),
// and kindBits the type bits of each kind.
func TestClassTable(t *testing.T) {
	kinds := []jsontree.Kind{jsontree.Null, jsontree.False, jsontree.True, jsontree.Number, jsontree.String, jsontree.Array, jsontree.Object}
	for _, k := range kinds {
		if k >= 8 {
			t.Fatalf("kind %v is %d: the class table holds kinds below 8", k, k)
		}
		for f := range 256 {
			if got, want := classTable[k&7][f], classOfNode(k, uint8(f)); got != want {
				t.Errorf("kind %v flags %#x: class %d, want %d", k, f, got, want)
			}
		}
	}
	for doc, want := range map[string]uint8{`null`: tNull, `true`: tBoolean, `false`: tBoolean, `1`: tNumber | tInteger,
		`1.0`: tNumber, `1e2`: tNumber, `"a"`: tString, `{}`: tObject, `[]`: tArray} {
		tape, err := jsontree.Parse([]byte(doc), jsontree.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := (&validator{t: tape}).kindBits(jsontree.Root); got != want {
			t.Errorf("%s: type bits %b, want %b", doc, got, want)
		}
	}
}

// Working out verdicts costs a few per schema and class, however the
// schemas share subschemas: 40 definitions each the allOf of two
// references to the one before (2^40 paths) take a handful per node.
func TestVerdictsWorkedOutOnce(t *testing.T) {
	defs := []string{`"d0": {"type": "object", "required": ["a"]}`}
	for k := 1; k <= 40; k++ {
		defs = append(defs, fmt.Sprintf(`"d%d": {"allOf": [{"$ref": "#/definitions/d%d"}, {"not": {"$ref": "#/definitions/d%d"}}], "anyOf": [{"$ref": "#/definitions/d%d"}, {"type": "string"}]}`, k, k-1, k-1, k-1))
	}
	src := `{"definitions": {` + strings.Join(defs, ", ") + `}, "oneOf": [{"$ref": "#/definitions/d40"}, {"$ref": "#/definitions/d39"}]}`
	s, err := Compile([]byte(src), false)
	if err != nil {
		t.Fatal(err)
	}
	nodes := len(schemaNodes(s))
	n := setVerdicts(s.root, map[*node]bool{})
	if n > 2*nodes*int(nClasses) {
		t.Errorf("%d verdicts worked out for %d schemas", n, nodes)
	}
	if got := s.root.verdicts[cArr]; got != no {
		t.Errorf("verdict on arrays %d, want no", got)
	}
}
