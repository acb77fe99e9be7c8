package jsonvalue

// Tests of Equal and Clone, values that contain themselves included.

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type named map[string]any

// Equal follows its documented rules: objects of any map type member by
// member, nil equal to empty, numbers by value whatever their Go type, NaN
// equal to NaN.
func TestEqual(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{map[string]any{"a": 1, "b": []any{"x", nan}}, map[string]any{"b": []any{"x", nan}, "a": 1}, true},
		{map[string]any(nil), map[string]any{}, true},
		{named{"a": 1}, map[string]any{"a": 1}, true},
		{map[string]any{"a": named{"b": 2}}, map[string]any{"a": map[string]any{"b": 2}}, true},
		{map[string]any{"a": 1}, map[string]any{"a": 1.0}, true},
		{map[string]any{"a": 1}, map[string]any{"a": 1.5}, false},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{[]any{1, 2}, []any{2, 1}, false},
		{[]any{}, []any(nil), true},
		{json.Number("1e400"), json.Number("1e400"), true},
		{json.Number("1"), 1, true},
		{json.Number("2"), 1, false},
		{nil, nil, true},
		{nil, map[string]any{}, false},
		{"a", "a", true},
		{true, false, false},
		{json.RawMessage(`[1]`), json.RawMessage(`[1]`), true},
		{named{"a": 1}, "a", false},
	} {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Equal(c.b, c.a); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v (swapped)", c.b, c.a, got, c.want)
		}
	}
}

// Clone copies every object, array and raw JSON, keeping map types; a
// change to the copy never reaches the original.
func TestClone(t *testing.T) {
	orig := map[string]any{"o": named{"k": []any{1, map[string]any{"x": "y"}}}, "r": json.RawMessage(`{"a":1}`), "n": nil, "f": 1.5}
	c := Clone(orig).(map[string]any)
	if !Equal(orig, c) {
		t.Fatalf("clone differs: %#v", c)
	}
	if _, ok := c["o"].(named); !ok {
		t.Errorf("named map became %T", c["o"])
	}
	c["o"].(named)["k"].([]any)[1].(map[string]any)["x"] = "changed"
	c["r"].(json.RawMessage)[2] = 'b'
	if orig["o"].(named)["k"].([]any)[1].(map[string]any)["x"] != "y" || string(orig["r"].(json.RawMessage)) != `{"a":1}` {
		t.Errorf("original changed: %#v", orig)
	}
	if CloneObject(nil) != nil || Clone(named(nil)).(named) != nil {
		t.Error("nil object cloned to non-nil")
	}
	if !cmp.Equal(Clone([]any{}), []any{}) {
		t.Error("empty array")
	}
}

// A value that contains itself is copied to the same shape: the copy
// contains itself at the same places (not the original, and not unrolled
// to some depth), whatever the length of the cycle; before, copying it
// overflowed the stack (fatal), as dialog.NewOutput did on such a map.
func TestCloneCycles(t *testing.T) {
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	m := map[string]any{"a": 1.0}
	m["self"] = m
	c := CloneObject(m)
	if same(c, m) || !same(c["self"], c) || c["a"] != 1.0 {
		t.Errorf("CloneObject of a map in itself: copy %p, its self %p, original %p", c, c["self"], m)
	}
	inner := []any{2.0, nil}
	s := []any{1.0, inner}
	inner[1] = s
	cs := Clone(s).([]any)
	if same(cs, s) || !same(cs[1].([]any)[1], cs) || same(cs[1], inner) {
		t.Error("Clone of nested slices in themselves: not the same shape")
	}
	// A cycle longer than the depth from which paths are tracked.
	head := map[string]any{}
	x := head
	for range 2 * trackDepth {
		next := map[string]any{}
		x["next"] = next
		x = next
	}
	x["next"] = head
	ch := Clone(head).(map[string]any)
	y := ch
	for range 2*trackDepth + 1 {
		y = y["next"].(map[string]any)
	}
	if !same(y, ch) {
		t.Error("Clone of a long cycle: the copy does not come back to its head")
	}
	// Named map types keep their type and their cycle.
	type obj map[string]any
	o := obj{}
	o["o"] = o
	co := Clone(o).(obj)
	if same(co, o) || !same(co["o"], co) {
		t.Error("Clone of a named map type in itself: not the same shape")
	}
}

// Values that contain themselves compare without end: equal when they
// unfold to the same values (a map in itself and its copy, cycles of
// different lengths over the same values), unequal when a value differs
// anywhere; before, comparing them overflowed the stack (fatal), as
// dialog.Diff did on two dialogs holding such a value.
func TestEqualCycles(t *testing.T) {
	m := map[string]any{"a": 1.0}
	m["self"] = m
	two := map[string]any{"a": 1.0}
	two["self"] = map[string]any{"a": 1.0, "self": two}
	other := map[string]any{"a": 2.0}
	other["self"] = other
	s := []any{1.0, nil}
	s[1] = s
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"itself", m, m, true},
		{"its copy", m, Clone(m), true},
		{"a cycle twice as long", m, two, true},
		{"another value", m, other, false},
		{"a finite value", m, map[string]any{"a": 1.0, "self": map[string]any{"a": 1.0}}, false},
		{"slices", s, Clone(s), true},
		{"a slice and a map", map[string]any{"s": s}, map[string]any{"s": m}, false},
	} {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
		if got := Equal(c.b, c.a); got != c.want {
			t.Errorf("%s, swapped: Equal = %v, want %v", c.name, got, c.want)
		}
	}
}
