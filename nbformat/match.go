package nbformat

import (
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Matching the cells and outputs being written to their originals, so that
// each is compared with (and, unchanged, copied from) the bytes it was read
// from, wherever it moved.

// matchOriginals finds the original (a node of the tape, or -1) of each
// cell or output of v, whose original array has the elements kids: the
// value it was read as, else (cells, byID) the cell of the same id, else
// the element at the same place if it has the same type. No original is
// claimed twice.
func (e *encoder) matchOriginals(v reflect.Value, byID bool, kids []int) []int {
	n := v.Len()
	origs := make([]int, n)
	claimed := map[int]bool{}
	claim := func(i, k int) {
		origs[i] = k
		claimed[k] = true
	}
	for i := range n {
		origs[i] = -1
		j, ok := originIn(e.src, v.Index(i).Interface())
		if ok && !claimed[j] {
			claim(i, j)
		}
	}
	if byID {
		e.matchByID(v, kids, origs, claimed, claim)
	}
	// Positional fallback, for values rebuilt without identity or id
	// (only onto an original of the same type, whose layout fits).
	for i := 0; i < n && i < len(kids); i++ {
		if origs[i] < 0 && !claimed[kids[i]] && sameType(e.t, kids[i], v.Index(i).Interface()) {
			claim(i, kids[i])
		}
	}
	return origs
}

// matchByID gives cells without an original the original cell of their id.
func (e *encoder) matchByID(v reflect.Value, kids, origs []int, claimed map[int]bool, claim func(i, k int)) {
	t := e.t
	byID := map[string]int{}
	for _, k := range kids {
		if t.Nodes[k].Kind == jsontree.Object {
			if id := t.Lookup(k, "id"); id >= 0 && t.Nodes[id].Kind == jsontree.String {
				byID[t.Str(id)] = k
			}
		}
	}
	for i := range origs {
		if origs[i] >= 0 {
			continue
		}
		c, _ := v.Index(i).Interface().(Cell)
		if id := string(CellIDOf(c)); id != "" {
			if k, ok := byID[id]; ok && !claimed[k] {
				claim(i, k)
			}
		}
	}
}

// matchVariants is matchOriginals for n cells or outputs, at(i) the i-th.
func (e *encoder) matchVariants(n int, at func(int) any, byID bool, kids []int) []int {
	origs := make([]int, n)
	claimed := map[int]bool{}
	claim := func(i, k int) {
		origs[i] = k
		claimed[k] = true
	}
	for i := range n {
		origs[i] = -1
		j, ok := originIn(e.src, at(i))
		if ok && !claimed[j] {
			claim(i, j)
		}
	}
	if byID {
		t := e.t
		ids := map[string]int{}
		for _, k := range kids {
			if t.Nodes[k].Kind == jsontree.Object {
				if id := t.Lookup(k, "id"); id >= 0 && t.Nodes[id].Kind == jsontree.String {
					ids[t.Str(id)] = k
				}
			}
		}
		for i := range origs {
			if origs[i] >= 0 {
				continue
			}
			c, _ := at(i).(Cell)
			if id := string(CellIDOf(c)); id != "" {
				if k, ok := ids[id]; ok && !claimed[k] {
					claim(i, k)
				}
			}
		}
	}
	// Positional fallback, for values rebuilt without identity or id
	// (only onto an original of the same type, whose layout fits).
	for i := 0; i < n && i < len(kids); i++ {
		if origs[i] < 0 && !claimed[kids[i]] && sameType(e.t, kids[i], at(i)) {
			claim(i, kids[i])
		}
	}
	return origs
}
