package draft04

// Tests of decodeSchema against encoding/json with UseNumber, and a benchmark
// of compiling the 4.5 schema.

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/schema"
)

// decodeSchema decodes as encoding/json with UseNumber (the reference):
// every embedded schema, and the corners of the grammar.
func TestDecodeSchemaAsEncodingJSON(t *testing.T) {
	docs := []string{`{"a":1,"a":2.5e3,"b":[true,false,null,"\u00e9\n\"x"],"c":{},"k\u0041\/":0}`, `[]`, `-0.0`, `"\ud83d\ude00"`}
	names, _ := fs.Glob(schema.FS, "*.json")
	for _, name := range names {
		data, err := schema.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	if len(names) < 8 {
		t.Fatalf("embedded schemas %q", names)
	}
	for _, doc := range docs {
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		got, err := decodeSchema([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%.60q: decoded differently (-encoding/json +ours):\n%s", doc, d)
		}
	}
	for _, bad := range []string{`{"a":NaN}`, `[1,]`, `{"a" 1}`, ``} {
		if _, err := decodeSchema([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// The start-up cost of the schema a 4.5 notebook is validated with.
func BenchmarkCompileV45(b *testing.B) {
	data, err := schema.FS.ReadFile("nbformat.v4.5.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Compile(data, false); err != nil {
			b.Fatal(err)
		}
	}
}
