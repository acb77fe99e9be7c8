package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Metadata (of cells, notebooks and outputs) in ipynb diff: compared as
// JSON values — members in any order, white space and the spelling of
// numbers (300, 300.0, 3e2) ignored — and a change shown at the nested
// key that changed, by its path:
//
//	 ## meta colab.height: 300 → 400
//	+## meta tags = ["x"]
//	-## meta collapsed = false
//
// a changed value with an arrow, a key added or removed as a "+" or "-"
// line. Objects are compared key by key; arrays and other values whole.

// jsonValue is v as ipynb diff compares it: raw JSON (json.RawMessage, as
// metadata is held) decoded, objects as map[string]any, and every number
// as a json.Number of one spelling for each value (numberText), so that
// jsonvalue.Equal compares values, not their bytes.
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.RawMessage:
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var g any
		if dec.Decode(&g) != nil {
			return string(x)
		}
		return jsonValue(g)
	case json.Number:
		return json.Number(numberText(string(x)))
	case float64:
		return json.Number(numberText(strconv.FormatFloat(x, 'g', -1, 64)))
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
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

var integerText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// numberText is one spelling of a JSON number's value: an integer as it
// is written, any other number as Go's shortest float64 text, which is an
// integer's when the value is one (300.0 and 3e2 are 300). A number
// float64 cannot hold keeps its text.
func numberText(s string) string {
	if integerText.MatchString(s) {
		if s == "-0" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// sameJSON reports whether two values are equal as JSON values.
func sameJSON(a, b any) bool { return jsonvalue.Equal(jsonValue(a), jsonValue(b)) }

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
	return strconv.Quote(k)
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
