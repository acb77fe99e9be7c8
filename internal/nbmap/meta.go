package nbmap

// Metadata as generic JSON sharing the struct's values, and compared with
// the struct: the helpers of map_gen.go's meta<S>, reads<S> and equal<S>.

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// MetaMap returns md, a pointer to a generated metadata struct of package
// nbformat, as the generic object ToMap gives for it, but holding the
// struct's values themselves, converting none: ok is false (and ToMap must
// convert md) unless every typed member set is a required or optional
// string, an optional bool, int or float64, a value ToMap keeps as it is
// (keptValue), or a struct MetaMap reads, and every value of
// AdditionalProperties is one ToMap keeps.
//
// same is, when no typed member is set (required strings are always set),
// md's AdditionalProperties itself, which holds what meta holds, so that
// a caller that never changes it (a notebook's values are replaced, never
// changed in place: see nbformat.Heal) can share it rather than copy it;
// nil otherwise.
func MetaMap(md any) (meta, same map[string]any, ok bool) { return metaOf(md) }

// MetaEqual reports whether m equals (as jsonvalue.Equal compares them,
// m's values first) the object MetaMap gives for md, without making it:
// ok is false where MetaMap does not read md, and the caller must compare
// with ToMap's object.
func MetaEqual(m map[string]any, md any) (same, ok bool) { return equalOf(m, md) }

// SameValue is jsonvalue.Equal(v, w), without its general walk for
// strings, booleans, null and ints compared with their own type, and raw
// JSON of the same bytes.
func SameValue(v, w any) bool {
	switch x := v.(type) {
	case string:
		if y, ok := w.(string); ok {
			return x == y
		}
	case bool:
		if y, ok := w.(bool); ok {
			return x == y
		}
	case int:
		if y, ok := w.(int); ok {
			return x == y
		}
	case nil:
		if w == nil {
			return true
		}
	case json.RawMessage:
		if y, ok := w.(json.RawMessage); ok && (x == nil) == (y == nil) && bytes.Equal(x, y) {
			return true
		}
	}
	return jsonvalue.Equal(v, w)
}

func sameValue(v, w any) bool { return SameValue(v, w) }

// keptValue reports whether ToMap returns x, a value of a generated
// struct's AdditionalProperties or interface member, as it is.
func keptValue(x any) bool {
	switch x := x.(type) {
	case nil, bool, string, int, float64:
		return true
	case json.RawMessage:
		return x != nil // (ToMap gives null for a nil one)
	}
	return false
}

// keptValues reports whether ToMap keeps every value of extra as it is.
func keptValues(extra map[string]any) bool {
	for _, x := range extra {
		if !keptValue(x) {
			return false
		}
	}
	return true
}

// extraCopy is the object of a struct with no typed member set: a copy of
// its extra keys (for a small map, its one group copied), never nil.
func extraCopy(extra map[string]any) map[string]any {
	if len(extra) == 0 {
		return make(map[string]any)
	}
	return maps.Clone(extra)
}

// setRequired sets a required string member: always, but an empty one
// does not shadow an extra key of its name.
func setRequired(m map[string]any, key, s string) {
	if s != "" {
		m[key] = s
	} else if _, ok := m[key]; !ok {
		m[key] = ""
	}
}

// sameString is jsonvalue.Equal(v, s), without making s a value when v
// is a string.
func sameString(v any, s string) bool {
	if y, ok := v.(string); ok {
		return y == s
	}
	return jsonvalue.Equal(v, s)
}

func sameBool(v any, b bool) bool {
	if y, ok := v.(bool); ok {
		return y == b
	}
	return jsonvalue.Equal(v, b)
}

func sameInt(v any, n int) bool {
	if y, ok := v.(int); ok {
		return y == n
	}
	return jsonvalue.Equal(v, n)
}

// sameFloat is jsonvalue.Equal(v, f): NaN equals NaN.
func sameFloat(v any, f float64) bool {
	if y, ok := v.(float64); ok {
		return y == f || math.IsNaN(f) && math.IsNaN(y)
	}
	return jsonvalue.Equal(v, f)
}

// jsonObject is v as an object (a map, or raw JSON of one), as
// jsonvalue.Object reads it.
func jsonObject(v any) (map[string]any, bool) { return jsonvalue.Object(v) }

// The helpers the views call only for some schemas, kept for a schema
// change to use.
var _ = [...]any{sameBool, sameInt, sameFloat, sameString, setRequired, jsonObject}
