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
// It supports the keywords the nbformat schemas use: $ref (local), type,
// enum, properties, patternProperties, additionalProperties, required,
// items, minimum, maximum (and their exclusive forms), minLength,
// maxLength, pattern, uniqueItems, oneOf, anyOf, allOf, not, definitions.
package draft04

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Schema is a compiled schema.
type Schema struct {
	root *node
}

type node struct {
	types      uint8 // bit set of jsonType; 0 = any
	enum       []any
	props      map[string]*node
	patProps   []patProp
	addl       *node // nil: anything allowed
	addlFalse  bool
	required   []string
	items      *node
	itemsList  []*node
	min, max   *float64
	exclMin    bool
	exclMax    bool
	minLen     int // -1: none
	maxLen     int
	pattern    *regexp.Regexp
	patternSrc string
	unique     bool
	oneOf      []*node
	anyOf      []*node
	allOf      []*node
	not        *node
	ref        string
	refNode    *node
	trueSchema bool // {}: nothing to check
}

type patProp struct {
	re *regexp.Regexp
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

// Compile compiles a draft-04 schema. relax applies Python nbformat's
// handling of notebooks from a future minor version: every
// additionalProperties becomes true.
func Compile(data []byte, relax bool) (*Schema, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("draft04: %w", err)
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
	return &Schema{root: root}, nil
}

// AppendOneOfRef adds a branch {"$ref": ref} to the oneOf of the definition
// def (nbformat's _allow_undefined for future minor versions).
func AppendOneOfRef(data []byte, def, ref string) ([]byte, error) {
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	defs, _ := doc["definitions"].(map[string]any)
	d, _ := defs[def].(map[string]any)
	if d == nil {
		return nil, fmt.Errorf("draft04: no definition %q", def)
	}
	one, _ := d["oneOf"].([]any)
	d["oneOf"] = append(one, map[string]any{"$ref": ref})
	return json.Marshal(doc)
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
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
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

func num(v any) (*float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("draft04: expected a number, got %v", v)
	}
	f, err := n.Float64()
	return &f, err
}

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
		var err error
		for k, x := range v {
			switch k {
			case "$ref":
				n.ref, _ = x.(string)
				c.refs = append(c.refs, n)
			case "type":
				switch t := x.(type) {
				case string:
					n.types = typeBits[t]
				case []any:
					for _, e := range t {
						s, _ := e.(string)
						n.types |= typeBits[s]
					}
				}
			case "enum":
				n.enum, _ = x.([]any)
			case "properties":
				m, _ := x.(map[string]any)
				n.props = map[string]*node{}
				for name, s := range m {
					if n.props[name], err = c.compile(s); err != nil {
						return nil, err
					}
				}
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
						return nil, err
					}
					s, err := c.compile(m[p])
					if err != nil {
						return nil, err
					}
					n.patProps = append(n.patProps, patProp{re, s})
				}
			case "additionalProperties":
				if b, ok := x.(bool); ok {
					n.addlFalse = !b
				} else if n.addl, err = c.compile(x); err != nil {
					return nil, err
				}
			case "required":
				for _, r := range x.([]any) {
					s, _ := r.(string)
					n.required = append(n.required, s)
				}
			case "items":
				if list, ok := x.([]any); ok {
					for _, s := range list {
						sn, err := c.compile(s)
						if err != nil {
							return nil, err
						}
						n.itemsList = append(n.itemsList, sn)
					}
				} else if n.items, err = c.compile(x); err != nil {
					return nil, err
				}
			case "minimum":
				if n.min, err = num(x); err != nil {
					return nil, err
				}
			case "maximum":
				if n.max, err = num(x); err != nil {
					return nil, err
				}
			case "exclusiveMinimum":
				n.exclMin, _ = x.(bool)
			case "exclusiveMaximum":
				n.exclMax, _ = x.(bool)
			case "minLength":
				f, err := num(x)
				if err != nil {
					return nil, err
				}
				n.minLen = int(*f)
			case "maxLength":
				f, err := num(x)
				if err != nil {
					return nil, err
				}
				n.maxLen = int(*f)
			case "pattern":
				n.patternSrc, _ = x.(string)
				if n.pattern, err = compilePattern(n.patternSrc); err != nil {
					return nil, err
				}
			case "uniqueItems":
				n.unique, _ = x.(bool)
			case "oneOf", "anyOf", "allOf":
				var list []*node
				for _, s := range x.([]any) {
					sn, err := c.compile(s)
					if err != nil {
						return nil, err
					}
					list = append(list, sn)
				}
				switch k {
				case "oneOf":
					n.oneOf = list
				case "anyOf":
					n.anyOf = list
				default:
					n.allOf = list
				}
			case "not":
				if n.not, err = c.compile(x); err != nil {
					return nil, err
				}
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("draft04: a schema must be an object or a boolean, not %T", v)
}

// A Problem is one way the document does not match the schema.
type Problem struct {
	Node    int    // tape node of the offending value
	Pointer string // its JSON Pointer
	Keyword string // the failing keyword
	Msg     string
	// Member names the member a "required" problem found missing (Node is
	// the object lacking it).
	Member string
}

// Validate checks node i of t (normally jsontree.Root) and returns every
// problem, in document order.
func (s *Schema) Validate(t *jsontree.Tape, i int) []Problem {
	v := validator{t: t, report: true}
	v.check(s.root, i)
	sort.SliceStable(v.problems, func(a, b int) bool {
		return t.Nodes[v.problems[a].Node].Start < t.Nodes[v.problems[b].Node].Start
	})
	if len(v.problems) > 0 {
		ptr := pointers(t)
		for k := range v.problems {
			v.problems[k].Pointer = ptr(v.problems[k].Node)
		}
	}
	return v.problems
}

// Valid reports whether node i of t matches, stopping at the first problem.
func (s *Schema) Valid(t *jsontree.Tape, i int) bool {
	v := validator{t: t}
	return v.check(s.root, i)
}

// pointers returns a function giving the JSON Pointer of a node, from
// parent links built in one pass (only when there are problems to place).
func pointers(t *jsontree.Tape) func(int) string {
	parent := make([]int32, len(t.Nodes))
	index := make([]int32, len(t.Nodes))
	parent[0] = -1
	for i := range t.Nodes {
		if k := t.Nodes[i].Kind; k != jsontree.Array && k != jsontree.Object {
			continue
		}
		x := int32(0)
		t.Children(i, func(j int) bool {
			parent[j], index[j] = int32(i), x
			x++
			return true
		})
	}
	esc := strings.NewReplacer("~", "~0", "/", "~1")
	return func(i int) string {
		var toks []string
		for j := i; parent[j] >= 0; j = int(parent[j]) {
			if t.Nodes[parent[j]].Kind == jsontree.Object {
				toks = append(toks, esc.Replace(t.KeyString(j)))
			} else {
				toks = append(toks, strconv.Itoa(int(index[j])))
			}
		}
		var b strings.Builder
		for k := len(toks) - 1; k >= 0; k-- {
			b.WriteByte('/')
			b.WriteString(toks[k])
		}
		return b.String()
	}
}

type validator struct {
	t        *jsontree.Tape
	report   bool // collect every problem (else stop at the first)
	problems []Problem
}

// fail records a problem at node i; the message is built only when
// problems are being collected.
func (v *validator) fail(i int, keyword string, msg func() string) {
	if v.report {
		v.problems = append(v.problems, Problem{Node: i, Keyword: keyword, Msg: msg()})
	}
}

// missing records that object node i lacks the required member name.
func (v *validator) missing(i int, name string) {
	if v.report {
		v.problems = append(v.problems, Problem{Node: i, Keyword: "required", Msg: fmt.Sprintf("missing property %q", name), Member: name})
	}
}

// sub runs a check in a fresh validator and reports whether it passed.
func (v *validator) sub(n *node, i int, report bool) (bool, []Problem) {
	w := validator{t: v.t, report: report}
	ok := w.check(n, i)
	return ok, w.problems
}

func (v *validator) kindBits(i int) uint8 {
	nd := &v.t.Nodes[i]
	switch nd.Kind {
	case jsontree.Null:
		return tNull
	case jsontree.True, jsontree.False:
		return tBoolean
	case jsontree.Object:
		return tObject
	case jsontree.Array:
		return tArray
	case jsontree.String:
		return tString
	case jsontree.Number:
		if nd.Flags&jsontree.FlagInt != 0 {
			return tNumber | tInteger
		}
		return tNumber
	}
	return 0
}

var typeOrder = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

func typeNames(bits uint8) string {
	var names []string
	for _, n := range typeOrder {
		if bits&typeBits[n] != 0 {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return article(names[0]) + " " + names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func article(s string) string {
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

func (v *validator) kindName(i int) string {
	nd := &v.t.Nodes[i]
	if nd.Kind == jsontree.Number {
		if nd.Flags&jsontree.FlagInt != 0 {
			return "an integer"
		}
		return "a number"
	}
	return typeNames(v.kindBits(i))
}

// check validates node i against schema n; it returns false on the first
// problem unless reporting.
func (v *validator) check(n *node, i int) bool {
	if n.trueSchema {
		return true
	}
	if n.refNode != nil {
		// A $ref in draft-04 replaces its siblings.
		return v.check(n.refNode, i)
	}
	t := v.t
	nd := &t.Nodes[i]
	ok := true
	// bad notes a failure; it reports whether to go on looking.
	bad := func() bool {
		ok = false
		return v.report
	}
	if n.types != 0 && v.kindBits(i)&n.types == 0 {
		v.fail(i, "type", func() string { return "is " + v.kindName(i) + ", expected " + typeNames(n.types) })
		if !bad() {
			return false
		}
	}
	if n.enum != nil && !v.inEnum(i, n.enum) {
		v.fail(i, "enum", func() string { return short(t.Raw(i)) + " is not one of " + enumList(n.enum) })
		if !bad() {
			return false
		}
	}
	switch nd.Kind {
	case jsontree.Object:
		if !v.object(n, i) && !bad() {
			return false
		}
	case jsontree.Array:
		if !v.array(n, i) && !bad() {
			return false
		}
	case jsontree.String:
		if n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil {
			s := t.Str(i)
			l := utf8.RuneCountInString(s)
			if n.minLen >= 0 && l < n.minLen {
				v.fail(i, "minLength", func() string { return fmt.Sprintf("%s is shorter than %d characters", short(t.Raw(i)), n.minLen) })
				if !bad() {
					return false
				}
			}
			if n.maxLen >= 0 && l > n.maxLen {
				v.fail(i, "maxLength", func() string { return fmt.Sprintf("%s is longer than %d characters", short(t.Raw(i)), n.maxLen) })
				if !bad() {
					return false
				}
			}
			if n.pattern != nil && !n.pattern.MatchString(s) {
				v.fail(i, "pattern", func() string { return short(t.Raw(i)) + " does not match " + n.patternSrc })
				if !bad() {
					return false
				}
			}
		}
	case jsontree.Number:
		if n.min != nil || n.max != nil {
			f := v.number(i)
			if n.min != nil && (f < *n.min || n.exclMin && f == *n.min) {
				v.fail(i, "minimum", func() string { return fmt.Sprintf("%s is less than %v", t.Raw(i), *n.min) })
				if !bad() {
					return false
				}
			}
			if n.max != nil && (f > *n.max || n.exclMax && f == *n.max) {
				v.fail(i, "maximum", func() string { return fmt.Sprintf("%s is greater than %v", t.Raw(i), *n.max) })
				if !bad() {
					return false
				}
			}
		}
	}
	for _, s := range n.allOf {
		if !v.check(s, i) && !bad() {
			return false
		}
	}
	if n.anyOf != nil {
		matched := false
		for _, s := range n.anyOf {
			if good, _ := v.sub(s, i, false); good {
				matched = true
				break
			}
		}
		if !matched {
			v.explain(n.anyOf, i, "anyOf")
			if !bad() {
				return false
			}
		}
	}
	if n.oneOf != nil {
		matches := 0
		for _, s := range n.oneOf {
			if good, _ := v.sub(s, i, false); good {
				matches++
			}
		}
		switch {
		case matches == 0:
			v.explain(n.oneOf, i, "oneOf")
			if !bad() {
				return false
			}
		case matches > 1:
			v.fail(i, "oneOf", func() string { return fmt.Sprintf("matches %d of the schemas in oneOf, expected exactly one", matches) })
			if !bad() {
				return false
			}
		}
	}
	if n.not != nil {
		if good, _ := v.sub(n.not, i, false); good {
			v.fail(i, "not", func() string {
				if n.not.trueSchema {
					return "is not allowed here"
				}
				return short(t.Raw(i)) + " is not allowed here"
			})
			if !bad() {
				return false
			}
		}
	}
	return ok
}

func (v *validator) number(i int) float64 {
	f, err := strconv.ParseFloat(string(v.t.Raw(i)), 64)
	if err != nil {
		switch string(v.t.Raw(i)) {
		case "NaN":
			return math.NaN()
		case "-Infinity":
			return math.Inf(-1)
		case "Infinity":
			return math.Inf(1)
		}
	}
	return f
}

// keyBytes returns the key of member j as written (for unescaped keys,
// its exact text).
func keyBytes(t *jsontree.Tape, j int) ([]byte, bool) {
	n := &t.Nodes[j]
	if n.Flags&jsontree.FlagKeyEscaped != 0 {
		return nil, false
	}
	return t.Data[n.Key+1 : n.KeyEnd-1], true
}

// members returns the members of object i to check: all of them, or, when
// a key occurs more than once, only its last occurrence (as Python keeps).
func (v *validator) members(i int) []int {
	t := v.t
	kids := make([]int, 0, t.Nodes[i].Len)
	t.Children(i, func(j int) bool {
		kids = append(kids, j)
		return true
	})
	dup := false
	escaped := false
	for _, j := range kids {
		if t.Nodes[j].Flags&jsontree.FlagKeyEscaped != 0 {
			escaped = true
		}
	}
	if !escaped && len(kids) <= 32 {
		for a := 0; a < len(kids) && !dup; a++ {
			ka, _ := keyBytes(t, kids[a])
			for b := a + 1; b < len(kids); b++ {
				if kb, _ := keyBytes(t, kids[b]); string(ka) == string(kb) {
					dup = true
					break
				}
			}
		}
		if !dup {
			return kids
		}
	}
	last := make(map[string]int, len(kids))
	for x, j := range kids {
		last[t.KeyString(j)] = x
	}
	if len(last) == len(kids) {
		return kids
	}
	out := kids[:0:0]
	for x, j := range kids {
		if last[t.KeyString(j)] == x {
			out = append(out, j)
		}
	}
	return out
}

func (v *validator) object(n *node, i int) bool {
	t := v.t
	ok := true
	kids := v.members(i)
	for _, r := range n.required {
		found := false
		for _, j := range kids {
			if t.KeyIs(j, r) {
				found = true
				break
			}
		}
		if !found {
			v.missing(i, r)
			ok = false
			if !v.report {
				return false
			}
		}
	}
	for _, k := range kids {
		var s *node
		var has bool
		var key string
		if kb, plain := keyBytes(t, k); plain {
			s, has = n.props[string(kb)]
		} else {
			key = t.KeyString(k)
			s, has = n.props[key]
		}
		matched := false
		if has {
			matched = true
			if !v.check(s, k) {
				ok = false
				if !v.report {
					return false
				}
			}
		}
		if len(n.patProps) > 0 {
			if key == "" {
				key = t.KeyString(k)
			}
			for _, pp := range n.patProps {
				if pp.re.MatchString(key) {
					matched = true
					if !v.check(pp.n, k) {
						ok = false
						if !v.report {
							return false
						}
					}
				}
			}
		}
		if matched {
			continue
		}
		if n.addlFalse {
			v.fail(k, "additionalProperties", func() string { return fmt.Sprintf("property %q is not allowed here", t.KeyString(k)) })
			ok = false
			if !v.report {
				return false
			}
		} else if n.addl != nil && !v.check(n.addl, k) {
			ok = false
			if !v.report {
				return false
			}
		}
	}
	return ok
}

func (v *validator) array(n *node, i int) bool {
	t := v.t
	ok := true
	x := 0
	t.Children(i, func(k int) bool {
		var s *node
		switch {
		case n.items != nil:
			s = n.items
		case x < len(n.itemsList):
			s = n.itemsList[x]
		}
		x++
		if s != nil && !v.check(s, k) {
			ok = false
			return v.report
		}
		return true
	})
	if !ok && !v.report {
		return false
	}
	if n.unique && t.Nodes[i].Len > 1 {
		seen := make(map[string]int, t.Nodes[i].Len)
		x := 0
		t.Children(i, func(k int) bool {
			key := canonicalKey(t, k)
			if y, dup := seen[key]; dup {
				xx := x
				v.fail(k, "uniqueItems", func() string { return fmt.Sprintf("item %d equals item %d", xx, y) })
				ok = false
				if !v.report {
					return false
				}
			} else {
				seen[key] = x
			}
			x++
			return true
		})
	}
	return ok
}

// explain reports why no branch of a oneOf/anyOf matched node i, through
// the branch the value was meant for.
func (v *validator) explain(branches []*node, i int, keyword string) {
	t := v.t
	if !v.report {
		return
	}
	if t.Nodes[i].Kind == jsontree.Object {
		// A discriminating property: one that the branches constrain with
		// an enum (cell_type, output_type).
		if key, enums := discriminator(branches); key != "" {
			k := t.Lookup(i, key)
			if k < 0 {
				v.missing(i, key)
				return
			}
			for b, e := range enums {
				if e != nil && v.inEnum(k, e) {
					_, probs := v.sub(branches[b], i, true)
					v.absorb(probs, i, keyword)
					return
				}
			}
			// A branch that takes the other values (unrecognized_cell).
			for b, e := range enums {
				if e == nil {
					_, probs := v.sub(branches[b], i, true)
					v.absorb(probs, i, keyword)
					return
				}
			}
			var all []any
			for _, e := range enums {
				all = append(all, e...)
			}
			v.fail(k, "enum", func() string { return short(t.Raw(k)) + " is not one of " + enumList(all) })
			return
		}
	}
	// Otherwise the branch of the value's type, if exactly one has it.
	bits := v.kindBits(i)
	var cands []int
	var types uint8
	for b, s := range branches {
		s = deref(s)
		types |= s.types
		if s.types == 0 || s.types&bits != 0 {
			cands = append(cands, b)
		}
	}
	if len(cands) == 1 {
		_, probs := v.sub(branches[cands[0]], i, true)
		v.absorb(probs, i, keyword)
		return
	}
	if len(cands) == 0 && types != 0 {
		v.fail(i, "type", func() string { return "is " + v.kindName(i) + ", expected " + typeNames(types) })
		return
	}
	v.fail(i, keyword, func() string { return short(t.Raw(i)) + " matches none of the allowed schemas" })
}

// absorb adds a branch's problems (there is at least one: the branch
// failed).
func (v *validator) absorb(probs []Problem, i int, keyword string) {
	if len(probs) == 0 {
		v.fail(i, keyword, func() string { return "matches none of the allowed schemas" })
		return
	}
	v.problems = append(v.problems, probs...)
}

func deref(s *node) *node {
	for s.refNode != nil {
		s = s.refNode
	}
	return s
}

// discriminator finds a property that every branch constrains with an enum
// (directly or through a $ref); it returns the property and each branch's
// enum (nil for branches that constrain it otherwise, such as
// unrecognized_cell's "not").
func discriminator(branches []*node) (string, [][]any) {
	first := deref(branches[0])
	keys := make([]string, 0, len(first.props))
	for key := range first.props {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		enums := make([][]any, len(branches))
		found := 0
		for b, s := range branches {
			s = deref(s)
			ps, has := s.props[key]
			if !has {
				found = -1
				break
			}
			ps = deref(ps)
			if ps.enum != nil {
				enums[b] = ps.enum
				found++
			}
		}
		if found >= 2 {
			return key, enums
		}
	}
	return "", nil
}

// inEnum compares as Python's == does: numbers by value (true == 1, false
// == 0), strings, null, arrays and objects structurally.
func (v *validator) inEnum(i int, enum []any) bool {
	t := v.t
	if t.Nodes[i].Kind == jsontree.String {
		// The common case, without decoding: string enums.
		for _, e := range enum {
			if s, ok := e.(string); ok && t.StrIs(i, s) {
				return true
			}
		}
		return false
	}
	x := pyValue(t, i)
	for _, e := range enum {
		if pyEqual(x, fromJSON(e)) {
			return true
		}
	}
	return false
}

// pyValue converts node i for Python-style comparison: numbers (and
// booleans) as float64.
func pyValue(t *jsontree.Tape, i int) any {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case jsontree.Null:
		return nil
	case jsontree.True:
		return 1.0
	case jsontree.False:
		return 0.0
	case jsontree.String:
		return t.Str(i)
	case jsontree.Number:
		f, err := strconv.ParseFloat(string(t.Raw(i)), 64)
		if err != nil && nd.Flags&jsontree.FlagNonFinite != 0 {
			switch string(t.Raw(i)) {
			case "NaN":
				return math.NaN()
			case "Infinity":
				return math.Inf(1)
			default:
				return math.Inf(-1)
			}
		}
		return f
	case jsontree.Array:
		var a []any
		t.Children(i, func(k int) bool {
			a = append(a, pyValue(t, k))
			return true
		})
		return a
	case jsontree.Object:
		m := map[string]any{}
		t.Children(i, func(k int) bool {
			m[t.KeyString(k)] = pyValue(t, k)
			return true
		})
		return m
	}
	return nil
}

func fromJSON(e any) any {
	switch e := e.(type) {
	case bool:
		if e {
			return 1.0
		}
		return 0.0
	case json.Number:
		f, _ := e.Float64()
		return f
	case []any:
		out := make([]any, len(e))
		for i, x := range e {
			out[i] = fromJSON(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(e))
		for k, x := range e {
			out[k] = fromJSON(x)
		}
		return out
	}
	return e
}

func pyEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !pyEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !pyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return a == b
}

// canonicalKey is a string that is equal exactly when fastjsonschema's
// uniqueItems sees equal values. It hashes fn(value), where fn turns
// objects into frozensets of (key, fn(member)) pairs, arrays into tuples
// of fn(item), booleans into the strings "True" and "False" (so true
// equals "True" but not 1), and keeps numbers, whose Python equality makes
// 1 equal 1.0 (and every NaN of a file equal, as Python's json reads them
// all as one object).
func canonicalKey(t *jsontree.Tape, i int) string {
	var b strings.Builder
	writeKey(&b, t, i)
	return b.String()
}

func writeKey(b *strings.Builder, t *jsontree.Tape, i int) {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case jsontree.Null:
		b.WriteString("n;")
	case jsontree.True:
		writeStrKey(b, "True")
	case jsontree.False:
		writeStrKey(b, "False")
	case jsontree.String:
		writeStrKey(b, t.Str(i))
	case jsontree.Number:
		b.WriteString("d")
		b.WriteString(numberKey(t.Raw(i), nd.Flags))
		b.WriteString(";")
	case jsontree.Array:
		b.WriteString("[")
		t.Children(i, func(k int) bool {
			writeKey(b, t, k)
			return true
		})
		b.WriteString("]")
	case jsontree.Object:
		// A dict keeps the last of duplicate keys; a frozenset has no order.
		members := map[string]string{}
		t.Children(i, func(k int) bool {
			var m strings.Builder
			writeKey(&m, t, k)
			members[t.KeyString(k)] = m.String()
			return true
		})
		pairs := make([]string, 0, len(members))
		for k, v := range members {
			var p strings.Builder
			writeStrKey(&p, k)
			p.WriteString(v)
			pairs = append(pairs, p.String())
		}
		sort.Strings(pairs)
		b.WriteString("{")
		for _, p := range pairs {
			fmt.Fprintf(b, "%d:%s", len(p), p)
		}
		b.WriteString("}")
	}
}

func writeStrKey(b *strings.Builder, s string) {
	fmt.Fprintf(b, "s%d:%s", len(s), s)
}

// numberKey spells a JSON number so that numbers Python finds equal
// (int 1, float 1.0 and 1e0) are spelled alike: integral values as their
// exact integer, others as the shortest float64 spelling.
func numberKey(raw []byte, flags uint8) string {
	if flags&jsontree.FlagNonFinite != 0 {
		return string(raw)
	}
	if flags&jsontree.FlagInt != 0 {
		var n big.Int
		if _, ok := n.SetString(string(raw), 10); ok {
			return n.String()
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil { // out of range: Python reads it as inf
		if raw[0] == '-' {
			return "-Infinity"
		}
		return "Infinity"
	}
	if math.IsInf(f, 0) {
		if f < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	if f == math.Trunc(f) {
		n, _ := big.NewFloat(f).Int(nil)
		return n.String()
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func short(raw []byte) string {
	s := string(raw)
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:57]) + "…"
	}
	return s
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		b, _ := json.Marshal(e)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}
