package jsonsize

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// marshalled is json.Marshal's size of v (ok false when it fails).
func marshalled(v any) (int, bool) {
	b, err := json.Marshal(v)
	return len(b), err == nil
}

// check fails t where Value tells another size than json.Marshal's, or
// tells one where json.Marshal fails.
func check(t *testing.T, v any) {
	t.Helper()
	n, ok := Value(v)
	want, wok := marshalled(v)
	if ok && (!wok || n != want) || !ok && wok {
		t.Errorf("%#v: Value %d %v, json.Marshal %d %v", v, n, ok, want, wok)
	}
	if s, isString := v.(string); isString && String(s) != Bytes([]byte(s)) {
		t.Errorf("%q: String %d, Bytes %d", s, String(s), Bytes([]byte(s)))
	}
}

// Values of every kind generic JSON holds size as json.Marshal writes
// them: escapes (HTML-safe), bytes that are not UTF-8, U+2028/9, floats
// in both notations, json.Number, raw JSON compacted, NaN and infinities
// refused.
func TestValue(t *testing.T) {
	for _, v := range []any{
		nil, true, false, "", "a\"\\/\b\f\n\r\t\x01\x1f\x7f<>&é☕😀\u2028\u2029\xff\xe2\x80", 0, -7, math.MaxInt, math.MinInt,
		0.0, math.Copysign(0, -1), 1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, 1.5e300, -2.5e-300, math.NaN(), math.Inf(1),
		json.Number("12345678901234567890123"), json.Number(""), json.Number("1e5"), json.Number("NaN"), json.Number("x"),
		json.RawMessage(` { "a" : [1, 2.0, "<\u2028\n>"] , "b":"\\u00e9 &" } `), json.RawMessage(nil), json.RawMessage(`[NaN]`),
		[]any{}, []any{1, "x", nil, []any{2.5}}, map[string]any{},
		map[string]any{"<k>": 1, "é": map[string]any{"x": json.RawMessage(`{"y":1}`)}}, []any{math.Inf(-1)},
	} {
		check(t, v)
	}
	// A nil list or object is empty, as nbformat's generic form makes it;
	// values generic JSON does not hold are left to encoding.
	for _, v := range []any{[]any(nil), map[string]any(nil)} {
		if n, ok := Value(v); !ok || n != 2 {
			t.Errorf("%#v: Value %d %v, want 2", v, n, ok)
		}
	}
	for _, v := range []any{struct{}{}, []string{"a"}, float32(1)} {
		if _, ok := Value(v); ok {
			t.Errorf("%#v: sized", v)
		}
	}
}

// checkEscaped fails t where Escaped tells another size than
// json.Marshal's of the string jsontree decodes from raw (the contents of
// a valid JSON string).
func checkEscaped(t *testing.T, raw string) {
	t.Helper()
	if !json.Valid([]byte(`"` + raw + `"`)) {
		return
	}
	want, _ := marshalled(jsontree.UnescapeString([]byte(raw)))
	if got := Escaped([]byte(raw)); got != want {
		t.Errorf("%q: Escaped %d, json.Marshal of it decoded %d", raw, got, want)
	}
}

// Strings given with escapes size as decoded: every escape, surrogate
// pairs, lone surrogates (U+FFFD), escapes beside bytes that are not
// UTF-8, characters encoding/json escapes again.
func TestEscaped(t *testing.T) {
	for _, raw := range []string{
		``, `a`, `\"\\\/\b\f\n\r\t`, `\u0000\u001f\u007f\u003c\u00e9\u2028\u2029\uFFFD`,
		`\ud83d\ude00`, `\ud800`, `\udc00x`, `\ud800\u0041`, `\ud800\ud800\udc00`, "\xe2\u0080\x80", "\xff\n\xc3",
		`<&>\u003e`, "é☕😀\u2028",
	} {
		checkEscaped(t, raw)
	}
}

// FuzzValue: strings, floats and raw JSON size as json.Marshal writes
// them.
func FuzzValue(f *testing.F) {
	f.Add("a<b>\u2028\xff", 1.5, []byte(`{"a": [1, "<"]}`))
	f.Add("", 1e21, []byte(`[NaN]`))
	f.Add(`\ud800\u0041\n\"`, math.Copysign(0, -1), []byte(`"\u2028"`))
	f.Fuzz(func(t *testing.T, s string, x float64, raw []byte) {
		check(t, s)
		checkEscaped(t, s)
		check(t, x)
		if json.Valid(raw) {
			check(t, json.RawMessage(raw))
		}
	})
}
