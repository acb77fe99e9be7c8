// How deep Python nbformat can write: its recursion limit (tooDeepForPython).
package nbcanon

import (
	"slices"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Python raises RecursionError once a call would put more than
// sys.getrecursionlimit() (1000 by default) frames and C-level recursive
// calls on its stack. Steps of the reference (for version 4,
// scripts/reference/nbformat_canonical.py, which reads and writes at a
// script's top level; for version 3, nbformat.v3.nbjson's reads and
// writes called the same way) recurse through the notebook:
//
//   - json.loads, one C-level entry per level of nesting;
//   - nbformat.from_dict, on everything read: two stack entries per level
//     in version 4 (the function and its comprehension), one per object
//     and two per array level in version 3;
//   - copy.deepcopy in the writer (JSONWriter.writes), on what
//     strip_transient left (orig_nbformat, orig_nbformat_minor and
//     signature in the notebook metadata, trusted in cell metadata are
//     gone by then): two entries per level (deepcopy, and _reconstruct or
//     _deepcopy_list).
//
// Below a value with a enclosing objects and arrays, a step needs its
// entries per level times a, plus what handling the value itself costs,
// measured with sys.setrecursionlimit for each kind of value (the costs
// include the entries below the notebook: the script's module frame, and
// JSONWriter.writes for the copy):
//
//   - from_dict: 3 for a scalar or an array (from_dict and isinstance's
//     C-level entry), 5 for an object (its dict comprehension and
//     NotebookNode.__init__);
//   - deepcopy: 4 for a scalar (deepcopy, _deepcopy_atomic), 5 for an
//     array, 8 for an object (copying the node's attribute dict through
//     _reconstruct and _deepcopy_dict), 9 for a version 4 object with
//     members (each stored through NotebookNode.__setitem__ and its
//     isinstance(value, Mapping) check; version 3's Struct has no such
//     check).
//
// Version 3's reader costs 6, 7 and 7 (scalar, array, object) below an
// object, 5, 5 and 7 below an array. json.loads needs 6 entries plus one
// per level, so it can fail first only inside what strip_transient
// removes.
// TestCanonicalDepthLimit checks the rule shape by shape against the
// references (testdata/canonical_depth.tsv, made by
// scripts/reference/nbformat_depth.py), TestCanonicalDepthAgreesWithPython
// on random shapes. These are the costs in a process that has written a
// notebook before: the first isinstance check of each value type against
// an abstract class costs a few more entries, once per process, wherever
// it happens; that is not modelled.
const (
	pyRecursionLimit = 1000
	pyLoadsEntries   = 6
)

// A pyStep is a recursive step of Python nbformat: the stack entries it
// uses per enclosing object and per enclosing array, and what handling a
// value costs on top, by the kind of the value's parent.
type pyStep struct {
	perObject, perArray     int
	underObject, underArray pyCost
}

// pyCost is what handling a value costs, by its kind.
type pyCost struct{ scalar, array, emptyObject, object int }

var (
	// v4: from_dict, then deepcopy.
	pyFromDict = pyStep{2, 2, pyCost{3, 3, 5, 5}, pyCost{3, 3, 5, 5}}
	pyDeepcopy = pyStep{2, 2, pyCost{4, 5, 8, 9}, pyCost{4, 5, 8, 9}}
	// v3: nbjson.reads (from_dict: one entry per object level, stores
	// through __setitem__ after the recursion returns), then deepcopy.
	pyReadV3     = pyStep{1, 2, pyCost{6, 7, 7, 7}, pyCost{5, 5, 7, 7}}
	pyDeepcopyV3 = pyStep{2, 2, pyCost{4, 5, 8, 8}, pyCost{4, 5, 8, 8}}
)

// need is the stack a step needs for node n below objects enclosing
// objects and arrays arrays, its parent being an array or not.
func (s pyStep) need(n *jsontree.Node, objects, arrays int, parentArray bool) int {
	c := s.underObject
	if parentArray {
		c = s.underArray
	}
	v := c.scalar
	switch n.Kind {
	case jsontree.Object:
		v = c.object
		if n.Len == 0 {
			v = c.emptyObject
		}
	case jsontree.Array:
		v = c.array
	}
	return s.perObject*objects + s.perArray*arrays + v
}

// tooDeepForPython returns the first node (in document order) whose
// handling would exceed Python's recursion limit in json.loads, in the
// reader's from_dict or in the writer's deepcopy, or -1; when that is a
// value inside lazy node i, i and the containers open in the walk to it
// (see eachInside).
func tooDeepForPython(t *jsontree.Tape, v3 bool) (int, []inside) {
	stripped := transientSubtrees(t, v3)
	read, write := pyFromDict, pyDeepcopy
	if v3 {
		read, write = pyReadV3, pyDeepcopyV3
	}
	type open struct {
		end   int32
		array bool
	}
	var stack []open // enclosing containers
	objects, arrays := 0, 0
	var strippedEnd int32
	for i := range t.Nodes {
		for len(stack) > 0 && int32(i) >= stack[len(stack)-1].end {
			if stack[len(stack)-1].array {
				arrays--
			} else {
				objects--
			}
			stack = stack[:len(stack)-1]
		}
		n := &t.Nodes[i]
		if end, ok := stripped[i]; ok && end > strippedEnd {
			strippedEnd = end
		}
		container := n.Kind == jsontree.Object || n.Kind == jsontree.Array
		if container && pyLoadsEntries+len(stack) > pyRecursionLimit {
			return i, nil
		}
		parentArray := len(stack) > 0 && stack[len(stack)-1].array
		need := read.need(n, objects, arrays, parentArray)
		if int32(i) >= strippedEnd {
			need = max(need, write.need(n, objects, arrays, parentArray))
		}
		if need > pyRecursionLimit {
			return i, nil
		}
		if t.Lazy(i) && mayBeTooDeep(t, i, objects, arrays, len(stack)) {
			// The values inside, from their bytes, one level deeper
			// per container open in the walk.
			var at []inside
			eachInside(t, i, func(e *jsontree.Node, open []inside) bool {
				o, a := objects, arrays
				for _, f := range open {
					if f.object {
						o++
					} else {
						a++
					}
				}
				parentArray := !open[len(open)-1].object
				need := read.need(e, o, a, parentArray)
				if int32(i) >= strippedEnd {
					need = max(need, write.need(e, o, a, parentArray))
				}
				deep := (e.Kind == jsontree.Object || e.Kind == jsontree.Array) && pyLoadsEntries+len(stack)+len(open) > pyRecursionLimit
				if deep || need > pyRecursionLimit {
					at = slices.Clone(open)
					return false
				}
				return true
			})
			if at != nil {
				return i, at
			}
		}
		if container {
			stack = append(stack, open{n.Skip, n.Kind == jsontree.Array})
			if n.Kind == jsontree.Array {
				arrays++
			} else {
				objects++
			}
		}
	}
	return -1, nil
}

// mayBeTooDeep reports whether a value inside lazy node i, below objects
// and arrays enclosing it (stack containers in all), may need more stack
// than Python has: a step needs at most 2 entries per enclosing container
// and 9 for the value; json.loads one per level past its 6.
func mayBeTooDeep(t *jsontree.Tape, i, objects, arrays, stack int) bool {
	nest := t.Nesting(t.Nodes[i])
	return 2*(objects+arrays+nest)+9 > pyRecursionLimit || pyLoadsEntries+stack+nest > pyRecursionLimit
}

// transientSubtrees maps the first node of each value strip_transient
// removes before the writer copies the notebook to the node after it.
func transientSubtrees(t *jsontree.Tape, v3 bool) map[int]int32 {
	out := map[int]int32{}
	drop := func(obj int, keys ...string) {
		if obj < 0 || t.Nodes[obj].Kind != jsontree.Object {
			return
		}
		t.Children(obj, func(k int) bool {
			for _, key := range keys {
				if t.KeyString(k) == key {
					out[k] = t.Nodes[k].Skip
				}
			}
			return true
		})
	}
	each := func(arr int, f func(int)) {
		if arr >= 0 && t.Nodes[arr].Kind == jsontree.Array {
			t.Children(arr, func(k int) bool {
				if t.Nodes[k].Kind == jsontree.Object {
					f(k)
				}
				return true
			})
		}
	}
	if t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return out
	}
	if v3 {
		drop(jsontree.Root, "orig_nbformat", "orig_nbformat_minor")
		each(t.Lookup(jsontree.Root, "worksheets"), func(w int) {
			each(t.Lookup(w, "cells"), func(c int) {
				drop(c, "trusted")
				drop(t.Lookup(c, "metadata"), "trusted")
			})
		})
		return out
	}
	drop(t.Lookup(jsontree.Root, "metadata"), "orig_nbformat", "orig_nbformat_minor", "signature")
	each(t.Lookup(jsontree.Root, "cells"), func(c int) {
		drop(t.Lookup(c, "metadata"), "trusted")
	})
	return out
}

// depthOf is the number of objects and arrays enclosing node i, plus one.
func depthOf(t *jsontree.Tape, i int) int {
	d := 1
	for j := 0; j < i; j++ {
		if n := &t.Nodes[j]; (n.Kind == jsontree.Object || n.Kind == jsontree.Array) && int(n.Skip) > i {
			d++
		}
	}
	return d
}
