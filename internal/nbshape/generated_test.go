package nbshape_test

// The generated shape against the builder: the differential oracle of
// shape_gen.go.

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbshape"
	_ "github.com/nbdialog/ipynb/nbformat" // sets nbshape.Doc
)

// shape_gen.go is what Source writes for nbformat's Document today (go
// generate's freshness, checked without running it: a schema or type
// change that was not regenerated fails here).
func TestGeneratedIsFresh(t *testing.T) {
	want, err := nbshape.Source(nbshape.Doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("shape_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("shape_gen.go is stale: run go generate ./... and commit the result")
	}
}

// The generated shape reads what the builder's reads: the same graph,
// member for member, and the same Other answers for every key either
// names and keys of every kind the schemas' patterns tell apart.
func TestGeneratedEqualsBuilder(t *testing.T) {
	gen, built := nbshape.Generated(), nbshape.Notebook(nbshape.Doc)
	probes := []string{"", "x", "text/plain", "text/html", "image/png", "image/svg+xml",
		"application/json", "application/vnd.jupyter.widget-view+json", "application/geo+json",
		"application/javascript", "application/json\n", "text/plain\n", "a/b\n\n", "no/slash/twice",
		"jupyter", "tags", "collapsed", "name", "TEXT/PLAIN", "é/x"}
	seen := map[[2]*jsontree.Shape]bool{}
	var collect func(s *jsontree.Shape)
	collect = func(s *jsontree.Shape) {
		if s == nil || s.IsAll() || seen[[2]*jsontree.Shape{s, s}] {
			return
		}
		seen[[2]*jsontree.Shape{s, s}] = true
		for k, m := range s.Members {
			probes = append(probes, k)
			collect(m)
		}
		collect(s.Elem)
	}
	collect(built)
	slices.Sort(probes)
	probes = slices.Compact(probes)
	clear(seen)
	var walk func(path string, g, b *jsontree.Shape)
	walk = func(path string, g, b *jsontree.Shape) {
		if (g == nil) != (b == nil) || g.IsAll() != b.IsAll() {
			t.Errorf("%s: generated %s, built %s", path, describe(g), describe(b))
			return
		}
		if g == nil || g.IsAll() || seen[[2]*jsontree.Shape{g, b}] {
			return
		}
		seen[[2]*jsontree.Shape{g, b}] = true
		if len(g.Members) != len(b.Members) || g.Flat != b.Flat || (g.Other == nil) != (b.Other == nil) {
			t.Errorf("%s: generated %s, built %s", path, describe(g), describe(b))
			return
		}
		for k, bm := range b.Members {
			gm, ok := g.Members[k]
			if !ok {
				t.Errorf("%s: generated has no member %q", path, k)
				continue
			}
			walk(path+"/"+k, gm, bm)
		}
		walk(path+"/[]", g.Elem, b.Elem)
		if b.Other != nil {
			for _, k := range probes {
				walk(fmt.Sprintf("%s/(other %q)", path, k), g.Other(k), b.Other(k))
			}
		}
	}
	walk("", gen, built)
}

func describe(s *jsontree.Shape) string {
	switch {
	case s == nil:
		return "lazy"
	case s.IsAll():
		return "all"
	}
	keys := make([]string, 0, len(s.Members))
	for k := range s.Members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return fmt.Sprintf("{members %q, flat %v, other %v}", keys, s.Flat, s.Other != nil)
}

// The start-up cost of the shape, built from the schemas and generated.
func BenchmarkShapeBuilt(b *testing.B) {
	for b.Loop() {
		nbshape.Notebook(nbshape.Doc)
	}
}

func BenchmarkShapeGenerated(b *testing.B) {
	for b.Loop() {
		nbshape.Generated()
	}
}
