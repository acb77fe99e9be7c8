package main

// Tests of retag: only the kept json tags stay, the provenance field is added,
// bad input is an error naming the file.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `package p

// T is documented.
type T struct {
	// A is a field.
	A string ` + "`json:\"a,omitempty\" yaml:\"a\" mapstructure:\"a\"`" + `
	B int
	AdditionalProperties map[string]interface{} ` + "`mapstructure:\",remain\"`" + `
	C []string ` + "`yaml:\"c\"`" + `
}
`

// Only the kept keys stay, in order; the hidden field gets json:"-"; a
// field left with no key loses its tag; comments stay.
func TestRetag(t *testing.T) {
	got, err := retag("sample.go", []byte(sample), []string{"json"}, []string{"AdditionalProperties"}, stateField{})
	if err != nil {
		t.Fatal(err)
	}
	tags := fieldTags(t, got)
	want := map[string]string{"A": `json:"a,omitempty"`, "B": "", "AdditionalProperties": `json:"-"`, "C": ""}
	if diff := cmp.Diff(want, tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	for _, c := range []string{"// T is documented.", "// A is a field."} {
		if !strings.Contains(string(got), c) {
			t.Errorf("comment %q lost:\n%s", c, got)
		}
	}
	// Idempotent.
	again, err := retag("sample.go", got, []string{"json"}, []string{"AdditionalProperties"}, stateField{})
	if err != nil || string(again) != string(got) {
		t.Errorf("second run changed the file (%v):\n%s", err, again)
	}
}

// The committed generated layer carries json tags only (go-jsonschema's
// mapstructure tags are removed by the retag step of generate.go), but for
// the provenance field that step's -state adds (untagged, unexported, so
// encoding/json never sees it), which the variants, and only they, have.
func TestSchemaGenHasJSONTagsOnly(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	src, err := os.ReadFile(filepath.Join(root, "nbformat", "schema_gen.go"))
	if err != nil {
		t.Skipf("no generated file: %v", err)
	}
	gen, err := os.ReadFile(filepath.Join(root, "generate.go"))
	if err != nil {
		t.Fatal(err)
	}
	const state = "src:nodeRef"
	if !strings.Contains(string(gen), "-state "+state+" -state-members cell_type,output_type ") {
		t.Fatalf("generate.go's retag directive does not add %s to the variants", state)
	}
	name, typ, _ := strings.Cut(state, ":")
	variants := stateFields(t, src, name, typ)
	// markdown, code, raw cells; stream, display_data, execute_result, error outputs.
	if variants != 7 {
		t.Errorf("%d structs have the provenance field %s %s, want the 7 variants", variants, name, typ)
	}
	for field, tag := range fieldTags(t, src) {
		if f, _, _ := strings.Cut(field, "@"); f == name && tag == "" {
			continue // the provenance field, counted above
		}
		st := reflect.StructTag(tag)
		if _, ok := st.Lookup("json"); !ok {
			t.Errorf("field %s: tag %q has no json key", field, tag)
		}
		if rest := strings.TrimSpace(strings.Replace(tag, `json:"`+st.Get("json")+`"`, "", 1)); rest != "" {
			t.Errorf("field %s: tag %q has keys besides json", field, tag)
		}
	}
}

// Bad input is an error naming the file (and the position of a bad tag);
// nothing is written.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.go")
	for name, src := range map[string]string{
		"syntax.go": "package p\ntype T struct {",
		"tag.go":    "package p\ntype T struct {\n\tA int \"json:\\\"a\"\n}\n",
	} {
		in := filepath.Join(dir, name)
		os.WriteFile(in, []byte(src), 0o644)
		err := run(in, out, []string{"json"}, nil, stateField{})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", name)
		}
	}
	os.Remove(out)
	target := filepath.Join(dir, "target.go")
	os.WriteFile(target, []byte("keep"), 0o644)
	in := filepath.Join(dir, "ok.go")
	os.WriteFile(in, []byte(sample), 0o644)
	if err := os.Symlink(target, out); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := run(in, out, []string{"json"}, nil, stateField{}); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Error("the link's target changed")
	}
}

// fieldTags returns every struct field's tag ("" for none) by
// StructName.Field (or Field alone for the sample's one struct).
func fieldTags(t *testing.T, src []byte) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, fl := range st.Fields.List {
			tag := ""
			if fl.Tag != nil {
				tag, _ = strconv.Unquote(fl.Tag.Value)
			}
			for _, n := range fl.Names {
				key := n.Name
				if _, dup := tags[key]; dup || len(tags) > 8 {
					key = n.Name + "@" + strconv.Itoa(int(fl.Pos()))
				}
				tags[key] = tag
			}
		}
		return true
	})
	return tags
}

// -state adds the provenance field to the structs with a named member
// only, once.
func TestRetagState(t *testing.T) {
	src := "package p\n\ntype V struct {\n\tT string `json:\"cell_type\"`\n\tAdditionalProperties map[string]interface{} `json:\"-\"`\n}\n\ntype M struct {\n\tN string `json:\"name\"`\n}\n"
	st := stateField{name: "src", typ: "nodeRef", members: []string{"cell_type"}}
	got, err := retag("s.go", []byte(src), []string{"json"}, []string{"AdditionalProperties"}, st)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "\tsrc                  nodeRef\n}\n\ntype M") || strings.Count(string(got), "nodeRef") != 1 {
		t.Errorf("want src nodeRef as V's last field only:\n%s", got)
	}
	again, err := retag("s.go", got, []string{"json"}, []string{"AdditionalProperties"}, st)
	if err != nil || string(again) != string(got) {
		t.Errorf("second run changed the file (%v):\n%s", err, again)
	}
}

// stateFields returns the number of structs in src with the field name of
// type typ, untagged, as their last field; a field so named anywhere else
// fails the test.
func stateFields(t *testing.T, src []byte, name, typ string) int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		st, ok := x.(*ast.StructType)
		if !ok {
			return true
		}
		for i, fl := range st.Fields.List {
			for _, id := range fl.Names {
				if id.Name != name {
					continue
				}
				ident, ok := fl.Type.(*ast.Ident)
				if !ok || ident.Name != typ || fl.Tag != nil || i != len(st.Fields.List)-1 {
					t.Errorf("field %s: want the untagged last field %s %s", name, name, typ)
					continue
				}
				n++
			}
		}
		return true
	})
	return n
}
