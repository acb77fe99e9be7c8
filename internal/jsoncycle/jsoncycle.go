// Package jsoncycle guards writers of JSON against values that contain
// themselves (a map or slice stored in a member of type any may hold
// itself), and finds the place where such a value meets itself again.
//
// As in encoding/json, the guard only tracks the path past a depth no
// notebook read reaches in practice (CheckDepth), so writing costs nothing
// more up to there, and a value nested deeply without a cycle still
// writes. Find is the second walk, made only once writing has failed, so
// that writing tracks no path.
package jsoncycle

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
)

// CheckDepth is the nesting from which maps and slices on the path are
// remembered.
const CheckDepth = 1000

// Guard follows the maps and slices being written or converted. Its zero
// value is ready to use.
type Guard struct {
	depth  int
	onPath map[key]struct{}
}

// key identifies a map, or a slice by its first element and length (a
// shorter slice of the same array is another value).
type key struct {
	p any // the reflect.Value's pointer (compared inside an interface)
	n int
}

func keyOf(v reflect.Value) key {
	k := key{p: v.UnsafePointer()}
	if v.Kind() == reflect.Slice {
		k.n = v.Len()
	}
	return k
}

// Enter records that the map or slice v is being written; it returns
// false, and records nothing, if v is already on the path. Each Enter
// that returns true is followed by one Leave of the same value.
func (g *Guard) Enter(v reflect.Value) bool {
	g.depth++
	if g.depth <= CheckDepth {
		return true
	}
	k := keyOf(v)
	if _, ok := g.onPath[k]; ok {
		g.depth--
		return false
	}
	if g.onPath == nil {
		g.onPath = map[key]struct{}{}
	}
	g.onPath[k] = struct{}{}
	return true
}

// EnterAny is Enter for x, a map or slice held in an interface: only past
// CheckDepth is its identity taken (by reflection).
func (g *Guard) EnterAny(x any) bool {
	if g.depth < CheckDepth {
		g.depth++
		return true
	}
	return g.Enter(reflect.ValueOf(x))
}

// LeaveAny ends what EnterAny began for x.
func (g *Guard) LeaveAny(x any) {
	if g.depth <= CheckDepth {
		g.depth--
		return
	}
	g.Leave(reflect.ValueOf(x))
}

// Leave ends what Enter began for v.
func (g *Guard) Leave(v reflect.Value) {
	if g.depth > CheckDepth {
		delete(g.onPath, keyOf(v))
	}
	g.depth--
}

// Structs walks the members of the struct v as they are written, calling
// member for each in order until it returns true (found is then true);
// handled false leaves v to Find's own walk (its exported fields under
// their JSON names, embedded structs' fields among them).
type Structs func(v reflect.Value, member func(tok string, v reflect.Value) bool) (found, handled bool)

// Find walks root as it is written, remembering the maps, slices and
// pointers on its path, and stops at the first that is met again (in the
// order of the structs' fields and of sorted map keys): ptr is then the
// JSON Pointer of that place in root, val the value. ok is false if root
// has no cycle.
func Find(root reflect.Value, structs Structs) (ptr string, val reflect.Value, ok bool) {
	f := finder{onPath: map[key]bool{}, structs: structs}
	if !f.find(root) {
		return "", reflect.Value{}, false
	}
	return f.ptr, f.val, true
}

type finder struct {
	onPath  map[key]bool
	structs Structs
	ptr     string
	val     reflect.Value
}

// find reports whether v contains a cycle, setting ptr and val.
func (f *finder) find(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && f.find(v.Elem())
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() || v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		k := key{p: v.UnsafePointer(), n: -1}
		if v.Kind() == reflect.Slice {
			k.n = v.Len()
		}
		if f.onPath[k] {
			f.val = v
			return true
		}
		f.onPath[k] = true
		defer delete(f.onPath, k)
		switch v.Kind() {
		case reflect.Pointer:
			return f.find(v.Elem())
		case reflect.Map:
			return f.mapMembers(v)
		}
		return f.elements(v)
	case reflect.Array:
		return f.elements(v)
	case reflect.Struct:
		return f.structMembers(v)
	}
	return false
}

// member looks for a cycle in the member of the current value at tok.
func (f *finder) member(tok string, v reflect.Value) bool {
	if f.find(v) {
		f.ptr = jsonpointer.AppendToken("", tok) + f.ptr
		return true
	}
	return false
}

// elements looks for a cycle in the elements of a slice or array.
func (f *finder) elements(v reflect.Value) bool {
	for i := range v.Len() {
		if f.find(v.Index(i)) {
			f.ptr = jsonpointer.AppendIndex("", i) + f.ptr
			return true
		}
	}
	return false
}

// mapMembers looks for a cycle in a map's values, by sorted keys.
func (f *finder) mapMembers(v reflect.Value) bool {
	type kv struct {
		k string
		v reflect.Value
	}
	var ms []kv
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		name := fmt.Sprint(k.Interface())
		if k.Kind() == reflect.String {
			name = k.String()
		}
		ms = append(ms, kv{name, it.Value()})
	}
	slices.SortFunc(ms, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	for _, m := range ms {
		if f.member(m.k, m.v) {
			return true
		}
	}
	return false
}

// structMembers looks for a cycle in a struct's members: those f.structs
// walks, or its exported fields under their JSON names.
func (f *finder) structMembers(v reflect.Value) bool {
	if f.structs != nil {
		if found, handled := f.structs(v, f.member); handled {
			return found
		}
	}
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-" || !sf.IsExported() && !sf.Anonymous:
			continue
		case sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct:
			if f.structMembers(v.Field(i)) {
				return true
			}
			continue
		case name == "":
			name = sf.Name
		}
		if f.member(name, v.Field(i)) {
			return true
		}
	}
	return false
}
