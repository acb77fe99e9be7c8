package nbvalid

// Unique cell ids (nbformat 4.5 and later): the rule the schema cannot
// state.

import (
	"fmt"
	"hash/maphash"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// duplicateIDs reports cells whose id an earlier cell already has.
func duplicateIDs(t *jsontree.Tape) []Problem {
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
func duplicateID(t *jsontree.Tape, k, i, first int) Problem {
	return Problem{Node: k, Pointer: jsonpointer.AppendToken(jsonpointer.AppendIndex("/cells", i), "id"), Keyword: "unique",
		Msg: fmt.Sprintf("cell id %s is already the id of /cells/%d", t.Raw(k), first)}
}

// duplicateIDsMap is duplicateIDs for any cells: ids are compared through
// a map of their JSON texts.
func duplicateIDsMap(t *jsontree.Tape, cells int) []Problem {
	var out []Problem
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
		// The key: the JSON text of the id, for strings without escapes
		// and for other values; an escaped string is unescaped (and
		// quoted), so that equal strings meet.
		key := string(t.Raw(k))
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
func duplicateIDsTable(t *jsontree.Tape, cells int) ([]Problem, bool) {
	var (
		slots  [idSlots]uint8     // an id seen, plus one (0: empty)
		idNode [maxTableIDs]int32 // of each id seen: its member
		cellOf [maxTableIDs]uint8 // and its cell's index
		seen   int                // ids seen
		out    []Problem
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
