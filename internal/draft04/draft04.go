// Package draft04 validates JSON documents (jsontree tapes) against JSON
// Schema draft-04 schemas, with the semantics of Python's fastjsonschema,
// which gives Python nbformat's verdicts: "integer" excludes 1.0, enum
// compares as Python's == does (so 1 equals true and 1.0), patterns are
// Python patterns searched (re.search) with fastjsonschema's rewrite of
// "$" (see pattern.go: in "pattern" it matches only at the very end, in
// "patternProperties" also before a final newline), lengths count code
// points.
//
// It reports every problem, not just the first, each with the JSON Pointer
// of the offending value. A oneOf that no branch satisfies is explained by
// the branch the value was meant for: the one whose enum-constrained
// property (cell_type, output_type) the value matches, else the one whose
// type it has.
//
// Compiling prepares the schema so that validating costs little more than
// visiting the values (see dispatch.go): references are resolved, each
// schema knows which classes of values it accepts or rejects whole
// (verdict.go: every string and array of strings for multiline_string),
// properties are found without hashing and an object's members are found
// and checked in one pass (object.go), a oneOf or anyOf tries only the
// branches of the value's type and, for an object, of its discriminating
// member's value, and the patterns the nbformat schemas use are decided in
// one pass (fastmatch.go). Validating a valid document allocates nothing,
// and its recursion takes 2-3 small frames per level of the document
// (failures are explained out of line), so a deep document needs little
// stack.
// The shortcuts are exact: verdicts, problems and messages are those of
// trying every branch of every schema (the tests compare both).
//
// It supports the keywords the nbformat schemas use: $ref (local), type,
// enum, properties, patternProperties, additionalProperties, required,
// items, minimum, maximum (and their exclusive forms), minLength,
// maxLength, pattern, uniqueItems, oneOf, anyOf, allOf, not, definitions.
package draft04

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Schema is a compiled schema.
type Schema struct {
	root *node
}

// A node is a compiled schema. Its fields are ordered by use: those every
// check reads first share the first cache line, those of scalars the
// second; a check reads few of the rest.
type node struct {
	// Set once references are resolved (see finish in dispatch.go and
	// verdict.go): the verdicts on each class of values.
	verdicts     [nClasses]verdict
	types        uint8 // bit set of jsonType; 0 = any
	trueSchema   bool  // {}: nothing to check
	readsMembers bool  // a keyword about an object's members applies
	readsStrings bool  // minLength, maxLength or pattern applies
	combines     bool  // allOf, anyOf, oneOf or not applies
	itemsStrings bool  // items accepts exactly the strings
	onlyTypes    bool  // type is the only keyword that checks anything
	accepts      bool  // no keyword checks anything: every value is valid
	addlFalse    bool
	unique       bool
	exclMin      bool
	exclMax      bool
	// While verdicts are worked out (see verdictWork): the classes whose
	// verdict is known (in verdicts), and whether n's are being worked
	// out.
	vKnown  uint8
	vBusy   bool
	refNode *node
	oneOf   *choice
	anyOf   *choice
	not     *node
	items   *node

	enum     []any
	pattern  *matcher
	minLen   int // -1: none
	maxLen   int
	min, max *float64
	props    propTable
	patProps []patProp
	addl     *node // nil: anything allowed
	required []string
	reqIdx   []int // the property index of each required name, -1 if none
	// reqMask has the bit of each property index in reqIdx; reqIndexed
	// tells that every required name has one: an object whose members
	// hold every bit has them all (see onePass).
	reqMask    uint64
	reqIndexed bool
	itemsList  []*node
	allOf      []*node
	enumPy     []any // enum in Python's terms (fromJSON), for comparing scalars
	patternSrc string
	ref        string
}

type patProp struct {
	re *matcher
	n  *node
}

const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString,
}

// A Branch is the schema {"$ref": Ref} that Compile adds to the oneOf of
// the definition Def (nbformat's _allow_undefined for future minor
// versions).
type Branch struct{ Def, Ref string }

// Compile compiles a draft-04 schema, with the branches add added to its
// definitions' oneOf (the document is decoded once for both). relax
// applies Python nbformat's handling of notebooks from a future minor
// version: every additionalProperties becomes true.
func Compile(data []byte, relax bool, add ...Branch) (*Schema, error) {
	doc, err := decodeSchema(data)
	if err != nil {
		return nil, fmt.Errorf("draft04: %w", err)
	}
	for _, b := range add {
		if err := appendOneOf(doc, b); err != nil {
			return nil, err
		}
	}
	if relax {
		doc = relaxAdditional(doc)
	}
	c := compiler{doc: doc, byRef: map[string]*node{}}
	root, err := c.compile(doc)
	if err != nil {
		return nil, err
	}
	// Resolving a reference compiles its target, which may add references.
	for i := 0; i < len(c.refs); i++ {
		target, err := c.resolve(c.refs[i].ref)
		if err != nil {
			return nil, err
		}
		c.refs[i].refNode = target
	}
	// A reference that leads only to references would never be checked.
	for _, r := range c.refs {
		n := r
		for steps := 0; n.refNode != nil; steps++ {
			if steps > len(c.refs) {
				return nil, fmt.Errorf("draft04: the reference %q leads back to itself", r.ref)
			}
			n = n.refNode
		}
	}
	finish(root, map[*node]bool{})
	setVerdicts(root, map[*node]bool{})
	return &Schema{root: deref(root)}, nil
}

// appendOneOf adds branch b to the decoded schema doc.
func appendOneOf(doc any, b Branch) error {
	root, _ := doc.(map[string]any)
	defs, _ := root["definitions"].(map[string]any)
	d, _ := defs[b.Def].(map[string]any)
	if d == nil {
		return fmt.Errorf("draft04: no definition %q", b.Def)
	}
	one, _ := d["oneOf"].([]any)
	d["oneOf"] = append(one, map[string]any{"$ref": b.Ref})
	return nil
}

func relaxAdditional(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "additionalProperties" {
				v[k] = true
			} else {
				v[k] = relaxAdditional(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = relaxAdditional(x)
		}
	}
	return v
}

type compiler struct {
	doc   any
	byRef map[string]*node
	refs  []*node
}

func (c *compiler) resolve(ref string) (*node, error) {
	if n, ok := c.byRef[ref]; ok {
		return n, nil
	}
	if !strings.HasPrefix(ref, "#") {
		return nil, fmt.Errorf("draft04: only local references are supported: %q", ref)
	}
	cur := c.doc
	if p := strings.TrimPrefix(ref, "#"); p != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
			tok = pointerUnescaper.Replace(tok)
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("draft04: unresolvable reference %q", ref)
			}
			if cur, ok = m[tok]; !ok {
				return nil, fmt.Errorf("draft04: unresolvable reference %q", ref)
			}
		}
	}
	n, err := c.compile(cur)
	if err != nil {
		return nil, err
	}
	c.byRef[ref] = n
	return n, nil
}

// pointerUnescaper undoes a JSON Pointer token's escapes (RFC 6901).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func num(v any) (*float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("draft04: expected a number, got %v", v)
	}
	f, err := n.Float64()
	return &f, err
}

// compile compiles schema v (a boolean, or an object of draft-04
// keywords; others are ignored).
func (c *compiler) compile(v any) (*node, error) {
	n := &node{minLen: -1, maxLen: -1}
	switch v := v.(type) {
	case bool:
		if v {
			n.trueSchema = true
		} else {
			n.not = &node{trueSchema: true, minLen: -1, maxLen: -1}
		}
		return n, nil
	case map[string]any:
		for k, x := range v {
			if err := c.keyword(n, k, x); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("draft04: a schema must be an object or a boolean, not %T", v)
}

// keyword compiles keyword k of value x into n.
func (c *compiler) keyword(n *node, k string, x any) error {
	var err error
	switch k {
	case "$ref":
		n.ref, _ = x.(string)
		c.refs = append(c.refs, n)
	case "type":
		n.types = typesOf(x)
	case "enum":
		n.enum, _ = x.([]any)
		if n.enum != nil {
			n.enumPy = make([]any, len(n.enum))
			for i, e := range n.enum {
				n.enumPy[i] = fromJSON(e)
			}
		}
	case "properties", "patternProperties", "additionalProperties", "required":
		return c.objectKeyword(n, k, x)
	case "items":
		if list, ok := x.([]any); ok {
			n.itemsList, err = c.compileList(list)
		} else {
			n.items, err = c.compile(x)
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "uniqueItems":
		return scalarKeyword(n, k, x)
	case "oneOf":
		n.oneOf, err = c.compileChoice(x)
	case "anyOf":
		n.anyOf, err = c.compileChoice(x)
	case "allOf":
		n.allOf, err = c.compileList(x.([]any))
	case "not":
		n.not, err = c.compile(x)
	}
	return err
}

// typesOf returns the type bits a "type" keyword names.
func typesOf(x any) uint8 {
	var bits uint8
	switch t := x.(type) {
	case string:
		bits = typeBits[t]
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			bits |= typeBits[s]
		}
	}
	return bits
}

// compileChoice compiles the branches of a oneOf or anyOf (nil for an
// empty list, which constrains nothing).
func (c *compiler) compileChoice(x any) (*choice, error) {
	list, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("draft04: oneOf and anyOf take an array of schemas, not %T", x)
	}
	branches, err := c.compileList(list)
	if err != nil || len(branches) == 0 {
		return nil, err
	}
	return &choice{branches: branches}, nil
}

// compileList compiles a list of schemas.
func (c *compiler) compileList(list []any) ([]*node, error) {
	var out []*node
	for _, s := range list {
		sn, err := c.compile(s)
		if err != nil {
			return nil, err
		}
		out = append(out, sn)
	}
	return out, nil
}

// objectKeyword compiles a keyword about objects into n.
func (c *compiler) objectKeyword(n *node, k string, x any) error {
	var err error
	switch k {
	case "properties":
		m, _ := x.(map[string]any)
		props := make(map[string]*node, len(m))
		for name, s := range m {
			if props[name], err = c.compile(s); err != nil {
				return err
			}
		}
		n.props = newPropTable(props)
	case "patternProperties":
		m, _ := x.(map[string]any)
		keys := make([]string, 0, len(m))
		for p := range m {
			keys = append(keys, p)
		}
		sort.Strings(keys)
		for _, p := range keys {
			re, err := compilePatternProperty(p)
			if err != nil {
				return err
			}
			s, err := c.compile(m[p])
			if err != nil {
				return err
			}
			n.patProps = append(n.patProps, patProp{re, s})
		}
	case "additionalProperties":
		if b, ok := x.(bool); ok {
			n.addlFalse = !b
		} else {
			n.addl, err = c.compile(x)
		}
	case "required":
		for _, r := range x.([]any) {
			s, _ := r.(string)
			n.required = append(n.required, s)
		}
	}
	return err
}

// scalarKeyword compiles a keyword about numbers, strings or array
// uniqueness into n.
func scalarKeyword(n *node, k string, x any) error {
	var err error
	switch k {
	case "minimum":
		n.min, err = num(x)
	case "maximum":
		n.max, err = num(x)
	case "exclusiveMinimum":
		n.exclMin, _ = x.(bool)
	case "exclusiveMaximum":
		n.exclMax, _ = x.(bool)
	case "minLength", "maxLength":
		var f *float64
		if f, err = num(x); err == nil {
			if k == "minLength" {
				n.minLen = int(*f)
			} else {
				n.maxLen = int(*f)
			}
		}
	case "pattern":
		n.patternSrc, _ = x.(string)
		n.pattern, err = compilePattern(n.patternSrc)
	case "uniqueItems":
		n.unique, _ = x.(bool)
	}
	return err
}
