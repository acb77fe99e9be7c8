// Package nbvalid checks a notebook's JSON against the official nbformat
// schema of its own version, as Python nbformat's isvalid does (without
// its silent id repair), over the tape of the JSON: package nbformat's
// Validate, with its cell id rule for 4.5 and later (unique ids).
package nbvalid

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/draft04"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/schema"
)

// A Problem is one way the notebook does not match its schema.
type Problem struct {
	Node    int    // the node of the tape checked it is about (see Check)
	Offset  int    // the offset of that node's value in the bytes
	Pointer string // RFC 6901: the value, or for "required" the object lacking Member
	Keyword string // the failing JSON Schema keyword ("unique" for cell ids)
	Member  string // the member missing ("required") or not allowed ("additionalProperties")
	Msg     string
}

// LazyFallbacks counts the checks that needed a full parse, SchemaRuns the
// checks against a schema (for the tests of package nbformat).
var LazyFallbacks, SchemaRuns atomic.Int64

type schemaKey struct{ major, minor int }

var compiled sync.Map // schemaKey → *compiledSchema

type compiledSchema struct {
	once sync.Once
	s    *draft04.Schema
	err  error
}

// knownSchemas holds the compiled schemas of versions 3.0–3.7 and 4.0–4.7
// once compiled, found by version alone (without naming the file).
var knownSchemas [2][8]atomic.Pointer[compiledSchema]

// schemaFor returns the compiled schema nbformat uses for major.minor.
// Once compiled, finding it reads no schema file and allocates nothing.
func schemaFor(major, minor int) (*draft04.Schema, error) {
	known := major >= 3 && major <= 4 && minor >= 0 && minor < len(knownSchemas[0])
	if known {
		if cs := knownSchemas[major-3][minor].Load(); cs != nil {
			return cs.s, cs.err
		}
	}
	_, future, err := schema.File(major, minor)
	if err != nil {
		return nil, err
	}
	key := schemaKey{major, minor}
	if future {
		key.minor = -1 // all future minors share the relaxed schema
	}
	c, ok := compiled.Load(key)
	if !ok {
		c, _ = compiled.LoadOrStore(key, &compiledSchema{})
	}
	cs := c.(*compiledSchema)
	cs.once.Do(func() { cs.s, cs.err = compileSchema(major, minor) })
	if known {
		knownSchemas[major-3][minor].Store(cs) // (compiled: once.Do has returned)
	}
	return cs.s, cs.err
}

// compileSchema compiles the official schema for major.minor, relaxed as
// nbformat relaxes it for a minor newer than the latest known.
func compileSchema(major, minor int) (*draft04.Schema, error) {
	data, future, err := schema.Official(major, minor)
	if err != nil {
		return nil, err
	}
	if future && major == 4 {
		// nbformat's _relax_additional_properties and _allow_undefined.
		return draft04.Compile(data, true, allowUndefined...)
	}
	return draft04.Compile(data, future)
}

// allowUndefined is nbformat's _allow_undefined: a future minor version's
// cells and outputs of unknown types are valid.
var allowUndefined = []draft04.Branch{
	{Def: "cell", Ref: "#/definitions/unrecognized_cell"},
	{Def: "output", Ref: "#/definitions/unrecognized_output"},
}

// Check validates the notebook on t and returns each problem with the
// tape node it is about, in document order. The tape's lazy nodes hold
// nothing the schemas read (see notebookShape); should the validator need
// one's interior all the same, it validates a full parse instead, and the
// nodes returned are that parse's (only Heal reads them, and it reads a
// full tape whenever there are problems).
func Check(t *jsontree.Tape) []Problem {
	if t.HasLazy() {
		return checkLazy(t)
	}
	return check(t)
}

// checkLazy is Check of a tape with lazy nodes: check, or, should the
// validator need a lazy node's interior, check of a full parse (counted in
// LazyFallbacks).
func checkLazy(t *jsontree.Tape) []Problem {
	return jsontree.OrFull(t, t, func(x *jsontree.Tape) []Problem {
		if x != t {
			LazyFallbacks.Add(1)
		}
		return check(x)
	})
}

// check is Check of a tape the validator reads whole (a lazy node it needs
// panics with *jsontree.LazyError). Its frame, on the stack while the
// schema is checked, is kept small: what comes before and after is in
// functions of their own.
func check(t *jsontree.Tape) []Problem {
	s, major, minor, bad := schemaOf(t)
	if bad != nil {
		return bad
	}
	found := collect(t, s.Validate(t, jsontree.Root))
	if cellid.Written(major, minor) {
		found = append(found, duplicateIDs(t)...)
	}
	return ordered(t, found)
}

// schemaOf returns the schema of the notebook's nbformat and
// nbformat_minor (1.0 when missing), or the problem that they are not
// integers or that no schema validates them.
func schemaOf(t *jsontree.Tape) (s *draft04.Schema, major, minor int, bad []Problem) {
	root := jsontree.Root
	if t.Nodes[root].Kind != jsontree.Object {
		return nil, 0, 0, []Problem{{Node: root, Keyword: "type", Msg: "a notebook is a JSON object"}}
	}
	major, minor = 1, 0
	if k := t.Lookup(root, "nbformat"); k >= 0 {
		v, ok := jsontree.NumberValue(t.Raw(k), t.Nodes[k].Flags).(int)
		if t.Nodes[k].Kind != jsontree.Number || !ok {
			return nil, 0, 0, []Problem{{Node: k, Pointer: "/nbformat", Keyword: "type", Msg: fmt.Sprintf("%s is not an integer", t.Raw(k))}}
		}
		major = v
	}
	if k := t.Lookup(root, "nbformat_minor"); k >= 0 {
		v, ok := jsontree.NumberValue(t.Raw(k), t.Nodes[k].Flags).(int)
		if t.Nodes[k].Kind != jsontree.Number || !ok {
			return nil, 0, 0, []Problem{{Node: k, Pointer: "/nbformat_minor", Keyword: "type", Msg: fmt.Sprintf("%s is not an integer", t.Raw(k))}}
		}
		minor = v
	}
	s, err := schemaFor(major, minor)
	SchemaRuns.Add(1)
	if err != nil {
		return nil, 0, 0, []Problem{{Node: root, Pointer: "/nbformat", Keyword: "nbformat", Msg: fmt.Sprintf("no schema for validating v%d.%d notebooks", major, minor)}}
	}
	return s, major, minor, nil
}

// collect returns the schema's problems ps as Check's.
func collect(t *jsontree.Tape, ps []draft04.Problem) []Problem {
	if len(ps) == 0 {
		return nil
	}
	found := make([]Problem, 0, len(ps))
	for _, p := range ps {
		member := p.Member
		if p.Keyword == "additionalProperties" {
			member = t.KeyString(p.Node)
		}
		found = append(found, Problem{Node: p.Node, Pointer: p.Pointer, Keyword: p.Keyword, Member: member, Msg: p.Msg})
	}
	return found
}

// ordered returns found in document order, with their offsets.
func ordered(t *jsontree.Tape, found []Problem) []Problem {
	if len(found) > 1 {
		sort.SliceStable(found, func(a, b int) bool { return t.Nodes[found[a].Node].Start < t.Nodes[found[b].Node].Start })
	}
	for i := range found {
		found[i].Offset = int(t.Nodes[found[i].Node].Start)
	}
	return found
}
