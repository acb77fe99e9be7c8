package draft04

// Validate and Valid: checking a tape's node against the compiled schema, and
// the problems found, in document order with their pointers.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

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
// problem, in document order. (Not inlined: the validator it holds stays
// out of its caller's frame.)
//
//go:noinline
func (s *Schema) Validate(t *jsontree.Tape, i int) []Problem {
	v := validator{t: t, report: true}
	return s.validate(&v, i)
}

// validate runs v (reporting) on node i and places its problems.
func (s *Schema) validate(v *validator, i int) []Problem {
	v.check(s.root, i)
	if len(v.problems) > 0 {
		place(v.t, v.problems)
	}
	return v.problems
}

// place sorts problems into document order and sets their pointers (out
// of validate, whose frame is on the stack while the schema is checked).
func place(t *jsontree.Tape, problems []Problem) {
	if len(problems) > 1 {
		sort.SliceStable(problems, func(a, b int) bool {
			return t.Nodes[problems[a].Node].Start < t.Nodes[problems[b].Node].Start
		})
	}
	ptr := pointers(t)
	for k := range problems {
		problems[k].Pointer = ptr(problems[k].Node)
	}
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
		if k := t.Nodes[i].Kind; k != jsontree.Array && k != jsontree.Object || t.Lazy(i) {
			continue
		}
		x := int32(0)
		t.Children(i, func(j int) bool {
			parent[j], index[j] = int32(i), x
			x++
			return true
		})
	}
	esc := pointerEscaper
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

// pointerEscaper escapes a JSON Pointer token (safe for concurrent use).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

type validator struct {
	t        *jsontree.Tape
	report   bool // collect every problem (else stop at the first)
	problems []Problem
	checks   int // calls of check: the work done (tests)
	// exhaustive turns the shortcuts off (tests): every branch of a oneOf
	// or anyOf is tried, every object takes the general path.
	exhaustive bool
	// known is a member found valid against knownSchema while choosing
	// a oneOf/anyOf branch by it (see matches): checking it again is
	// skipped.
	known       int
	knownSchema *node
}

// fail records a problem at node i; the message is built only when
// problems are being collected (by record, out of line: the code that
// builds messages stays out of the frames of the checks, which recurse).
func (v *validator) fail(i int, keyword string, msg func() string) {
	if v.report {
		v.record(i, keyword, msg)
	}
}

//go:noinline
func (v *validator) record(i int, keyword string, msg func() string) {
	v.problems = append(v.problems, Problem{Node: i, Keyword: keyword, Msg: msg()})
}

// missing records that object node i lacks the required member name.
//
//go:noinline
func (v *validator) missing(i int, name string) {
	if v.report {
		v.problems = append(v.problems, Problem{Node: i, Keyword: "required", Msg: fmt.Sprintf("missing property %q", name), Member: name})
	}
}

// quietly reports whether node i is valid against n, recording nothing.
func (v *validator) quietly(n *node, i int) bool {
	report := v.report
	v.report = false
	ok := v.check(n, i)
	v.report = report
	return ok
}

// kindBits returns the type bits of node i's value.
func (v *validator) kindBits(i int) uint8 { return classBits[v.classOf(i)] }

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
//
// It is the one step of the recursion per value: the checks of a value's
// members or items (onePass, array) call it back, as does a oneOf or anyOf
// (matches) for each branch tried. It keeps a small frame: what fails
// is explained by functions out of line, and the checks of strings and
// numbers are called only for schemas with such keywords. (A deep stack
// then costs ~2-3 frames of ~100-200 bytes per level of the document.)
func (v *validator) check(n *node, i int) bool {
	v.checks++
	nd := &v.t.Nodes[i]
	cl := classTable[nd.Kind&7][nd.Flags]
	if !v.exhaustive {
		// What compiling found out about values of i's class.
		switch n.verdicts[cl] {
		case yes:
			return true
		case no:
			if !v.report {
				return false
			}
		}
	}
	if n.trueSchema {
		return true
	}
	if n.refNode != nil {
		// A $ref in draft-04 replaces its siblings.
		return v.check(n.refNode, i)
	}
	// The keywords about the value itself: type, enum, and those of its
	// kind.
	ok := true
	if n.types != 0 && classBits[cl]&n.types == 0 {
		v.typeFailed(n.types, i)
		if !v.report {
			return false
		}
		ok = false
	}
	if n.enum != nil && !v.inEnum(i, n) {
		v.enumFailed(n, i)
		if !v.report {
			return false
		}
		ok = false
	}
	switch nd.Kind {
	case jsontree.Object:
		// (object written out: one frame fewer per level.)
		if n.readsMembers {
			if v.exhaustive || len(n.props.names) > maxDispatchProps {
				ok = v.general(n, i) && ok
			} else {
				ok = v.onePass(n, i) && ok
			}
		}
	case jsontree.Array:
		if !v.array(n, i) {
			ok = false
		}
	case jsontree.String:
		if n.readsStrings && !v.checkString(n, i) {
			ok = false
		}
	case jsontree.Number:
		if (n.min != nil || n.max != nil) && !v.checkNumber(n, i) {
			ok = false
		}
	}
	if !n.combines || !ok && !v.report {
		return ok
	}
	return v.checkCombined(n, i) && ok
}

// typeFailed records that node i has none of the types.
//
//go:noinline
func (v *validator) typeFailed(types uint8, i int) {
	v.fail(i, "type", func() string { return "is " + v.kindName(i) + ", expected " + typeNames(types) })
}

// enumFailed records that node i is not in n's enum.
//
//go:noinline
func (v *validator) enumFailed(n *node, i int) {
	v.fail(i, "enum", func() string { return short(v.t.Raw(i)) + " is not one of " + enumList(n.enum) })
}

// checkString checks a string against minLength, maxLength and pattern.
func (v *validator) checkString(n *node, i int) bool {
	s := v.t.StrBytes(i)
	l := len(s) // (an ASCII string without escapes has a character per byte)
	if v.t.Nodes[i].Flags&(jsontree.FlagASCII|jsontree.FlagEscaped) != jsontree.FlagASCII {
		l = utf8.RuneCount(s)
	}
	if (n.minLen < 0 || l >= n.minLen) && (n.maxLen < 0 || l <= n.maxLen) && (n.pattern == nil || n.pattern.Match(s)) {
		return true
	}
	v.stringFailed(n, i, s, l)
	return false
}

// stringFailed records the problems of string i, whose text s has l
// characters, which fails n.
//
//go:noinline
func (v *validator) stringFailed(n *node, i int, s []byte, l int) {
	if !v.report {
		return
	}
	t := v.t
	if n.minLen >= 0 && l < n.minLen {
		v.fail(i, "minLength", func() string { return fmt.Sprintf("%s is shorter than %d characters", short(t.Raw(i)), n.minLen) })
	}
	if n.maxLen >= 0 && l > n.maxLen {
		v.fail(i, "maxLength", func() string { return fmt.Sprintf("%s is longer than %d characters", short(t.Raw(i)), n.maxLen) })
	}
	if n.pattern != nil && !n.pattern.Match(s) {
		v.fail(i, "pattern", func() string { return short(t.Raw(i)) + " does not match " + n.patternSrc })
	}
}

// checkNumber checks a number against minimum and maximum (and their
// exclusive forms).
func (v *validator) checkNumber(n *node, i int) bool {
	f := pyNumber(v.t, i)
	if (n.min == nil || !(f < *n.min || n.exclMin && f == *n.min)) &&
		(n.max == nil || !(f > *n.max || n.exclMax && f == *n.max)) {
		return true
	}
	v.numberFailed(n, i, f)
	return false
}

// numberFailed records the problems of number i, of value f, which fails
// n.
//
//go:noinline
func (v *validator) numberFailed(n *node, i int, f float64) {
	if !v.report {
		return
	}
	t := v.t
	if n.min != nil && (f < *n.min || n.exclMin && f == *n.min) {
		v.fail(i, "minimum", func() string { return fmt.Sprintf("%s is less than %v", t.Raw(i), *n.min) })
	}
	if n.max != nil && (f > *n.max || n.exclMax && f == *n.max) {
		v.fail(i, "maximum", func() string { return fmt.Sprintf("%s is greater than %v", t.Raw(i), *n.max) })
	}
}

// checkCombined checks node i against the schemas n combines: allOf,
// anyOf, oneOf and not.
func (v *validator) checkCombined(n *node, i int) bool {
	ok := true
	for _, s := range n.allOf {
		if !v.check(s, i) {
			if ok = false; !v.report {
				return false
			}
		}
	}
	if n.anyOf != nil && v.matches(n.anyOf, i, 1) == 0 {
		v.explain(n.anyOf, i, "anyOf")
		if ok = false; !v.report {
			return false
		}
	}
	if n.oneOf != nil {
		if matches := v.matches(n.oneOf, i, 0); matches != 1 {
			if matches == 0 {
				v.explain(n.oneOf, i, "oneOf")
			} else {
				v.oneOfCount(i, matches)
			}
			if ok = false; !v.report {
				return false
			}
		}
	}
	if n.not != nil && v.quietly(n.not, i) {
		v.notFailed(n.not, i)
		ok = false
	}
	return ok
}

// oneOfCount records that node i matches matches branches of its oneOf,
// not one.
//
//go:noinline
func (v *validator) oneOfCount(i, matches int) {
	v.fail(i, "oneOf", func() string { return fmt.Sprintf("matches %d of the schemas in oneOf, expected exactly one", matches) })
}

// notFailed records that node i matches not, which it must not.
//
//go:noinline
func (v *validator) notFailed(not *node, i int) {
	v.fail(i, "not", func() string {
		if not.trueSchema {
			return "is not allowed here"
		}
		return short(v.t.Raw(i)) + " is not allowed here"
	})
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
