// Package jsonvalue is the one home of equality, decoding and deep
// copying for generic JSON values, as the module's packages hold them:
// nil, bool, string, int, float64, json.Number, []any, objects as
// map[string]any or a named map type with string keys and any values, and
// json.RawMessage (arrays and objects of metadata kept as read). Equality
// is of JSON values, whatever holds them (see Equal); strings that are
// not valid UTF-16 are carried as WTF-8 (see AppendRune). Standard
// library only.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Equal reports whether a and b are the same JSON value, whatever Go
// values hold them: objects member by member in any order (whatever their
// map type; a nil object equals an empty one), arrays element by element
// (of any slice type), strings by their bytes (lone surrogates as WTF-8:
// see AppendRune), numbers by value as Python compares what its json
// module reads (see number.go: 1 equals 1.0, int with float64 with
// json.Number; NaN equals NaN), json.RawMessage by the value its text
// holds (however spaced, keys in any order; text that is not JSON by its
// bytes), and any other Go value as the JSON encoding/json writes for it.
// Values that contain themselves (see Clone) are equal when they unfold
// to the same values: a pair of maps or slices met again inside itself is
// taken as equal (as reflect.DeepEqual does), the path tracked only past
// trackDepth.
func Equal(a, b any) bool {
	var c comparer
	return c.equal(a, b)
}

// EqualObjects reports whether two objects are equal, as Equal compares
// them (a nil object equals an empty one).
func EqualObjects(x, y map[string]any) bool {
	var c comparer
	return c.objects(x, y)
}

// A comparer compares values, remembering past trackDepth the pairs of
// maps and slices it is inside of.
type comparer struct {
	depth  int
	onPath map[[2]pathKey]bool
}

// badJSON is raw text that is not JSON, compared by its bytes.
type badJSON string

// decodeRaw returns the value raw JSON text holds (empty text is null, as
// encoding/json writes a nil json.RawMessage).
func decodeRaw(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	v, err := Decode(r)
	if err != nil {
		return badJSON(r)
	}
	return v
}

func (c *comparer) equal(a, b any) bool {
	if ra, ok := a.(json.RawMessage); ok {
		if rb, ok := b.(json.RawMessage); ok && bytes.Equal(ra, rb) {
			return true
		}
		a = decodeRaw(ra)
	}
	if rb, ok := b.(json.RawMessage); ok {
		b = decodeRaw(rb)
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := Object(b)
		if !ok {
			return c.other(a, b)
		}
		return c.objects(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok {
			return c.other(a, b)
		}
		return c.lists(x, y)
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
		return c.other(a, b)
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
		return c.other(a, b)
	case nil:
		if b == nil {
			return true
		}
		return c.other(a, b)
	case badJSON:
		y, ok := b.(badJSON)
		return ok && x == y
	}
	if eq, both := numbersEqual(a, b); both {
		return eq
	}
	if x, ok := Object(a); ok {
		if y, ok := Object(b); ok {
			return c.objects(x, y)
		}
	}
	return c.other(a, b)
}

// lists compares two arrays element by element.
func (c *comparer) lists(x, y []any) bool {
	if len(x) != len(y) {
		return false
	}
	if len(x) == 0 {
		return true
	}
	c.depth++
	var k [2]pathKey
	if c.depth > trackDepth {
		k = [2]pathKey{{&x[0], len(x)}, {&y[0], len(y)}}
		if !c.enter(k) {
			return true // met again inside itself: equal if all else is
		}
	}
	eq := true
	for i := range x {
		if !c.equal(x[i], y[i]) {
			eq = false
			break
		}
	}
	c.leave(k)
	return eq
}

// other compares values of which at least one is of a Go type generic
// JSON does not use: as the JSON encoding/json writes for them (read back
// exactly), or, for values it cannot write, by reflect.DeepEqual.
func (c *comparer) other(a, b any) bool {
	if _, isNum := asNumber(a); isNum {
		return false // b is not a number
	}
	if _, isNum := asNumber(b); isNum {
		return false
	}
	ga, okA := generic(a)
	gb, okB := generic(b)
	if !okA || !okB {
		return reflect.DeepEqual(a, b)
	}
	if reflect.TypeOf(ga) == reflect.TypeOf(a) && reflect.TypeOf(gb) == reflect.TypeOf(b) {
		return false // both generic already, and of different kinds
	}
	return c.equal(ga, gb)
}

// generic returns v as generic JSON: v itself for the types Decode gives,
// else what the JSON encoding/json writes for v decodes to.
func generic(v any) (any, bool) {
	switch v.(type) {
	case nil, bool, string, map[string]any, []any, json.Number, float64, int, badJSON:
		return v, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	g, err := Decode(raw)
	return g, err == nil
}

func (c *comparer) objects(x, y map[string]any) bool {
	if len(x) != len(y) {
		return false
	}
	if len(x) == 0 {
		return true
	}
	c.depth++
	var k [2]pathKey
	if c.depth > trackDepth {
		k = [2]pathKey{{p: reflect.ValueOf(x).UnsafePointer()}, {p: reflect.ValueOf(y).UnsafePointer()}}
		if !c.enter(k) {
			return true
		}
	}
	eq := true
	for key, v := range x {
		w, ok := y[key]
		if !ok || !c.equal(v, w) {
			eq = false
			break
		}
	}
	c.leave(k)
	return eq
}

// enter records, past trackDepth, that the pair k is being compared; it
// returns false, and leaves the depth as it was, if it already is
// further up the path.
func (c *comparer) enter(k [2]pathKey) bool {
	if c.onPath[k] {
		c.depth--
		return false
	}
	if c.onPath == nil {
		c.onPath = map[[2]pathKey]bool{}
	}
	c.onPath[k] = true
	return true
}

// leave ends the comparison of a pair of maps or slices (k, recorded
// past trackDepth).
func (c *comparer) leave(k [2]pathKey) {
	if c.depth > trackDepth {
		delete(c.onPath, k)
	}
	c.depth--
}

var objectType = reflect.TypeFor[map[string]any]()

// Object returns v as a map[string]any when it is an object: a
// map[string]any or a value of a named map type with that underlying type
// (the same map, not a copy).
func Object(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	if v == nil {
		return nil, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || !rv.Type().ConvertibleTo(objectType) || rv.Type().Key() != objectType.Key() || rv.Type().Elem() != objectType.Elem() {
		return nil, false
	}
	return rv.Convert(objectType).Interface().(map[string]any), true
}

// Clone returns a deep copy of v: objects (keeping their map type; nil
// stays nil) and arrays are copied, json.RawMessage values too; scalars
// are returned as they are. A value that contains itself (a map or slice
// stored inside itself, which has no JSON: writing it fails with an
// error naming the place) is copied as a value that contains its copy at
// the same places, never followed forever. As in encoding/json, the path
// is tracked only past a nesting no real value reaches (trackDepth), so
// copying costs nothing more up to there.
func Clone(v any) any {
	c := cloner{track: trackDepth}
	out := c.clone(v)
	if c.cyclic { // again, the copy made to the same shape
		c = cloner{}
		out = c.clone(v)
	}
	return out
}

// CloneObject returns a deep copy of m (nil for nil), as Clone copies.
func CloneObject(m map[string]any) map[string]any {
	c := cloner{track: trackDepth}
	out := c.object(m)
	if c.cyclic {
		c = cloner{}
		out = c.object(m)
	}
	return out
}

// trackDepth is the nesting of maps and slices from which Clone remembers
// those on its path.
const trackDepth = 1000

// A cloner copies a value, remembering past nesting track the copies of
// the maps and slices it is inside of. A copy of a value that contains
// itself made with track > 0 holds track levels of it before its cycle:
// Clone copies such a value again with track 0.
type cloner struct {
	depth, track int
	cyclic       bool            // a value met inside itself
	onPath       map[pathKey]any // original → its copy, being made
}

// pathKey identifies a map (p: its reflect.Value's pointer), or a slice by
// its first element (p: a *any) and length. Both are pointers the
// collector follows, compared inside an interface.
type pathKey struct {
	p any
	n int
}

func (c *cloner) clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return c.object(v)
	case []any:
		out := make([]any, len(v))
		c.depth++
		var k pathKey
		if c.depth > c.track && len(v) > 0 {
			k = pathKey{&v[0], len(v)}
			if cp, ok := c.onPath[k]; ok {
				c.depth--
				c.cyclic = true
				return cp
			}
			c.enter(k, out)
		}
		for i, x := range v {
			out[i] = c.clone(x)
		}
		c.leave(k)
		return out
	case json.RawMessage:
		if v == nil {
			return v
		}
		return append(json.RawMessage{}, v...)
	case nil, string, float64, int, bool, json.Number:
		return v
	}
	if m, ok := Object(v); ok {
		return reflect.ValueOf(c.object(m)).Convert(reflect.TypeOf(v)).Interface()
	}
	return v
}

// object copies m.
func (c *cloner) object(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	c.depth++
	var k pathKey
	if c.depth > c.track {
		k = pathKey{p: reflect.ValueOf(m).UnsafePointer()}
		if cp, ok := c.onPath[k]; ok {
			c.depth--
			c.cyclic = true
			return cp.(map[string]any)
		}
		c.enter(k, out)
	}
	for key, v := range m {
		out[key] = c.clone(v)
	}
	c.leave(k)
	return out
}

// leave ends the copy of a map or slice (k, recorded past track).
func (c *cloner) leave(k pathKey) {
	if c.depth > c.track && k.p != nil {
		delete(c.onPath, k)
	}
	c.depth--
}

// enter records cp as the copy being made of the value k.
func (c *cloner) enter(k pathKey, cp any) {
	if c.onPath == nil {
		c.onPath = map[pathKey]any{}
	}
	c.onPath[k] = cp
}
