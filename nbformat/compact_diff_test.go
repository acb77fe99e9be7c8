// Differential test: internal/nbjson.Encode (jsonvalue.Compact) writes what the encoder's encodeCompact writes.
package nbformat_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/nbformat"
)

type otherGo struct {
	A int      `json:"a"`
	B string   `json:"b,omitempty"`
	C []any    `json:"c"`
	P *otherGo `json:"p,omitempty"`
}

// hostileValues are values a caller may hand the compact encoder.
func hostileValues() map[string]any {
	self := map[string]any{"a": 1.0}
	self["self"] = self
	s := []any{1.0, nil}
	inner := []any{2.0, nil}
	s[1], inner[1] = inner, s
	loop := &otherGo{A: 1}
	loop.P = loop
	deep := any(1)
	for range 10005 {
		deep = []any{deep}
	}
	deepMap := any("x")
	for range 10005 {
		deepMap = map[string]any{"k": deepMap}
	}
	var nilMap map[string]any
	var nilSlice []any
	var nilStrings []string
	var nilRaw json.RawMessage
	md := nbformat.NewCodeCell("x = 1\ny = 2\n")
	md.Metadata.Tags = []string{"a", "b"}
	return map[string]any{
		"nil":             nil,
		"nan":             math.NaN(),
		"inf":             math.Inf(1),
		"-inf":            math.Inf(-1),
		"in map nan":      map[string]any{"x": math.NaN(), "y": []any{math.Inf(-1), math.Inf(1)}},
		"floats":          []any{0.0, math.Copysign(0, -1), 1e16, 1e15, 1.5e-5, 0.0001, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64},
		"ints":            []any{0, -1, math.MaxInt64, math.MinInt64},
		"other ints":      map[string]any{"i8": int8(-8), "i64": int64(-1 << 40), "u": uint(7), "u64": uint64(math.MaxUint64), "f32": float32(1.5)},
		"number":          json.Number("123456789012345678901234567890"),
		"number nan":      json.Number("NaN"),
		"number inf":      []any{json.Number("Infinity"), json.Number("-Infinity")},
		"number neg":      json.Number("-0.5e-300"),
		"number bad":      json.Number("12x"),
		"number bad in":   map[string]any{"n": json.Number("")},
		"number spaces":   json.Number(" 1"),
		"raw":             json.RawMessage("[ 1 , \"x y\" ,\n {\"b\" : 2, \"a\":1} ]"),
		"raw in map":      map[string]any{"a": json.RawMessage("[ 1 , \"x y\" ]"), "b": json.RawMessage("{ }\n")},
		"raw bad":         json.RawMessage("[1,"),
		"raw bad in map":  map[string]any{"r": json.RawMessage("{")},
		"raw empty":       map[string]any{"r": json.RawMessage("")},
		"raw nil":         nilRaw,
		"raw nil in map":  map[string]any{"r": nilRaw},
		"raw trailing":    json.RawMessage("1 2"),
		"raw nan":         json.RawMessage("[NaN, -Infinity]"),
		"strings":         []any{"", "é", "\u2028\u2029", "<&>", "\x00\x1f\"\\", "\U0001F600"},
		"invalid utf8":    "a\xffb",
		"invalid in map":  map[string]any{"k": "\xc3"},
		"invalid key":     map[string]any{"\xff": 1},
		"lone surrogate":  string([]rune{0xD800}),
		"surrogate text":  "\\ud800",
		"[]string":        []string{"a", "b\n"},
		"[]string in":     map[string]any{"s": []string{"x"}, "n": nilStrings},
		"map string":      map[string]any{"m": map[string]string{"z": "1", "a": "2"}},
		"nesting":         map[string]any{"a": []any{map[string]any{"b": []any{[]any{}, map[string]any{}}}}, "": "empty key"},
		"nil map":         nilMap,
		"nil slice":       nilSlice,
		"nil in map":      map[string]any{"m": nilMap, "s": nilSlice},
		"multiline":       map[string]any{"t": nbformat.Text("a\nb\n")},
		"multiline top":   nbformat.Text("one\ntwo"),
		"bundle":          map[string]any{"b": nbformat.NewMimeBundle("text/plain", "hi\nthere", "text/html", "<b>")},
		"cell id":         map[string]any{"id": nbformat.CellID("abc"), "type": nbformat.CellType("code")},
		"cell":            map[string]any{"c": md},
		"cell metadata":   map[string]any{"m": md.Metadata, "p": &md.Metadata},
		"go struct":       map[string]any{"g": otherGo{A: 2, C: []any{"x", math.NaN()}}},
		"go struct top":   otherGo{A: 3},
		"go map":          map[string]int{"b": 1, "a": 2},
		"go slice":        []int{3, 1},
		"chan":            map[string]any{"c": make(chan int)},
		"func":            func() {},
		"cycle map":       self,
		"cycle in map":    map[string]any{"outer": map[string]any{"x": self}},
		"cycle slices":    s,
		"cycle slices in": map[string]any{"tags": []any{"t"}, "s": s},
		"cycle go":        map[string]any{"g": loop},
		"cycle with bad":  map[string]any{"a": self, "b": "\xff"},
		"deep":            deep,
		"deep map":        deepMap,
	}
}

// nbjson.Encode writes the bytes, or the error (by its text), the
// encoder's compact JSON gives, for every hostile value.
func TestCompactMatchesEncoder(t *testing.T) {
	t.Parallel()
	for name, v := range hostileValues() {
		want, wantErr := nbformat.EncodeCompact(v)
		got, gotErr := nbjson.Encode(v)
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Errorf("%s: error %v, want %v", name, gotErr, wantErr)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s: %.200s, want %.200s", name, got, want)
		}
		if strings.Contains(name, "cycle") && (wantErr == nil || !strings.Contains(wantErr.Error(), "contains itself")) {
			t.Errorf("%s: error %v is not a cycle's", name, wantErr)
		}
	}
}
