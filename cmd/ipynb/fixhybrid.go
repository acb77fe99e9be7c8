package main

// fix's check of the sides read back from conflict markers for cells
// holding another kind's members, whose values a merge would drop.

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Git merges a notebook's lines, not its cells: where one side changed a
// cell's kind (its "cell_type" line, merged cleanly) and the other edited
// a member only the old kind has (an attachment, outputs, a count), a
// side read back from the markers is a cell no version had, a code cell
// with attachments, say. A merge reads such a member as invalid and
// drops it (the kind has no place for it), and with it the side's
// change. So fix refuses ours' or theirs' side where a cell holds a
// member of another kind whose value is a change: no cell of a kind that
// has it holds it on any side, nor does base's side hold it alike (an
// unchanged value is no change), nor the other side (both agree). Base's
// own such members are base's values, which no side keeps: dropping them
// loses nothing.

// strayMembers are, by nbformat major version and cell type, the members
// of other kinds of cell that a cell of that type has no place for.
var strayMembers = map[int]map[string][]string{
	4: {
		"code":     {"attachments"},
		"markdown": {"outputs", "execution_count"},
		"raw":      {"outputs", "execution_count"},
	},
	3: {
		"code":     {"source", "level"},
		"markdown": {"input", "outputs", "prompt_number", "level"},
		"raw":      {"input", "outputs", "prompt_number", "level"},
		"heading":  {"input", "outputs", "prompt_number"},
	},
}

// A strayMember is a member of a side's cell that its type has no place
// for: its JSON Pointer, its cell's type, its line in the side, and its
// name and value (hashed: see memberKey).
type strayMember struct {
	pointer, kind string
	line          int
	key           memberKey
}

// A memberKey is a member's name and a hash of its value's bytes.
type memberKey struct {
	name string
	sum  uint64
}

// hybridCellError is a side read back from the markers that holds a
// member of another kind of cell, a value no side holds in a cell of a
// kind that has it, which not every side holds alike.
type hybridCellError struct {
	side   string // "ours", "theirs", "base"
	member strayMember
}

func (e *hybridCellError) Error() string {
	p := e.member.pointer
	cut := strings.LastIndexByte(p, '/')
	return fmt.Sprintf("%s is a %s cell holding %q, a member of another kind of cell: git's line merge joined lines of two versions of the cell (one side changed its kind, the other this member), and merging the sides would drop that change", p[:cut], e.member.kind, p[cut+1:])
}

// hashSeed hashes members' values within a run.
var hashSeed = maphash.MakeSeed()

// cellMembersOf returns the members of other kinds of cell found in the
// cells of a side's text (strays) and, of the names strayMembers lists,
// those in cells whose kind has them (held); none when the text does not
// read (the merge says why).
func cellMembersOf(text []byte) (strays []strayMember, held map[memberKey]bool) {
	cell := &jsontree.Shape{} // (members recorded, their values lazy)
	cellsShape := &jsontree.Shape{Elem: cell}
	shape := &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"cells":      cellsShape,
		"worksheets": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{"cells": cellsShape}}},
	}}
	t, err := jsontree.ParseShaped(text, jsontree.Limits{}, shape)
	if err != nil || t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return nil, nil
	}
	major := 0
	if v := t.Lookup(jsontree.Root, "nbformat"); v >= 0 {
		major, _ = strconv.Atoi(string(t.Raw(v)))
	}
	table := strayMembers[major]
	if table == nil {
		return nil, nil
	}
	names := map[string]bool{}
	for _, ms := range table {
		for _, m := range ms {
			names[m] = true
		}
	}
	held = map[memberKey]bool{}
	eachCells := func(arr int, prefix string) {
		if arr < 0 || t.Nodes[arr].Kind != jsontree.Array || t.Lazy(arr) {
			return
		}
		k := -1
		t.Children(arr, func(c int) bool {
			k++
			if t.Nodes[c].Kind != jsontree.Object || t.Lazy(c) {
				return true
			}
			ty := t.Lookup(c, "cell_type")
			if ty < 0 || t.Nodes[ty].Kind != jsontree.String {
				return true
			}
			kind := t.Str(ty)
			t.Children(c, func(m int) bool {
				name := t.KeyString(m)
				if !names[name] {
					return true
				}
				key := memberKey{name, maphash.Bytes(hashSeed, t.Raw(m))}
				if !slices.Contains(table[kind], name) {
					held[key] = true
					return true
				}
				line, _ := jsontree.Position(text, int64(t.Nodes[m].Key))
				strays = append(strays, strayMember{fmt.Sprintf("%s/%d/%s", prefix, k, name), kind, line, key})
				return true
			})
			return true
		})
	}
	eachCells(t.Lookup(jsontree.Root, "cells"), "/cells")
	if ws := t.Lookup(jsontree.Root, "worksheets"); ws >= 0 && t.Nodes[ws].Kind == jsontree.Array && !t.Lazy(ws) {
		w := -1
		t.Children(ws, func(j int) bool {
			w++
			if t.Nodes[j].Kind == jsontree.Object && !t.Lazy(j) {
				eachCells(t.Lookup(j, "cells"), fmt.Sprintf("/worksheets/%d/cells", w))
			}
			return true
		})
	}
	return strays, held
}

// hybridCheck gathers the cell members of the sides given to it, in turn,
// and judges them once it has all.
type hybridCheck struct {
	sides  []string // those to check, in any order
	seen   map[string]bool
	strays map[string][]strayMember // by side
	held   map[memberKey]bool       // in a cell of a kind that has it, on any side
	lines  map[string]*side
}

// check takes input which's text and, once every side to check is in,
// returns a *convert.Error of Op "merge" for which wrapping a
// *hybridCellError if a side holds a member of another kind of cell that
// no side holds where its kind has it and not every side holds alike.
func (h *hybridCheck) check(which string, text []byte) error {
	if !slices.Contains(h.sides, which) || h.seen[which] {
		return nil
	}
	h.seen[which] = true
	strays, held := cellMembersOf(text)
	h.strays[which] = strays
	for k := range held {
		h.held[k] = true
	}
	if len(h.seen) < len(h.sides) {
		return nil
	}
	for _, s := range h.sides {
		if s == "base" {
			continue // (base's values: a merge loses none a side holds)
		}
		for _, m := range h.strays[s] {
			if h.held[m.key] || h.everySideHas(m.key) || h.has("base", m.key) {
				continue
			}
			if sd := h.lines[s]; sd != nil && sd.n > 0 {
				m.line = sd.fileLine(m.line)
			}
			return &convert.Error{Op: "merge", Input: which, Err: &hybridCellError{side: s, member: m}}
		}
	}
	return nil
}

// has reports whether side s holds the stray member.
func (h *hybridCheck) has(s string, k memberKey) bool {
	return slices.ContainsFunc(h.strays[s], func(m strayMember) bool { return m.key == k })
}

// everySideHas reports whether ours and theirs (those checked) both hold
// the stray member.
func (h *hybridCheck) everySideHas(k memberKey) bool {
	for _, s := range h.sides {
		if s == "base" {
			continue
		}
		if !h.has(s, k) {
			return false
		}
	}
	return true
}

// checkedSides returns read, checking the sides it returns of those read
// back from the markers (see hybridCheck): the last of them fails when a
// side's cells hold other kinds' members whose change merging would
// drop.
func (f *fixMerge) checkedSides(read func(string) ([]byte, error), sides ...string) func(string) ([]byte, error) {
	h := &hybridCheck{sides: sides, seen: map[string]bool{}, strays: map[string][]strayMember{}, held: map[memberKey]bool{},
		lines: map[string]*side{"ours": &f.sides.ours, "theirs": &f.sides.theirs, "base": &f.sides.base}}
	return func(which string) ([]byte, error) {
		data, err := read(which)
		if err != nil {
			return nil, err
		}
		if err := h.check(which, data); err != nil {
			return nil, err
		}
		return data, nil
	}
}
