package nbformat

// The shape notebooks are read with: which containers the typed layer and
// the schemas look inside (the rest lazy).

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/schema"
)

// Reading records tape nodes only for the interiors someone reads: the
// typed layer (every position a generated type gives structure to) and the
// validator (every position where a schema of any version constrains what
// is inside a container). Everything else (metadata the schema leaves
// open, JSON output data, values of unknown keys) is one lazy node per
// container, kept as its bytes (json.RawMessage in AdditionalProperties)
// until a caller asks for more. notebookShape is the union of both needs,
// built once from the Go types and the embedded schemas.
//
// The shape only decides memory, never results: a consumer that needs a
// lazy interior anyway (the validator on a notebook the shape did not
// foresee, canonical output, an edited value compared with its original)
// parses that interior again.

var (
	shapeOnce sync.Once
	nbShape   *jsontree.Shape
)

// notebookShape returns the shape notebooks are read with.
func notebookShape() *jsontree.Shape {
	shapeOnce.Do(func() {
		b := shapeBuilder{memo: map[string]*jsontree.Shape{}, refs: map[string]*snode{}, regexps: map[string]*regexp.Regexp{}}
		comps := []shapeComp{{td: &descDocument}}
		for _, root := range b.schemaRoots() {
			comps = append(comps, shapeComp{s: root})
		}
		nbShape = b.build(comps)
	})
	return nbShape
}

// typeShape returns the shape the typed layer alone needs for values of
// the type td describes (FromMap and the like: nothing is validated
// there).
func typeShape(td *typeDesc) *jsontree.Shape {
	var key any = td
	if td.kind == kindStruct {
		key = td.codec // (a struct's description may be made anew)
	}
	if s, ok := typeShapes.Load(key); ok {
		return s.(*jsontree.Shape)
	}
	b := shapeBuilder{memo: map[string]*jsontree.Shape{}}
	s := b.build([]shapeComp{{td: td}})
	if s == nil {
		s = &jsontree.Shape{} // the root itself is recorded
	}
	typeShapes.Store(key, s)
	return s
}

var typeShapes sync.Map // *typeDesc or *structCodec → *jsontree.Shape

// snode is the part of a JSON schema that decides which interiors the
// validator reads.
type snode struct {
	all    bool   // reads everything below (enum of containers, uniqueItems)
	needs  bool   // reads the members or elements of a container here
	checks bool   // checks scalar values beyond their type (pattern, enum, …)
	types  string // the "type" keyword, as written
	props  map[string]*snode
	pats   []spat
	addl   *snode
	items  []*snode
	subs   []*snode // apply at the same place: $ref, allOf, anyOf, oneOf, not
	id     int
	ref    string
}

type spat struct {
	src string // the pattern as written
	re  *regexp.Regexp
	n   *snode
}

// shapeComp is one need at a place: a Go type or a schema node.
type shapeComp struct {
	td *typeDesc
	s  *snode
}

type shapeBuilder struct {
	memo    map[string]*jsontree.Shape
	refs    map[string]*snode
	doc     any // the schema document being compiled
	file    string
	nodes   int
	pending []*snode // references to resolve
	regexps map[string]*regexp.Regexp
}

// schemaRoots compiles every embedded schema nbformat validates with.
func (b *shapeBuilder) schemaRoots() []*snode {
	var roots []*snode
	names, _ := fs.Glob(schema.FS, "nbformat.v*.schema.json")
	for _, name := range names {
		data, err := schema.FS.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("nbformat: embedded schema %s: %v", name, err))
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(fmt.Sprintf("nbformat: embedded schema %s: %v", name, err))
		}
		b.doc, b.file = doc, name
		roots = append(roots, b.compile(doc))
		// Resolve references (resolving may add more).
		for len(b.pending) > 0 {
			n := b.pending[len(b.pending)-1]
			b.pending = b.pending[:len(b.pending)-1]
			if t := b.resolve(n.ref); t != nil {
				n.subs = append(n.subs, t)
			}
		}
	}
	return roots
}

func (b *shapeBuilder) resolve(ref string) *snode {
	key := b.file + ref
	if n, ok := b.refs[key]; ok {
		return n
	}
	cur := b.doc
	for _, tok := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(ref, "#"), "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	n := b.compile(cur)
	b.refs[key] = n
	return n
}

func (b *shapeBuilder) next() int { b.nodes++; return b.nodes }

// compile compiles schema v, noting what its keywords read.
func (b *shapeBuilder) compile(v any) *snode {
	n := &snode{id: b.next()}
	m, ok := v.(map[string]any)
	if !ok {
		return n // true, false or malformed: no interior read
	}
	for k, x := range m {
		b.keyword(n, k, x)
	}
	return n
}

// keyword notes in n what schema keyword k, of value x, reads.
func (b *shapeBuilder) keyword(n *snode, k string, x any) {
	switch k {
	case "$ref":
		n.ref, _ = x.(string)
		b.pending = append(b.pending, n)
	case "type":
		n.types = fmt.Sprint(x)
	case "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "format":
		n.checks = true
	case "properties":
		props, _ := x.(map[string]any)
		n.props = map[string]*snode{}
		for name, s := range props {
			n.props[name] = b.compile(s)
		}
		n.needs = true
	case "patternProperties":
		pats, _ := x.(map[string]any)
		b.patterns(n, pats)
		n.needs = true
	case "additionalProperties":
		if bv, isBool := x.(bool); isBool {
			if !bv {
				n.needs = true // member keys are read
			}
		} else {
			n.addl = b.compile(x)
			n.needs = true
		}
	case "required":
		n.needs = true
	case "items":
		if list, isList := x.([]any); isList {
			for _, s := range list {
				n.items = append(n.items, b.compile(s))
			}
		} else {
			n.items = append(n.items, b.compile(x))
		}
		n.needs = true
	case "uniqueItems":
		if u, _ := x.(bool); u {
			n.all = true
		}
	case "enum":
		n.checks = true
		list, _ := x.([]any)
		for _, e := range list {
			switch e.(type) {
			case map[string]any, []any:
				n.all = true
			}
		}
	case "oneOf", "anyOf", "allOf":
		list, _ := x.([]any)
		for _, s := range list {
			n.subs = append(n.subs, b.compile(s))
		}
	case "not":
		n.subs = append(n.subs, b.compile(x))
	}
}

// patterns compiles the patternProperties pats of n, in the order of
// their sources. A pattern Go cannot compile makes n read everything (it
// cannot tell which members the pattern reads).
func (b *shapeBuilder) patterns(n *snode, pats map[string]any) {
	keys := make([]string, 0, len(pats))
	for p := range pats {
		keys = append(keys, p)
	}
	slices.Sort(keys)
	for _, p := range keys {
		re := b.regexps[p]
		if re == nil {
			q := p
			if strings.HasSuffix(q, "$") && !strings.HasSuffix(q, `\$`) {
				q = q[:len(q)-1] + `(?:\n?\z)`
			}
			var err error
			if re, err = regexp.Compile(q); err != nil {
				n.all = true
				continue
			}
			b.regexps[p] = re
		}
		n.pats = append(n.pats, spat{p, re, b.compile(pats[p])})
	}
}

// flatten adds the components that apply at the same place (schema
// branches and references, pointer and interface element types).
func flatten(comps []shapeComp) []shapeComp {
	var out []shapeComp
	seenS := map[*snode]bool{}
	seenT := map[*typeDesc]bool{}
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
		case c.td != nil:
			if seenT[c.td] {
				return
			}
			seenT[c.td] = true
			switch c.td.kind {
			case kindPtr:
				add(shapeComp{td: c.td.elem})
			case kindCell:
				for _, d := range []*typeDesc{&descCodeCell, &descMarkdownCell, &descRawCell} {
					add(shapeComp{td: d})
				}
			case kindOutput:
				for _, d := range []*typeDesc{&descExecuteResult, &descDisplayData, &descStream, &descErrorOutput} {
					add(shapeComp{td: d})
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
			ids[i] = fmt.Sprintf("t%p", c.td)
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
		if c.td != nil {
			switch c.td.kind {
			case kindStruct, kindSlice, kindMap, kindMultiline, kindBundle:
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
		if c.td != nil && c.td.kind == kindStruct {
			for _, f := range c.td.codec.fields {
				names[f.name] = true
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
	index := map[string]int{} // "p" + pattern source (or "json" for JSON MIME types) → predicate
	for _, c := range comps {
		if c.s != nil {
			for _, p := range c.s.pats {
				if _, ok := index["p"+p.src]; !ok {
					index["p"+p.src] = len(preds)
					preds = append(preds, memoMatch(p.re))
				}
			}
		}
		if c.td != nil && c.td.kind == kindBundle {
			if _, ok := index["json"]; !ok {
				index["json"] = len(preds)
				preds = append(preds, mimetype.IsJSON)
			}
		}
	}
	if len(preds) > 8 {
		s.Other = func(string) *jsontree.Shape { return jsontree.All }
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
	s.Other = func(key string) *jsontree.Shape {
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
		if c.td != nil && c.td.kind == kindSlice {
			elems = append(elems, shapeComp{td: c.td.elem})
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
		if c.td != nil && c.td.kind != kindMultiline {
			return false
		}
	}
	for _, c := range flatten(elems) {
		if c.td != nil || c.s.all || c.s.needs || c.s.checks || c.s.types != "string" && c.s.types != "" || len(c.s.subs) > 0 {
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
		case c.td.kind == kindStruct:
			for _, f := range c.td.codec.fields {
				if f.name == key {
					out = append(out, shapeComp{td: f.typ})
				}
			}
		case c.td.kind == kindMap:
			out = append(out, shapeComp{td: c.td.elem})
		case c.td.kind == kindBundle:
			if !mimetype.IsJSON(key) {
				out = append(out, shapeComp{td: &descMultilineString})
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
		case c.td.kind == kindMap:
			out = append(out, shapeComp{td: c.td.elem})
		case c.td.kind == kindBundle:
			if mask&(1<<index["json"]) == 0 {
				out = append(out, shapeComp{td: &descMultilineString})
			}
		}
	}
	return out
}
