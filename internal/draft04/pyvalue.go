package draft04

// Python value semantics: enum membership as Python's ==, uniqueItems as
// fastjsonschema's hashing.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// inEnum reports whether node i is in n's enum, comparing as Python's ==
// does: numbers by value (true == 1, false == 0), strings, null, arrays
// and objects structurally.
func (v *validator) inEnum(i int, n *node) bool {
	t := v.t
	switch t.Nodes[i].Kind {
	case jsontree.String:
		// The common case, without decoding: string enums.
		for _, e := range n.enum {
			if s, ok := e.(string); ok && t.StrIs(i, s) {
				return true
			}
		}
		return false
	case jsontree.Null:
		for _, e := range n.enumPy {
			if e == nil {
				return true
			}
		}
		return false
	case jsontree.True, jsontree.False, jsontree.Number:
		// Without boxing the value: compare it with the enum's numbers.
		f := pyNumber(t, i)
		for _, e := range n.enumPy {
			if g, ok := e.(float64); ok && g == f {
				return true
			}
		}
		return false
	}
	if t.Lazy(i) && !containerIn(n.enum) {
		return false // a container equals no scalar (and a lazy one is not read)
	}
	x := pyValue(t, i)
	for _, e := range n.enumPy {
		if pyEqual(x, e) {
			return true
		}
	}
	return false
}

// pyNumber is the value of a number or boolean node as Python compares
// it.
func pyNumber(t *jsontree.Tape, i int) float64 {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case jsontree.True:
		return 1
	case jsontree.False:
		return 0
	}
	if raw := t.Raw(i); nd.Flags&jsontree.FlagInt != 0 && len(raw) <= maxExactDigits {
		return smallInt(raw)
	}
	f, err := strconv.ParseFloat(string(t.Raw(i)), 64)
	if err != nil && nd.Flags&jsontree.FlagNonFinite != 0 {
		switch string(t.Raw(i)) {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		default:
			return math.Inf(-1)
		}
	}
	return f
}

// maxExactDigits is the most characters of an integer smallInt reads: up
// to 15 digits (and a sign), every value is below 2^53, so exact in a
// float64 and equal to what ParseFloat gives.
const maxExactDigits = 15

// smallInt is the value of a JSON integer of at most maxExactDigits
// characters (an optional minus, then digits).
func smallInt(raw []byte) float64 {
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	var n int64
	for _, c := range raw {
		n = n*10 + int64(c-'0')
	}
	if neg {
		return -float64(n)
	}
	return float64(n)
}

// pyValue converts node i for Python-style comparison: numbers (and
// booleans) as float64.
func pyValue(t *jsontree.Tape, i int) any {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case jsontree.Null:
		return nil
	case jsontree.String:
		return t.Str(i)
	case jsontree.True, jsontree.False, jsontree.Number:
		return pyNumber(t, i)
	case jsontree.Array:
		var a []any
		t.Children(i, func(k int) bool {
			a = append(a, pyValue(t, k))
			return true
		})
		return a
	case jsontree.Object:
		m := map[string]any{}
		t.Children(i, func(k int) bool {
			m[t.KeyString(k)] = pyValue(t, k)
			return true
		})
		return m
	}
	return nil
}

func fromJSON(e any) any {
	switch e := e.(type) {
	case bool:
		if e {
			return 1.0
		}
		return 0.0
	case json.Number:
		f, _ := e.Float64()
		return f
	case []any:
		out := make([]any, len(e))
		for i, x := range e {
			out[i] = fromJSON(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(e))
		for k, x := range e {
			out[k] = fromJSON(x)
		}
		return out
	}
	return e
}

func pyEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !pyEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !pyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return a == b
}

// canonicalKey is a string that is equal exactly when fastjsonschema's
// uniqueItems sees equal values. It hashes fn(value), where fn turns
// objects into frozensets of (key, fn(member)) pairs, arrays into tuples
// of fn(item), booleans into the strings "True" and "False" (so true
// equals "True" but not 1), and keeps numbers, whose Python equality makes
// 1 equal 1.0 (and every NaN of a file equal, as Python's json reads them
// all as one object).
func canonicalKey(t *jsontree.Tape, i int) string {
	var b strings.Builder
	writeKey(&b, t, i)
	return b.String()
}

func writeKey(b *strings.Builder, t *jsontree.Tape, i int) {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case jsontree.Null:
		b.WriteString("n;")
	case jsontree.True:
		writeStrKey(b, "True")
	case jsontree.False:
		writeStrKey(b, "False")
	case jsontree.String:
		writeStrKey(b, t.Str(i))
	case jsontree.Number:
		b.WriteString("d")
		b.WriteString(numberKey(t.Raw(i), nd.Flags))
		b.WriteString(";")
	case jsontree.Array:
		b.WriteString("[")
		t.Children(i, func(k int) bool {
			writeKey(b, t, k)
			return true
		})
		b.WriteString("]")
	case jsontree.Object:
		// A dict keeps the last of duplicate keys; a frozenset has no order.
		members := map[string]string{}
		t.Children(i, func(k int) bool {
			var m strings.Builder
			writeKey(&m, t, k)
			members[t.KeyString(k)] = m.String()
			return true
		})
		pairs := make([]string, 0, len(members))
		for k, v := range members {
			var p strings.Builder
			writeStrKey(&p, k)
			p.WriteString(v)
			pairs = append(pairs, p.String())
		}
		sort.Strings(pairs)
		b.WriteString("{")
		for _, p := range pairs {
			fmt.Fprintf(b, "%d:%s", len(p), p)
		}
		b.WriteString("}")
	}
}

func writeStrKey(b *strings.Builder, s string) {
	fmt.Fprintf(b, "s%d:%s", len(s), s)
}

// numberKey spells a JSON number so that numbers Python finds equal
// (int 1, float 1.0 and 1e0) are spelled alike: integral values as their
// exact integer, others as the shortest float64 spelling.
func numberKey(raw []byte, flags uint8) string {
	if flags&jsontree.FlagNonFinite != 0 {
		return string(raw)
	}
	if flags&jsontree.FlagInt != 0 {
		var n big.Int
		if _, ok := n.SetString(string(raw), 10); ok {
			return n.String()
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil { // out of range: Python reads it as inf
		if raw[0] == '-' {
			return "-Infinity"
		}
		return "Infinity"
	}
	if math.IsInf(f, 0) {
		if f < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	if f == math.Trunc(f) {
		n, _ := big.NewFloat(f).Int(nil)
		return n.String()
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// containerIn reports whether an enum lists an array or object.
func containerIn(enum []any) bool {
	for _, e := range enum {
		switch e.(type) {
		case []any, map[string]any:
			return true
		}
	}
	return false
}
