package nbformat

// Values that contain themselves: the guard of the writer and of the
// generic conversions, and the error naming where the cycle is.

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A map or slice stored by the user (in AdditionalProperties or any
// member of type any) may contain itself. encoding/json refuses such a
// value with an error; so do Marshal, Validate and the conversions to
// generic JSON, instead of recursing until the stack is exhausted. As in
// encoding/json, the path is only tracked past a depth no notebook read
// reaches in practice, so writing costs nothing more up to there, and a
// value nested deeply without a cycle (up to the reader's MaxDepth) still
// writes.
//
// The error is a *FormatError whose cause (Err) is the
// *json.UnsupportedValueError encoding/json gives for the value, and
// whose Pointer names the place where the value met itself again: the
// first such place in the order of the structs' fields and of sorted map
// keys, found by a second walk over the value made only once writing has
// failed (cycleAt), so that writing tracks no path. The pointer is into
// the notebook for Marshal and Validate, and into the value converted for
// the conversions (MimeBundle.SetJSON, and those of package convert:
// relative to a cell's or the notebook's metadata or to an output).

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
	p any // the reflect.Value's pointer (compared inside an interface)
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
		return cycleError(v, "")
	}
	if g.onPath == nil {
		g.onPath = map[cycleKey]struct{}{}
	}
	g.onPath[k] = struct{}{}
	return nil
}

// enterAny is enter for x, a map or slice held in an interface: only past
// cycleCheckDepth is its identity taken (by reflection).
func (g *cycleGuard) enterAny(x any) error {
	if g.depth < cycleCheckDepth {
		g.depth++
		return nil
	}
	return g.enter(reflect.ValueOf(x))
}

// leaveAny ends what enterAny began for x.
func (g *cycleGuard) leaveAny(x any) {
	if g.depth <= cycleCheckDepth {
		g.depth--
		return
	}
	g.leave(reflect.ValueOf(x))
}

// leave ends what enter began for v.
func (g *cycleGuard) leave(v reflect.Value) {
	if g.depth > cycleCheckDepth {
		delete(g.onPath, keyOf(v))
	}
	g.depth--
}

// cycleError is the error for v, a value that contains itself, met at
// ptr ("" while not known).
func cycleError(v reflect.Value, ptr Pointer) *FormatError {
	return &FormatError{
		Pointer: ptr,
		Msg:     fmt.Sprintf("cannot write a %s that contains itself", v.Type()),
		Err:     &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + v.Type().String()},
	}
}

// cycleAt returns err with the place of the cycle in root when err is a
// cycle's error whose place is not known yet: one of cycleGuard's, or
// encoding/json's for a value of another package's type. Other errors are
// returned as they are. It is called only on the error path of a write or
// conversion of root.
func cycleAt(err error, root any) error {
	var fe *FormatError
	var ue *json.UnsupportedValueError
	if err == nil || !errors.As(err, &ue) || !strings.HasPrefix(ue.Str, "encountered a cycle") ||
		errors.As(err, &fe) && fe.Pointer != "" {
		return err
	}
	f := cycleFinder{onPath: map[cycleKey]bool{}}
	if !f.find(reflect.ValueOf(root)) {
		return err // not found again: the error as it is
	}
	return cycleError(f.val, f.ptr)
}

// cycleFinder walks a value as it is written, remembering the maps,
// slices and pointers on its path, and stops at the first that is met
// again: ptr is then where, val the value.
type cycleFinder struct {
	onPath map[cycleKey]bool
	ptr    Pointer
	val    reflect.Value
}

// find reports whether v contains a cycle, setting ptr and val.
func (f *cycleFinder) find(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && f.find(v.Elem())
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() || v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		k := cycleKey{p: v.UnsafePointer(), n: -1}
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
		if v.Type() == reflect.TypeFor[MultilineString]() || v.Type() == reflect.TypeFor[MimeBundle]() {
			return false // text and JSON bytes only
		}
		return f.structMembers(v)
	}
	return false
}

// member looks for a cycle in the member of the current value at tok.
func (f *cycleFinder) member(tok string, v reflect.Value) bool {
	if f.find(v) {
		f.ptr = Pointer("").appendToken(tok) + f.ptr
		return true
	}
	return false
}

// elements looks for a cycle in the elements of a slice or array.
func (f *cycleFinder) elements(v reflect.Value) bool {
	for i := range v.Len() {
		if f.find(v.Index(i)) {
			f.ptr = Pointer("").appendIndex(i) + f.ptr
			return true
		}
	}
	return false
}

// mapMembers looks for a cycle in a map's values, by sorted keys.
func (f *cycleFinder) mapMembers(v reflect.Value) bool {
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

// structMembers looks for a cycle in a struct's members: for a struct of
// this package, its fields and the values its AdditionalProperties keeps
// (by sorted key); for another's, its exported fields under their JSON
// names, embedded structs' fields among them.
func (f *cycleFinder) structMembers(v reflect.Value) bool {
	if x, ok := structAt0(v); ok {
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || name == "-" || name == "" {
				continue
			}
			if f.member(name, v.Field(i)) {
				return true
			}
		}
		extra := *x.extra()
		keys := make([]string, 0, len(extra))
		for k := range extra {
			if !shadowedIn(x, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if f.member(k, reflect.ValueOf(extra[k])) {
				return true
			}
		}
		return false
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

// structAt0 returns the generated struct v is (a copy when v cannot be
// addressed).
func structAt0(v reflect.Value) (codecStruct, bool) {
	if v.CanAddr() {
		x, ok := v.Addr().Interface().(codecStruct)
		return x, ok
	}
	return generatedStruct(v.Interface())
}
