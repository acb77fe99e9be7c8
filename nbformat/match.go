package nbformat

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Matching the cells and outputs being written to their originals, so that
// each is compared with (and, unchanged, copied from) the bytes it was read
// from, wherever it moved.

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
