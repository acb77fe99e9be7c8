package main

// stripNotebook: nbstripout's rules applied to a parsed notebook of any
// version, as edits of its bytes that keep the rest of its layout.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// stripOptions are nbstripout's switches (FACTS e.4): what strip keeps.
type stripOptions struct {
	// keepOutput keeps the outputs of every cell that does not say
	// otherwise (--keep-output). Without it, the notebook's own
	// metadata.keep_output decides, as in nbstripout.
	keepOutput bool
	// keepCount keeps execution counts and prompt numbers (--keep-count).
	keepCount bool
	// stripInitCells strips cells with metadata.init_cell too
	// (--strip-init-cells).
	stripInitCells bool
	// keys are removed as nbstripout's pop_recursive removes them:
	// "metadata.PATH" from the notebook's metadata, "cell.PATH" from every
	// cell, PATH a dot-separated list of nested keys.
	keys []string
}

// A stripChange is one thing strip did, for -v.
type stripChange struct {
	Pointer string // where, as a JSON Pointer
	What    string
}

// errStrip marks a notebook strip refuses because it cannot remove every
// output from it safely.
var errStrip = errors.New("cannot strip")

// A stripError names the place in a notebook that strip refuses.
type stripError struct {
	Pointer string
	Msg     string
}

func (e *stripError) Error() string {
	return fmt.Sprintf("%s: %s: %s", displayPointer(e.Pointer), errStrip, e.Msg)
}

func (e *stripError) Unwrap() error { return errStrip }

// stripNotebook applies nbstripout's rules to a notebook of any version
// (1 to 4) and returns its new bytes and what changed. It works on the
// JSON itself, so every byte it does not change stays as it was: the file
// keeps its own style, and cells of unknown type, invalid cells and
// version 3 worksheets are stripped like any other. Wherever they are —
// in /cells or /worksheets/N/cells, whatever the cell's type, whatever
// the value of "outputs" — outputs are removed, counts set to null, and
// every occurrence of a duplicated key is treated. A cell list or cell
// that is an object or array of unexpected shape, which could hold
// outputs strip cannot recognise, is an error: strip never succeeds with
// an output left. With no change, data itself is returned.
func stripNotebook(data []byte, opt stripOptions) ([]byte, []stripChange, error) {
	s := &stripper{opt: opt}
	return s.strip(data)
}

func (s *stripper) strip(data []byte) ([]byte, []stripChange, error) {
	t, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: maxDepth, MaxString: maxString})
	major := 0
	if err == nil {
		major = notebookMajor(t)
	}
	if err != nil || major == 0 {
		// Let the notebook reader give the error, with its position.
		if _, nerr := unmarshalOwned(data); nerr != nil {
			return nil, nil, nerr
		}
		if err == nil {
			err = errors.New("not a notebook")
		}
		return nil, nil, err
	}
	s.t, s.major, s.dels, s.deleted = t, major, map[int][]int{}, map[int]bool{}
	if err := s.notebook(); err != nil {
		return nil, nil, err
	}
	if len(s.edits) == 0 && len(s.dels) == 0 {
		return data, nil, nil
	}
	return s.apply(), s.changes, nil
}

// notebookMajor returns the nbformat major version of a parsed notebook,
// or 0 when the root is not an object with an integer nbformat from 1 to
// majorVersion.
func notebookMajor(t *jsontree.Tape) int {
	if t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return 0
	}
	v := t.Lookup(jsontree.Root, "nbformat")
	if v < 0 || t.Nodes[v].Kind != jsontree.Number || t.Nodes[v].Flags&jsontree.FlagInt == 0 {
		return 0
	}
	n, err := strconv.Atoi(string(t.Raw(v)))
	if err != nil || n < 1 || n > majorVersion {
		return 0
	}
	return n
}

// An edit replaces data[start:end] with repl.
type edit struct {
	start, end int32
	repl       string
}

type stripper struct {
	t       *jsontree.Tape
	opt     stripOptions
	major   int
	edits   []edit
	dels    map[int][]int // object node → member nodes to remove
	deleted map[int]bool  // member nodes to remove
	changes []stripChange
	steps   int // values visited, for the scaling test
}

func (s *stripper) note(ptr, what string) {
	s.changes = append(s.changes, stripChange{Pointer: ptr, What: what})
}

// members calls f for each member of object o with key k (every
// occurrence, for duplicated keys).
func (s *stripper) members(o int, k string, f func(j int)) {
	if s.t.Nodes[o].Kind != jsontree.Object {
		return
	}
	s.t.Children(o, func(j int) bool {
		s.steps++
		if s.t.KeyIs(j, k) {
			f(j)
		}
		return true
	})
}

// last returns the member of object o with key k that Python sees (the
// last occurrence), or -1.
func (s *stripper) last(o int, k string) int {
	if o < 0 || s.t.Nodes[o].Kind != jsontree.Object {
		return -1
	}
	return s.t.Lookup(o, k)
}

func (s *stripper) notebook() error {
	t := s.t
	root := jsontree.Root
	keepDefault := s.opt.keepOutput
	if !keepDefault {
		// nbstripout: without --keep-output, the notebook's
		// metadata.keep_output decides.
		if k := s.last(s.last(root, "metadata"), "keep_output"); k >= 0 {
			keepDefault = s.truthy(k)
		}
	}
	for _, key := range s.opt.keys {
		if path, ok := strings.CutPrefix(key, "metadata."); ok {
			s.members(root, "metadata", func(m int) { s.pop(m, path, "/metadata") })
		}
	}
	// Python nbformat's writer drops transient keys, so nbstripout's
	// output never has them (v4/rwbase.py, v3/rwbase.py strip_transient).
	if s.major >= 4 {
		s.members(root, "metadata", func(m int) {
			for _, k := range []string{"orig_nbformat", "orig_nbformat_minor", "signature"} {
				s.pop(m, k, "/metadata")
			}
		})
	} else {
		for _, k := range []string{"orig_nbformat", "orig_nbformat_minor"} {
			s.pop(root, k, "")
		}
	}
	var err error
	s.members(root, "cells", func(c int) {
		if err == nil {
			err = s.cells(c, "/cells", keepDefault)
		}
	})
	s.members(root, "worksheets", func(w int) {
		if err != nil {
			return
		}
		switch t.Nodes[w].Kind {
		case jsontree.Object:
			err = &stripError{"/worksheets", "is an object, not a list of worksheets"}
		case jsontree.Array:
			i := 0
			t.Children(w, func(ws int) bool {
				ptr := "/worksheets/" + strconv.Itoa(i)
				i++
				switch t.Nodes[ws].Kind {
				case jsontree.Object:
					s.members(ws, "cells", func(c int) {
						if err == nil {
							err = s.cells(c, ptr+"/cells", keepDefault)
						}
					})
				case jsontree.Array:
					err = &stripError{ptr, "is a list, not a worksheet"}
				}
				return err == nil
			})
		}
	})
	return err
}

// cells strips a list of cells. A value that cannot hold cells (a string,
// a number) is left alone; an object could, and is refused.
func (s *stripper) cells(c int, ptr string, keepDefault bool) error {
	t := s.t
	switch t.Nodes[c].Kind {
	case jsontree.Object:
		return &stripError{ptr, "is an object, not a list of cells"}
	case jsontree.Array:
	default:
		return nil
	}
	i := 0
	var err error
	t.Children(c, func(cell int) bool {
		s.steps++
		p := ptr + "/" + strconv.Itoa(i)
		i++
		switch t.Nodes[cell].Kind {
		case jsontree.Object:
			err = s.cell(cell, p, keepDefault)
		case jsontree.Array:
			err = &stripError{p, "is a list, not a cell"}
		}
		return err == nil
	})
	return err
}

// cell strips one cell, of any type, following nbstripout's strip_output.
func (s *stripper) cell(c int, ptr string, keepDefault bool) error {
	t := s.t
	keep, err := s.keepOutput(c, ptr, keepDefault)
	if err != nil {
		return err
	}
	s.members(c, "outputs", func(o int) {
		n := &t.Nodes[o]
		if !keep {
			if n.Kind == jsontree.Array && n.Len == 0 {
				return
			}
			s.edits = append(s.edits, edit{n.Start, n.End, "[]"})
			if n.Kind == jsontree.Array {
				s.note(ptr+"/outputs", fmt.Sprintf("removed %d output%s", n.Len, plural(int(n.Len))))
			} else {
				s.note(ptr+"/outputs", fmt.Sprintf("removed outputs (%s %s, not a list)", article(n.Kind), n.Kind))
			}
			return
		}
		// Kept outputs lose their counts unless --keep-count.
		if s.opt.keepCount || n.Kind != jsontree.Array {
			return
		}
		i := 0
		t.Children(o, func(out int) bool {
			s.steps++
			s.nullify(out, "execution_count", ptr+"/outputs/"+strconv.Itoa(i))
			i++
			return true
		})
	})
	if !s.opt.keepCount {
		s.nullify(c, "execution_count", ptr)
		s.nullify(c, "prompt_number", ptr)
	}
	for _, key := range s.opt.keys {
		if path, ok := strings.CutPrefix(key, "cell."); ok {
			s.pop(c, path, ptr)
		}
	}
	s.members(c, "metadata", func(m int) { s.pop(m, "trusted", ptr+"/metadata") })
	if s.major < 4 {
		s.pop(c, "trusted", ptr)
	}
	return nil
}

func article(k jsontree.Kind) string {
	if k == jsontree.Array || k == jsontree.Object {
		return "an"
	}
	return "a"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// nullify sets every member k of object o to null.
func (s *stripper) nullify(o int, k, ptr string) {
	s.members(o, k, func(j int) {
		n := &s.t.Nodes[j]
		if n.Kind != jsontree.Null {
			s.edits = append(s.edits, edit{n.Start, n.End, "null"})
			s.note(ptr+"/"+escapePointer(k), "set to null (was "+abbrev(string(s.t.Raw(j)))+")")
		}
	})
}

// keepOutput is nbstripout's determine_keep_output: a cell keeps its
// outputs when its metadata.init_cell is true (unless --strip-init-cells;
// init_cell, when present, decides alone), when its metadata.keep_output
// is true or its tags contain keep_output; otherwise the default decides.
// Values are judged as Python's bool() judges them. A keep_output that is
// false with a keep_output tag is a contradiction, and an error, as in
// nbstripout.
func (s *stripper) keepOutput(c int, ptr string, keepDefault bool) (bool, error) {
	md := s.last(c, "metadata")
	if md < 0 || s.t.Nodes[md].Kind != jsontree.Object {
		return keepDefault, nil
	}
	if ic := s.last(md, "init_cell"); ic >= 0 {
		return s.truthy(ic) && !s.opt.stripInitCells, nil
	}
	ko := s.last(md, "keep_output")
	tag := false
	if tags := s.last(md, "tags"); tags >= 0 {
		tag = s.contains(tags, "keep_output")
	}
	switch {
	case ko >= 0 && tag && !s.truthy(ko):
		return false, &stripError{ptr + "/metadata", "cell metadata contradicts tags: keep_output is " + abbrev(string(s.t.Raw(ko))) + ", but keep_output is in tags"}
	case ko >= 0:
		return s.truthy(ko) || tag, nil
	case tag:
		return true, nil
	}
	return keepDefault, nil
}

// truthy is Python's bool() of the JSON value j.
func (s *stripper) truthy(j int) bool {
	n := &s.t.Nodes[j]
	switch n.Kind {
	case jsontree.True:
		return true
	case jsontree.Number:
		raw := string(s.t.Raw(j))
		if n.Flags&jsontree.FlagNonFinite != 0 {
			return true // NaN and ±Infinity
		}
		if n.Flags&jsontree.FlagInt != 0 {
			return strings.Trim(raw, "-0") != ""
		}
		f, _ := strconv.ParseFloat(raw, 64) // out of range: ±Inf or 0, as Python's float
		return f != 0
	case jsontree.String:
		return n.End-n.Start > 2
	case jsontree.Array, jsontree.Object:
		return n.Len > 0
	}
	return false // null, false
}

// contains is Python's `x in v` for the JSON value j: an element of a
// list, a key of an object, a substring of a string. Other values hold
// nothing (nbstripout would fail on them).
func (s *stripper) contains(j int, x string) bool {
	t := s.t
	found := false
	switch t.Nodes[j].Kind {
	case jsontree.Array:
		t.Children(j, func(k int) bool {
			found = t.StrIs(k, x)
			return !found
		})
	case jsontree.Object:
		found = t.Lookup(j, x) >= 0
	case jsontree.String:
		found = strings.Contains(t.Str(j), x)
	}
	return found
}

// pop is nbstripout's pop_recursive on object o: the member named key if
// there is one, else, for "head.tail", pop(tail) inside every member head
// that is an object.
func (s *stripper) pop(o int, key, ptr string) {
	t := s.t
	if t.Nodes[o].Kind != jsontree.Object {
		return
	}
	found := false
	s.members(o, key, func(j int) {
		found = true
		if !s.deleted[j] {
			s.deleted[j] = true
			s.dels[o] = append(s.dels[o], j)
			s.note(ptr+"/"+escapePointer(key), "removed")
		}
	})
	if found {
		return
	}
	head, tail, ok := strings.Cut(key, ".")
	if !ok {
		return
	}
	s.members(o, head, func(j int) { s.pop(j, tail, ptr+"/"+escapePointer(head)) })
}

// apply returns the data with the edits and removals made. Removing some
// members of an object keeps the layout of the rest (each kept member
// keeps the separator before it); removing all of them leaves {}.
func (s *stripper) apply() []byte {
	t := s.t
	edits := s.edits
	objects := make([]int, 0, len(s.dels))
	for o := range s.dels {
		objects = append(objects, o)
	}
	slices.Sort(objects)
	for _, o := range objects {
		members := t.ChildList(o)
		s.steps += len(members)
		kept := -1 // first kept member
		for i, m := range members {
			if !s.deleted[m] {
				kept = i
				break
			}
		}
		if kept < 0 {
			edits = append(edits, edit{t.Nodes[o].Start, t.Nodes[o].End, "{}"})
			continue
		}
		if kept > 0 {
			edits = append(edits, edit{t.Nodes[members[0]].Key, t.Nodes[members[kept]].Key, ""})
		}
		for i := kept + 1; i < len(members); i++ {
			if s.deleted[members[i]] {
				edits = append(edits, edit{t.Nodes[members[i-1]].End, t.Nodes[members[i]].End, ""})
			}
		}
	}
	// Stable: of two edits of the same span, the first made wins (an
	// outputs value replaced rather than emptied by a key removal).
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return int(a.start - b.start)
		}
		return int(b.end - a.end) // the enclosing edit first
	})
	out := make([]byte, 0, len(t.Data))
	var at int32
	for _, e := range edits {
		if e.start < at {
			continue // inside an edit already made
		}
		out = append(out, t.Data[at:e.start]...)
		out = append(out, e.repl...)
		at = e.end
	}
	return append(out, t.Data[at:]...)
}

// escapePointer escapes a key for a JSON Pointer (RFC 6901).
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// abbrev shortens a JSON value for a message.
func abbrev(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
