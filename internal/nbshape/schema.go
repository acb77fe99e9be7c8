package nbshape

// The schema side of a shape: what the keywords of the embedded schemas
// read inside containers.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/schema"
)

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
	t Type
	s *snode
}

type shapeBuilder struct {
	memo    map[string]*jsontree.Shape
	refs    map[string]*snode
	doc     any // the schema document being compiled
	file    string
	nodes   int
	pending []*snode // references to resolve
	regexps map[string]*regexp.Regexp
	notes   map[*jsontree.Shape]otherNote // of the shapes with an Other
}

// schemaRoots compiles every embedded schema nbformat validates with.
func (b *shapeBuilder) schemaRoots() []*snode {
	var roots []*snode
	names, _ := fs.Glob(schema.FS, "nbformat.v*.schema.json")
	for _, name := range names {
		data, err := schema.FS.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("nbshape: embedded schema %s: %v", name, err))
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(fmt.Sprintf("nbshape: embedded schema %s: %v", name, err))
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
