package main

// Metadata changes in ipynb diff: values compared as JSON, each change a line
// at its nested path.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Metadata (of cells, notebooks and outputs) in ipynb diff: compared as
// JSON values (jsonvalue.Equal: members in any order, white space
// ignored, numbers by value) and a change shown at the nested key that
// changed, by its path:
//
//	 ## meta colab.height: 300 → 400
//	+## meta tags = ["x"]
//	-## meta collapsed = false
//
// a changed value with an arrow, a key added or removed as a "+" or "-"
// line. Objects are compared key by key; arrays and other values whole.

// jsonValue is v as ipynb diff walks it: raw JSON (json.RawMessage, as
// metadata is held) decoded with its numbers as written (json.Number),
// objects as map[string]any; values are compared with jsonvalue.Equal
// (numbers by value, as Python compares what its json module reads).
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.RawMessage:
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var g any
		if dec.Decode(&g) != nil {
			return string(x)
		}
		return g
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	}
	if m, ok := jsonvalue.Object(v); ok {
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = jsonValue(e)
		}
		return out
	}
	return v
}

// sameJSON reports whether two values are equal as JSON values.
func sameJSON(a, b any) bool { return jsonvalue.Equal(a, b) }

// A leafChange is one nested key whose value changed: the value before
// and after as compact JSON, or "" where the key is absent.
type leafChange struct{ path, a, b string }

// leafChanges lists the nested keys of two values that differ, under the
// path given (objects descended in key order, other values compared
// whole); absent values are nil with has false.
func leafChanges(path string, a, b any, hasA, hasB bool) []leafChange {
	var out []leafChange
	collectLeaves(path, jsonValue(a), jsonValue(b), hasA, hasB, &out)
	return out
}

func collectLeaves(path string, a, b any, hasA, hasB bool, out *[]leafChange) {
	oa, okA := a.(map[string]any)
	ob, okB := b.(map[string]any)
	if okA && okB && hasA && hasB {
		keys := maps.Clone(oa)
		maps.Copy(keys, ob)
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			va, ha := oa[k]
			vb, hb := ob[k]
			collectLeaves(path+"."+pathWord(k), va, vb, ha, hb, out)
		}
		return
	}
	if hasA == hasB && jsonvalue.Equal(a, b) {
		return
	}
	l := leafChange{path: path}
	if hasA {
		l.a = compactJSON(a)
	}
	if hasB {
		l.b = compactJSON(b)
	}
	*out = append(*out, l)
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@$-]+$`)

// pathWord is a key as a path shows it: as it is when it is a plain
// word, else quoted ("a.b" stays one key).
func pathWord(k string) string {
	if plainWord.MatchString(k) {
		return k
	}
	return quoteUnits(k)
}

// metaLine is a leaf change as a line of ipynb diff (see above), with
// what ("meta", "attr", "output metadata") before the path.
func metaLine(what string, l leafChange) string {
	switch {
	case l.a == "":
		return fmt.Sprintf("+%s%s %s = %s\n", headerMark, what, l.path, l.b)
	case l.b == "":
		return fmt.Sprintf("-%s%s %s = %s\n", headerMark, what, l.path, l.a)
	}
	return fmt.Sprintf(" %s%s %s: %s → %s\n", headerMark, what, l.path, l.a, l.b)
}

// changedMetaKeys are those of keys (a Change's, "attr:NAME" for
// attributes) whose values in ma/mb (looked up by of) differ as JSON
// values.
func changedMetaKeys(keys []string, of func(k string) (ma, mb map[string]any, name string)) []string {
	var out []string
	for _, k := range keys {
		ma, mb, name := of(k)
		va, hasA := ma[name]
		vb, hasB := mb[name]
		if hasA != hasB || !sameJSON(va, vb) {
			out = append(out, k)
		}
	}
	return out
}

// metaPrefix is what a metadata line of key k says before the path:
// "attr NAME" for attributes, else "meta KEY".
func metaPrefix(k string) (what, path string) {
	if attr, ok := strings.CutPrefix(k, "attr:"); ok {
		return "attr", pathWord(attr)
	}
	return "meta", pathWord(k)
}
