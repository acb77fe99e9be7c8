package nbformat

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/draft04"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/stackroom"
	"github.com/nbdialog/ipynb/schema"
)

// Validate checks nb against the official schema of its own version, as
// Python nbformat's isvalid does (without its silent id repair): nbformat
// 4.0 to 4.5 and 3.0 each against their own schema; a newer minor version
// against the latest schema of its major version, relaxed as nbformat relaxes
// it (unknown members, cell and output types allowed); versions 1 and 2
// have no schema and are reported invalid. For 4.5 and later, cell ids must
// also be unique.
//
// It returns nil, or an error joining one *[ValidationError] per problem,
// in document order (use [Problems] to list them; errors.Is(err,
// ErrMissingMember) and the other causes match through it). The error
// pointers refer to the notebook as [Marshal] writes it. Any other error
// means the notebook could not be checked (it cannot be written, say):
// Problems returns nil for it. Validate changes nothing.
func Validate(nb *Notebook) error {
	stackroom.Ensure(stackroom.Notebook)
	t, err := nb.tape()
	if err != nil {
		return err
	}
	found := nb.problems(t)
	if len(found) == 0 {
		return nil
	}
	probs := make([]*ValidationError, len(found))
	for i, f := range found {
		probs[i] = f.err
	}
	if nb.src != nil && t == nb.src.tape {
		placeProblems(t.Data, probs)
	}
	errs := make([]error, len(probs))
	for i, p := range probs {
		errs[i] = p
	}
	return errors.Join(errs...)
}

// Problems returns the *ValidationError values in an error returned by
// Validate (nil for other errors).
func Problems(err error) []*ValidationError {
	var out []*ValidationError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case *ValidationError:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return out
}

// tape returns the notebook as it would be written, parsed.
func (nb *Notebook) tape() (*jsontree.Tape, error) {
	if nb.src != nil {
		if nb.unedited() {
			if nb.dropBOM && nb.src.tape.BOM {
				// Heal removed the byte-order mark: the bytes written have none.
				t := *nb.src.tape
				t.BOM = false
				return &t, nil
			}
			return nb.src.tape, nil
		}
	}
	return nb.encodedTape()
}

// encodedTape returns what the encoder writes for nb, parsed: tape, for
// a notebook known not to be as read (or written as the encoder writes it
// all the same: the encoder copies an unedited notebook's bytes), without
// asking again (Marshal's asRead would).
func (nb *Notebook) encodedTape() (*jsontree.Tape, error) {
	if err := nilVariantError(nb); err != nil {
		return nil, err
	}
	var data []byte
	err := nb.encode(func(pieces ...[]byte) error {
		if len(pieces) == 1 { // the encoder's own buffer
			data = pieces[0]
			return nil
		}
		data = join(pieces)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return parseWritten(data)
}

// parseWritten parses the bytes written for a notebook.
func parseWritten(data []byte) (*jsontree.Tape, error) {
	t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
	if err != nil {
		return nil, syntaxError("", data, err)
	}
	return t, nil
}

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
		if data, err = draft04.AppendOneOfRef(data, "cell", "#/definitions/unrecognized_cell"); err == nil {
			data, err = draft04.AppendOneOfRef(data, "output", "#/definitions/unrecognized_output")
		}
		if err != nil {
			return nil, err
		}
	}
	return draft04.Compile(data, future)
}

func validateTape(t *jsontree.Tape) []*ValidationError {
	found := locateProblems(t)
	out := make([]*ValidationError, len(found))
	for i, f := range found {
		out[i] = f.err
	}
	return out
}

// lazyFallbacks counts validations that needed a full parse (tests).
var lazyFallbacks atomic.Int64

// schemaRuns counts validations against a schema (tests).
var schemaRuns atomic.Int64

// problems is locateProblems(t) for the notebook nb on tape t, the same
// answer for the same bytes: the problems of the bytes nb was read from
// (t is its source's tape: nb is unedited) are found once and remembered,
// and each call gets its own copies (callers set their lines and columns).
// Validating an unedited notebook again (Validate twice, Validate then
// Heal) then costs only the check that it is unedited.
func (nb *Notebook) problems(t *jsontree.Tape) []located {
	if nb.src == nil || t != nb.src.tape {
		return locateProblems(t)
	}
	if p := nb.src.problems.Load(); p != nil {
		return copyLocated(*p)
	}
	found := locateProblems(t)
	if len(found) == 0 {
		nb.src.problems.Store(&noProblems) // (a valid notebook's memo allocates nothing)
		return found
	}
	kept := copyLocated(found)
	nb.src.problems.Store(&kept)
	return found
}

// noProblems is the memo of every notebook read from valid bytes (see
// problems): an empty list, shared, which nothing appends to (readers
// copy it: copyLocated of an empty list is nil).
var noProblems = []located{}

// copyLocated copies found and the problems it points to.
func copyLocated(found []located) []located {
	if len(found) == 0 {
		return nil
	}
	out := make([]located, len(found))
	for i, f := range found {
		e := *f.err
		out[i] = located{f.node, &e}
	}
	return out
}

// locateProblems validates the notebook on t and returns each problem with
// the tape node it is about, in document order. The tape's lazy nodes hold
// nothing the schemas read (see notebookShape); should the validator need
// one's interior all the same, it validates a full parse instead, and the
// nodes returned are that parse's (only Heal reads them, and it reads a
// full tape whenever there are problems).
func locateProblems(t *jsontree.Tape) (found []located) {
	if t.HasLazy() {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if _, ok := r.(*jsontree.LazyError); !ok {
				panic(r)
			}
			full, err := t.Full()
			if err != nil {
				panic(r)
			}
			lazyFallbacks.Add(1)
			found = locateProblems(full)
		}()
	}
	root := jsontree.Root
	if t.Nodes[root].Kind != jsontree.Object {
		return []located{{root, newValidationError("", "type", "", "a notebook is a JSON object")}}
	}
	major, minor := 1, 0
	if k := t.Lookup(root, "nbformat"); k >= 0 {
		v, ok := jsontree.NumberValue(t.Raw(k), t.Nodes[k].Flags).(int)
		if t.Nodes[k].Kind != jsontree.Number || !ok {
			return []located{{k, newValidationError("/nbformat", "type", "", fmt.Sprintf("%s is not an integer", t.Raw(k))).at(t, k)}}
		}
		major = v
	}
	if k := t.Lookup(root, "nbformat_minor"); k >= 0 {
		v, ok := jsontree.NumberValue(t.Raw(k), t.Nodes[k].Flags).(int)
		if t.Nodes[k].Kind != jsontree.Number || !ok {
			return []located{{k, newValidationError("/nbformat_minor", "type", "", fmt.Sprintf("%s is not an integer", t.Raw(k))).at(t, k)}}
		}
		minor = v
	}
	s, err := schemaFor(major, minor)
	schemaRuns.Add(1)
	if err != nil {
		return []located{{root, newValidationError("/nbformat", "nbformat", "", fmt.Sprintf("no schema for validating v%d.%d notebooks", major, minor))}}
	}
	found = nil
	for _, p := range s.Validate(t, root) {
		member := p.Member
		if p.Keyword == "additionalProperties" {
			member = t.KeyString(p.Node)
		}
		found = append(found, located{p.Node, newValidationError(Pointer(p.Pointer), p.Keyword, member, p.Msg)})
	}
	if cellid.Written(major, minor) {
		found = append(found, duplicateIDs(t)...)
	}
	// Document order.
	if len(found) > 1 {
		sort.SliceStable(found, func(a, b int) bool { return t.Nodes[found[a].node].Start < t.Nodes[found[b].node].Start })
	}
	for _, f := range found {
		f.err.at(t, f.node)
	}
	return found
}

// placeProblems sets the line and column of problems whose offsets are
// known, in one pass over data (probs are in document order): the lines
// between two problems are counted, and the column is the distance from
// the last line's start, each by a vectorized search (bytes.Count,
// bytes.LastIndexByte) rather than a loop over every byte.
func placeProblems(data []byte, probs []*ValidationError) {
	line, col, off := 1, 1, int64(0)
	for _, p := range probs {
		if p.offset < off || p.offset > int64(len(data)) {
			if p.offset >= 0 && p.offset <= int64(len(data)) {
				p.Line, p.Column = jsontree.Position(data, p.offset)
			}
			continue
		}
		span := data[off:p.offset]
		if nl := bytes.LastIndexByte(span, '\n'); nl >= 0 {
			line += bytes.Count(span[:nl+1], []byte{'\n'})
			col = len(span) - nl
		} else {
			col += len(span)
		}
		off = p.offset
		p.Line, p.Column = line, col
	}
}

// located is a problem and the node it is about.
type located struct {
	node int
	err  *ValidationError
}

// duplicateIDs reports cells whose id an earlier cell already has.
func duplicateIDs(t *jsontree.Tape) []located {
	cells := t.Lookup(jsontree.Root, "cells")
	if cells < 0 || t.Nodes[cells].Kind != jsontree.Array {
		return nil
	}
	if t.Lazy(cells) {
		t.ChildList(cells) // panics with the tape's *LazyError, as every reader of children does
	}
	if t.Nodes[cells].Len <= maxTableIDs {
		if out, ok := duplicateIDsTable(t, cells); ok {
			return out
		}
	}
	return duplicateIDsMap(t, cells)
}

// duplicateID is the problem of cell i, whose id (member k) is the id of
// cell first.
func duplicateID(t *jsontree.Tape, k, i, first int) located {
	return located{k, newValidationError(Pointer("").appendToken("cells").appendIndex(i).appendToken("id"), "unique", "",
		fmt.Sprintf("cell id %s is already the id of /cells/%d", t.Raw(k), first))}
}

// duplicateIDsMap is duplicateIDs for any cells: ids are compared through
// a map of their JSON texts.
func duplicateIDsMap(t *jsontree.Tape, cells int) []located {
	var out []located
	seen := make(map[string]int, t.Nodes[cells].Len)
	i := -1
	for c := cells + 1; i+1 < int(t.Nodes[cells].Len); c = int(t.Nodes[c].Skip) {
		i++
		if t.Nodes[c].Kind != jsontree.Object {
			continue
		}
		k := t.Lookup(c, "id")
		if k < 0 {
			continue
		}
		// The key: the JSON text of the id, sharing the tape's bytes, for
		// strings without escapes and for other values; an escaped string
		// is unescaped (and quoted), so that equal strings meet.
		raw := t.Raw(k)
		key := unsafe.String(&raw[0], len(raw))
		if n := &t.Nodes[k]; n.Kind == jsontree.String && n.Flags&jsontree.FlagEscaped != 0 {
			key = `"` + t.Str(k) + `"`
		}
		if j, dup := seen[key]; dup {
			out = append(out, duplicateID(t, k, i, j))
			continue
		}
		seen[key] = i
	}
	return out
}

// maxTableIDs is the most cells duplicateIDsTable takes; idSlots (a power
// of two, at least twice as many) is the size of its table.
const (
	maxTableIDs = 128
	idSlots     = 256
)

// idSeed seeds the hashes of duplicateIDsTable (which decide only where
// in the table an id goes, never the result).
var idSeed = maphash.MakeSeed()

// duplicateIDsTable is duplicateIDs for at most maxTableIDs cells whose
// ids are all strings without escapes (it reports false otherwise): equal
// ids are then equal texts, found through a table on the stack, so that
// checking allocates nothing when no id repeats. The table is small (~900
// bytes: entries of a byte, pointing into the list of the ids seen), as
// it is zeroed on every call.
func duplicateIDsTable(t *jsontree.Tape, cells int) ([]located, bool) {
	var (
		slots  [idSlots]uint8     // an id seen, plus one (0: empty)
		idNode [maxTableIDs]int32 // of each id seen: its member
		cellOf [maxTableIDs]uint8 // and its cell's index
		seen   int                // ids seen
		out    []located
	)
	if t.Nodes[cells].Len > maxTableIDs {
		return nil, false
	}
	c := cells + 1
	for i := 0; i < int(t.Nodes[cells].Len); i, c = i+1, int(t.Nodes[c].Skip) {
		if t.Nodes[c].Kind != jsontree.Object {
			continue
		}
		k := memberOf(t, c, "id")
		if k < 0 {
			continue
		}
		if n := &t.Nodes[k]; n.Kind != jsontree.String || n.Flags&jsontree.FlagEscaped != 0 {
			return nil, false
		}
		raw := t.Raw(k)
		h := maphash.Bytes(idSeed, raw) & (idSlots - 1)
		for ; slots[h] != 0; h = (h + 1) & (idSlots - 1) {
			if e := slots[h] - 1; string(t.Raw(int(idNode[e]))) == string(raw) {
				out = append(out, duplicateID(t, k, i, int(cellOf[e])))
				break
			}
		}
		if slots[h] == 0 {
			idNode[seen], cellOf[seen] = int32(k), uint8(i)
			seen++
			slots[h] = uint8(seen)
		}
	}
	return out, true
}

// memberOf returns the member of object i (not lazy) with key, or -1, as
// t.Lookup does (the last of repeated keys), comparing keys' lengths
// before their bytes.
func memberOf(t *jsontree.Tape, i int, key string) int {
	if t.Lazy(i) {
		return t.Lookup(i, key) // (panics with the tape's *LazyError)
	}
	found := -1
	j := i + 1
	for c := t.Nodes[i].Len; c > 0; c-- {
		nd := &t.Nodes[j]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			if t.KeyIs(j, key) {
				found = j
			}
		} else if int(nd.KeyEnd-nd.Key-2) == len(key) && string(t.Data[nd.Key+1:nd.KeyEnd-1]) == key {
			found = j
		}
		j = int(nd.Skip)
	}
	return found
}
