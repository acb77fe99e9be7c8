// Package nbshape builds the shapes (jsontree.Shape) notebooks are read
// with: which containers the typed layer and the schemas look inside, the
// rest lazy. It is the part of package nbformat's reader that works on
// descriptions only: nbformat describes its Go types with Type, and the
// schemas are the embedded ones of package schema.
//
// Reading records tape nodes only for the interiors someone reads: the
// typed layer (every position a generated type gives structure to) and the
// validator (every position where a schema of any version constrains what
// is inside a container). Everything else (metadata the schema leaves
// open, JSON output data, values of unknown keys) is one lazy node per
// container, kept as its bytes until a caller asks for more. Notebook's
// shape is the union of both needs.
//
// The shape only decides memory, never results: a consumer that needs a
// lazy interior anyway (the validator on a notebook the shape did not
// foresee, canonical output, an edited value compared with its original)
// parses that interior again.
package nbshape

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// Kind is what a Type is, as far as shapes go.
type Kind uint8

const (
	Scalar    Kind = iota // a string, number or boolean
	Any                   // generic JSON (lazy)
	Multiline             // text as one string or an array of lines
	Bundle                // a mime bundle: text entries Elem, JSON entries lazy
	Variants              // one of several types (a cell, an output)
	Struct                // an object with named fields (and lazy others)
	Ptr                   // an optional Elem
	Slice                 // an array of Elem
	Map                   // an object of Elem values
)

// Type describes a Go type of the typed layer. Types are compared by
// identity (use pointers).
type Type interface {
	Kind() Kind
	Elem() Type       // the element of a Ptr, Slice or Map; a Bundle's text entries
	Fields() []Field  // the fields of a Struct
	Variants() []Type // the types a Variants may be
}

// Field is a field of a Struct: its JSON name and type.
type Field struct {
	Name string
	Type Type
}

// Notebook returns the shape for documents of type doc that every
// embedded schema may validate.
func Notebook(doc Type) *jsontree.Shape {
	s, _ := build(doc)
	return s
}

// build returns Notebook(doc) with what its Others do (for Source).
func build(doc Type) (*jsontree.Shape, map[*jsontree.Shape]otherNote) {
	b := shapeBuilder{memo: map[string]*jsontree.Shape{}, refs: map[string]*snode{}, regexps: map[string]*regexp.Regexp{}, notes: map[*jsontree.Shape]otherNote{}}
	comps := []shapeComp{{t: doc}}
	for _, root := range b.schemaRoots() {
		comps = append(comps, shapeComp{s: root})
	}
	return b.build(comps), b.notes
}

// otherNote is what the Other of a shape does: return All (all), or the
// shape of table for the predicates a key satisfies (bit i: preds[i], a
// Go regular expression or, "", "a JSON MIME type").
type otherNote struct {
	all   bool
	preds []string
	table []*jsontree.Shape
}

// flatten adds the components that apply at the same place (schema
// branches and references, pointer and interface element types).
func flatten(comps []shapeComp) []shapeComp {
	var out []shapeComp
	seenS := map[*snode]bool{}
	seenT := map[Type]bool{}
	var add func(c shapeComp)
	add = func(c shapeComp) {
		switch {
		case c.s != nil:
			if seenS[c.s] {
				return
			}
			seenS[c.s] = true
			out = append(out, c)
			for _, x := range c.s.subs {
				add(shapeComp{s: x})
			}
		case c.t != nil:
			if seenT[c.t] {
				return
			}
			seenT[c.t] = true
			switch c.t.Kind() {
			case Ptr:
				add(shapeComp{t: c.t.Elem()})
			case Variants:
				for _, v := range c.t.Variants() {
					add(shapeComp{t: v})
				}
			default:
				out = append(out, c)
			}
		}
	}
	for _, c := range comps {
		add(c)
	}
	return out
}

func compKey(comps []shapeComp) string {
	ids := make([]string, len(comps))
	for i, c := range comps {
		if c.s != nil {
			ids[i] = fmt.Sprintf("s%d", c.s.id)
		} else {
			ids[i] = fmt.Sprintf("t%p", c.t)
		}
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

// build returns the shape for a place where comps apply (nil: lazy).
func (b *shapeBuilder) build(comps []shapeComp) *jsontree.Shape {
	comps = flatten(comps)
	all, needs := interior(comps)
	if all {
		return jsontree.All
	}
	if !needs {
		return nil
	}
	key := compKey(comps)
	if s, ok := b.memo[key]; ok {
		return s
	}
	s := &jsontree.Shape{}
	b.memo[key] = s
	b.members(s, comps)
	b.others(s, comps)
	elems := elemComps(comps)
	s.Elem = b.build(elems)
	s.Flat = flatLines(comps, elems)
	return s
}

// interior reports whether the interior of a container where comps (as
// flattened) apply is read whole (all), or read at all (needs).
func interior(comps []shapeComp) (all, needs bool) {
	for _, c := range comps {
		if c.s != nil && c.s.all {
			return true, true
		}
		if c.s != nil && c.s.needs {
			needs = true
		}
		if c.t != nil {
			switch c.t.Kind() {
			case Struct, Slice, Map, Multiline, Bundle:
				needs = true
			}
		}
	}
	return false, needs
}

// members sets the shapes of the members comps name (s.Members).
func (b *shapeBuilder) members(s *jsontree.Shape, comps []shapeComp) {
	names := map[string]bool{}
	for _, c := range comps {
		if c.s != nil {
			for k := range c.s.props {
				names[k] = true
			}
		}
		if c.t != nil && c.t.Kind() == Struct {
			for _, f := range c.t.Fields() {
				names[f.Name] = true
			}
		}
	}
	for k := range names {
		if m := b.build(memberComps(comps, k)); m != nil {
			if s.Members == nil {
				s.Members = map[string]*jsontree.Shape{}
			}
			s.Members[k] = m
		}
	}
}

// others sets the shapes of the members comps do not name (s.Other): they
// depend on the patterns the key matches (the same pattern in several
// schemas is one predicate), worked out for every combination up front.
func (b *shapeBuilder) others(s *jsontree.Shape, comps []shapeComp) {
	var preds []func(string) bool
	var names []string        // of preds: the Go pattern, or "" for JSON MIME types
	index := map[string]int{} // "p" + pattern source (or "json" for JSON MIME types) → predicate
	for _, c := range comps {
		if c.s != nil {
			for _, p := range c.s.pats {
				if _, ok := index["p"+p.src]; !ok {
					index["p"+p.src] = len(preds)
					preds = append(preds, memoMatch(p.re))
					names = append(names, p.re.String())
				}
			}
		}
		if c.t != nil && c.t.Kind() == Bundle {
			if _, ok := index["json"]; !ok {
				index["json"] = len(preds)
				preds = append(preds, mimetype.IsJSON)
				names = append(names, "")
			}
		}
	}
	if len(preds) > 8 {
		s.Other = otherAll
		b.notes[s] = otherNote{all: true}
		return
	}
	table := make([]*jsontree.Shape, 1<<len(preds))
	some := false
	for mask := range table {
		table[mask] = b.build(otherComps(comps, index, mask))
		some = some || table[mask] != nil
	}
	if !some {
		return
	}
	s.Other = otherFunc(preds, table)
	b.notes[s] = otherNote{preds: names, table: table}
}

// otherAll is the Other of a shape whose unnamed members are read whole.
func otherAll(string) *jsontree.Shape { return jsontree.All }

// otherFunc returns the Other that gives a key the shape table holds for
// the predicates it satisfies (bit i: preds[i]).
func otherFunc(preds []func(string) bool, table []*jsontree.Shape) func(string) *jsontree.Shape {
	return func(key string) *jsontree.Shape {
		mask := 0
		for i, p := range preds {
			if p(key) {
				mask |= 1 << i
			}
		}
		return table[mask]
	}
}

// elemComps returns what applies to the elements of arrays where comps
// apply.
func elemComps(comps []shapeComp) []shapeComp {
	var elems []shapeComp
	for _, c := range comps {
		if c.s != nil {
			for _, x := range c.s.items {
				elems = append(elems, shapeComp{s: x})
			}
		}
		if c.t != nil && c.t.Kind() == Slice {
			elems = append(elems, shapeComp{t: c.t.Elem()})
		}
	}
	return elems
}

// memoMatch returns re.MatchString remembering its answers for the first
// memoKeys keys it is asked about: the same member names (MIME types,
// metadata keys) recur in every notebook, and a lookup costs a fraction of
// a match. Past that many keys (hostile input) it matches.
func memoMatch(re *regexp.Regexp) func(string) bool {
	var (
		memo sync.Map // string → bool
		n    atomic.Int32
	)
	return func(key string) bool {
		if m, ok := memo.Load(key); ok {
			return m.(bool)
		}
		m := re.MatchString(key)
		if n.Add(1) <= memoKeys {
			memo.Store(strings.Clone(key), m)
		}
		return m
	}
}

const memoKeys = 4096

// flatLines reports whether an array where comps apply is read only as
// lines of text: by the typed layer as a MultilineString (from its bytes),
// and by the schemas as an array of strings (from the lazy node's
// FlagStrings), so that it may stay one lazy node.
func flatLines(comps, elems []shapeComp) bool {
	for _, c := range comps {
		if c.t != nil && c.t.Kind() != Multiline {
			return false
		}
	}
	for _, c := range flatten(elems) {
		if c.t != nil || c.s.all || c.s.needs || c.s.checks || c.s.types != "string" && c.s.types != "" || len(c.s.subs) > 0 {
			return false
		}
	}
	return true
}

// memberComps returns what applies to member key of objects where comps
// apply.
func memberComps(comps []shapeComp, key string) []shapeComp {
	var out []shapeComp
	for _, c := range comps {
		switch {
		case c.s != nil:
			matched := false
			if x, ok := c.s.props[key]; ok {
				out = append(out, shapeComp{s: x})
				matched = true
			}
			for _, p := range c.s.pats {
				if p.re.MatchString(key) {
					out = append(out, shapeComp{s: p.n})
					matched = true
				}
			}
			if !matched && c.s.addl != nil {
				out = append(out, shapeComp{s: c.s.addl})
			}
		case c.t.Kind() == Struct:
			for _, f := range c.t.Fields() {
				if f.Name == key {
					out = append(out, shapeComp{t: f.Type})
				}
			}
		case c.t.Kind() == Map:
			out = append(out, shapeComp{t: c.t.Elem()})
		case c.t.Kind() == Bundle:
			if !mimetype.IsJSON(key) {
				out = append(out, shapeComp{t: c.t.Elem()})
			}
		}
	}
	return out
}

// otherComps returns what applies to a member with no name in comps whose
// key matches exactly the predicates in mask (index gives each pattern's
// predicate, see build).
func otherComps(comps []shapeComp, index map[string]int, mask int) []shapeComp {
	var out []shapeComp
	for _, c := range comps {
		switch {
		case c.s != nil:
			matched := false
			for _, p := range c.s.pats {
				if mask&(1<<index["p"+p.src]) != 0 {
					out = append(out, shapeComp{s: p.n})
					matched = true
				}
			}
			if !matched && c.s.addl != nil {
				out = append(out, shapeComp{s: c.s.addl})
			}
		case c.t.Kind() == Map:
			out = append(out, shapeComp{t: c.t.Elem()})
		case c.t.Kind() == Bundle:
			if mask&(1<<index["json"]) == 0 {
				out = append(out, shapeComp{t: c.t.Elem()})
			}
		}
	}
	return out
}
