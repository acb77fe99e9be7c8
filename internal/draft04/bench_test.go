package draft04

// Benchmarks of validating the testdata notebooks against their version's
// schema.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/schema"
)

// A notebook of the module's testdata, fully parsed, with the schema of
// its version compiled as package nbformat compiles it.
type notebookCase struct {
	name   string
	data   []byte
	tape   *jsontree.Tape
	schema *Schema
}

// notebookCases returns the testdata notebooks (../../testdata/*.ipynb)
// that have a schema.
func notebookCases(tb testing.TB) []notebookCase {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no testdata notebooks: %v", err)
	}
	var out []notebookCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		tape, err := jsontree.Parse(data, jsontree.Limits{})
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		s := notebookSchema(tb, tape)
		if s == nil {
			continue
		}
		out = append(out, notebookCase{strings.TrimSuffix(filepath.Base(p), ".ipynb"), data, tape, s})
	}
	return out
}

// notebookSchema compiles the schema of the notebook's version (nil when
// it has none), relaxed for a future minor version as nbformat does.
func notebookSchema(tb testing.TB, t *jsontree.Tape) *Schema {
	tb.Helper()
	version := func(key string) int {
		k := t.Lookup(jsontree.Root, key)
		if k < 0 {
			return 0
		}
		n, _ := strconv.Atoi(string(t.Raw(k)))
		return n
	}
	major, minor := version("nbformat"), version("nbformat_minor")
	data, future, err := schema.Official(major, minor)
	if err != nil {
		return nil
	}
	var add []Branch
	if future && major == 4 {
		add = []Branch{{"cell", "#/definitions/unrecognized_cell"}, {"output", "#/definitions/unrecognized_output"}}
	}
	s, err := Compile(data, future, add...)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkValid is the verdict alone (stopping at the first problem).
func BenchmarkValid(b *testing.B) {
	for _, c := range notebookCases(b) {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				c.schema.Valid(c.tape, jsontree.Root)
			}
		})
	}
}

// BenchmarkValidate collects every problem (what nbformat.Validate runs).
func BenchmarkValidate(b *testing.B) {
	for _, c := range notebookCases(b) {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				c.schema.Validate(c.tape, jsontree.Root)
			}
		})
	}
}
