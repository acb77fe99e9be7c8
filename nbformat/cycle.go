package nbformat

import (
	"fmt"
	"reflect"
	"unsafe"
)

// A map or slice stored by the user (in AdditionalProperties or any
// member of type any) may contain itself. encoding/json refuses such a
// value with an error; so do Marshal, Validate and the conversions to
// generic JSON, instead of recursing until the stack is exhausted. As in
// encoding/json, the path is only tracked past a depth no notebook read
// reaches in practice, so writing costs nothing more up to there, and a
// value nested deeply without a cycle (up to the reader's MaxDepth) still
// writes.

// cycleCheckDepth is the nesting from which maps and slices on the path
// are remembered.
const cycleCheckDepth = 1000

// cycleGuard follows the maps and slices being written or converted.
type cycleGuard struct {
	depth  int
	onPath map[cycleKey]struct{}
}

// cycleKey identifies a map, or a slice by its first element and length
// (a shorter slice of the same array is another value).
type cycleKey struct {
	p unsafe.Pointer
	n int
}

func keyOf(v reflect.Value) cycleKey {
	k := cycleKey{p: v.UnsafePointer()}
	if v.Kind() == reflect.Slice {
		k.n = v.Len()
	}
	return k
}

// enter records that the map or slice v is being written; it returns an
// error, and records nothing, if v is already on the path. Each enter
// without error is followed by one leave of the same value.
func (g *cycleGuard) enter(v reflect.Value) error {
	g.depth++
	if g.depth <= cycleCheckDepth {
		return nil
	}
	k := keyOf(v)
	if _, ok := g.onPath[k]; ok {
		g.depth--
		return fmt.Errorf("nbformat: cannot write a %s that contains itself", v.Type())
	}
	if g.onPath == nil {
		g.onPath = map[cycleKey]struct{}{}
	}
	g.onPath[k] = struct{}{}
	return nil
}

// leave ends what enter began for v.
func (g *cycleGuard) leave(v reflect.Value) {
	if g.depth > cycleCheckDepth {
		delete(g.onPath, keyOf(v))
	}
	g.depth--
}
