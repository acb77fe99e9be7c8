package v3write

import (
	"bytes"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
)

// Putting the cells in order. nbformat's writer compares the elements of
// an array of generic JSON with the original's by place, so the notebook
// it is given has ours' cells at their own places (a cell written over
// ours' is compared, member by member, with it) and the cells new to a
// worksheet after them; order then rewrites each worksheet's cells array
// from what it wrote, taking each cell's bytes from its place there and
// the separators from the array's layout.

// writtenShape records the worksheets and their cells arrays, each cell
// lazy.
var writtenShape = &jsontree.Shape{Members: map[string]*jsontree.Shape{
	"worksheets": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{"cells": {}}}},
}}

// layout is how a cells array lays out its elements.
type layout struct {
	lead, typical, tail []byte
}

// order returns out (what nbformat wrote) with the cells of each
// worksheet s being those k with dst[k] == s, in order, cell k taken from
// slots[k].
func order(out []byte, slots []slot, dst []int) ([]byte, error) {
	t, err := jsontree.ParseShaped(out, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, writtenShape)
	if err != nil {
		return nil, &Error{Input: "ours", Err: fmt.Errorf("nbformat wrote invalid JSON (a bug): %w", err)}
	}
	ws := -1
	if t.Nodes[jsontree.Root].Kind == jsontree.Object {
		ws = t.Lookup(jsontree.Root, "worksheets")
	}
	if ws < 0 || t.Nodes[ws].Kind != jsontree.Array {
		if len(slots) == 0 {
			return out, nil
		}
		return nil, &Error{Input: "ours", Err: fmt.Errorf("no worksheets written (a bug)")}
	}
	sheets := t.ChildList(ws)
	arrays := make([]int, len(sheets))
	kids := make([][]int, len(sheets))
	var model layout   // the first array with elements: its lead and tail
	var typical []byte // the separator of the first array with two
	found := false
	for s, sn := range sheets {
		arrays[s] = -1
		if t.Nodes[sn].Kind != jsontree.Object {
			continue
		}
		if a := t.Lookup(sn, "cells"); a >= 0 && t.Nodes[a].Kind == jsontree.Array {
			arrays[s] = a
			kids[s] = t.ChildList(a)
			if l, ok := arrayLayout(t, a, kids[s]); ok {
				if !found {
					model, found = l, true
				}
				if typical == nil {
					typical = l.typical
				}
			}
		}
	}
	for k, sl := range slots {
		if sl.sheet >= len(sheets) || sl.pos >= len(kids[sl.sheet]) || dst[k] >= len(sheets) || arrays[dst[k]] < 0 {
			return nil, &Error{Input: "ours", Err: fmt.Errorf("cell %d is not where it was written (a bug)", k)}
		}
	}
	b := make([]byte, 0, len(out))
	last := 0
	for s, a := range arrays {
		if a < 0 {
			continue
		}
		b = append(b, out[last:t.Nodes[a].Start]...)
		last = int(t.Nodes[a].End)
		l, ok := arrayLayout(t, a, kids[s])
		if !ok {
			l = model
		}
		if len(l.typical) == 0 {
			l.typical = typical
		}
		if len(l.typical) == 0 {
			l.typical = append([]byte{','}, afterComma(l.lead)...)
		}
		n := 0
		for k, d := range dst {
			if d != s {
				continue
			}
			if n == 0 {
				b = append(b, '[')
				b = append(b, l.lead...)
			} else if n < len(kids[s]) {
				b = append(b, out[t.Nodes[kids[s][n-1]].End:t.Nodes[kids[s][n]].Start]...)
			} else {
				b = append(b, l.typical...)
			}
			b = append(b, t.Raw(kids[slots[k].sheet][slots[k].pos])...)
			n++
		}
		if n == 0 {
			b = append(b, "[]"...)
		} else {
			b = append(b, l.tail...)
		}
	}
	return append(b, out[last:]...), nil
}

// arrayLayout returns the layout of array a with elements kids (false if
// it has none).
func arrayLayout(t *jsontree.Tape, a int, kids []int) (layout, bool) {
	if len(kids) == 0 {
		return layout{}, false
	}
	d := t.Data
	l := layout{lead: d[t.Nodes[a].Start+1 : t.Nodes[kids[0]].Start], tail: d[t.Nodes[kids[len(kids)-1]].End:t.Nodes[a].End]}
	if len(kids) > 1 {
		l.typical = d[t.Nodes[kids[0]].End:t.Nodes[kids[1]].Start]
	}
	return l, true
}

// afterComma returns what follows the first comma of a separator (all of
// it if it has none).
func afterComma(sep []byte) []byte {
	if i := bytes.IndexByte(sep, ','); i >= 0 {
		return sep[i+1:]
	}
	return sep
}

// asciiOnly returns out with every string holding characters beyond ASCII
// escaped as Python's json.dumps escapes them (ensure_ascii: \u with
// lower-case hex digits, surrogate pairs beyond U+FFFF). Only new text can
// hold them: ours had none.
func asciiOnly(out []byte) []byte {
	if !bytes.ContainsFunc(out, func(r rune) bool { return r >= 0x80 }) {
		return out
	}
	b := make([]byte, 0, len(out)+len(out)/8)
	for i := 0; i < len(out); {
		c := out[i]
		if c != '"' {
			b = append(b, c)
			i++
			continue
		}
		j, wide := i+1, false
		for ; j < len(out) && out[j] != '"'; j++ {
			if out[j] == '\\' {
				j++
			} else if out[j] >= 0x80 {
				wide = true
			}
		}
		tok := out[i : j+1]
		if wide {
			b, _ = jsontree.AppendQuoted(b, jsontree.UnescapeString(tok[1:len(tok)-1]), jsontree.Escaping{ASCII: true})
		} else {
			b = append(b, tok...)
		}
		i = j + 1
	}
	return b
}
