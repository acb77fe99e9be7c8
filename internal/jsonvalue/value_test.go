package jsonvalue

import (
	"encoding/json"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// python runs a Python 3 script with stdin, skipping t without Python.
func python(t *testing.T, script, stdin string) string {
	t.Helper()
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		t.Skip("python3 absent: no reference")
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	return string(out)
}

// Numbers are equal exactly when Python's json module reads them as equal
// values (NaN equal to NaN, on purpose), whatever their spelling; the
// reference is Python itself, pair by pair.
func TestNumbersEqualAsPython(t *testing.T) {
	nums := []string{"1", "1.0", "1e0", "10E-1", "1.00000000000000000001", "0", "-0", "-0.0", "0e5",
		"0.1", "0.10000000000000001", "0.1000000000000001", "100", "1e2", "1E+2", "100.5",
		"123456789012345678901234567890", "1.2345678901234568e+29", "1e30", "1000000000000000000000000000000",
		"9007199254740993", "9007199254740992", "9007199254740992.0", "1e400", "-1e400", "Infinity", "-Infinity", "NaN",
		"1e-400", "5e-324", "-5e-324", "2", "-2", "18446744073709551616", "1.8446744073709552e19"}
	var pairs []string
	for _, a := range nums {
		for _, b := range nums {
			pairs = append(pairs, a+" "+b)
		}
	}
	out := python(t, `
import json, math, sys
for line in sys.stdin:
    a, b = (json.loads(x) for x in line.split())
    nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    print(1 if a == b or nan else 0)
`, strings.Join(pairs, "\n")+"\n")
	want := strings.Fields(out)
	if len(want) != len(pairs) {
		t.Fatalf("python gave %d answers for %d pairs", len(want), len(pairs))
	}
	for i, p := range pairs {
		a, b, _ := strings.Cut(p, " ")
		for _, form := range []struct {
			name string
			x, y any
		}{
			{"json.Number", json.Number(a), json.Number(b)},
			{"decoded", mustDecode(t, a), mustDecode(t, b)},
			{"raw", json.RawMessage(a), json.RawMessage(b)},
			{"in arrays", json.RawMessage("[" + a + "]"), []any{goNumber(t, b)}},
		} {
			if got := Equal(form.x, form.y); got != (want[i] == "1") {
				t.Errorf("%s: Equal(%s, %s) = %v, Python says %s", form.name, a, b, got, want[i])
			}
		}
	}
}

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("Decode(%q): %v", s, err)
	}
	return v
}

// goNumber is s as package nbformat's reader holds it: an int when it is
// an integer that fits, json.Number for a larger one, float64 otherwise.
func goNumber(t *testing.T, s string) any {
	n, ok := parseNumber(s)
	if !ok {
		t.Fatalf("not a number: %s", s)
	}
	if n.isFloat {
		return n.f
	}
	if n.i.IsInt64() {
		return int(n.i.Int64())
	}
	return json.Number(s)
}

// Equal compares values, not their Go representation nor their spelling:
// raw JSON however spaced and ordered against decoded maps, typed slices
// against generic arrays, named map types; and still tells different
// values apart.
func TestEqualValues(t *testing.T) {
	type named map[string]any
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{json.RawMessage(`{"a": 1, "b": [1, 2]}`), json.RawMessage("{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": 1\n}"), true},
		{json.RawMessage(`{"a":1,"b":[1,2]}`), map[string]any{"b": []any{1, 2.0}, "a": json.Number("1")}, true},
		{json.RawMessage(`{"a":1}`), named{"a": 1}, true},
		{json.RawMessage(`["x","y"]`), []string{"x", "y"}, true},
		{[]any{"x"}, []string{"x"}, true},
		{json.RawMessage(`"\u00e9"`), "é", true},
		{json.RawMessage(`"\ud83d"`), json.RawMessage(`"\ud83e"`), false},
		{json.RawMessage(`"\ud83d"`), json.RawMessage(`"\uD83D"`), true},
		{json.RawMessage(`"\ud83d\ude00"`), "😀", true},
		{json.RawMessage(`"\ud83d"`), "\ufffd", false},
		{json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":2}`), false},
		{json.RawMessage(`{"a":1,"a":2}`), map[string]any{"a": 2}, true},
		{json.RawMessage(`[1,2]`), json.RawMessage(`[2,1]`), false},
		{json.RawMessage(`null`), nil, true},
		{json.RawMessage(nil), nil, true},
		{json.RawMessage(`not json`), json.RawMessage(`not json`), true},
		{json.RawMessage(`not json`), json.RawMessage(`not  json`), false},
		{true, 1, false},
		{true, json.RawMessage(`true`), true},
		{"1", 1, false},
		{map[string]any{}, []any{}, false},
		{map[string]any(nil), json.RawMessage(`{}`), true},
		{[]byte("hi"), "aGk=", true}, // as encoding/json writes a []byte
		{struct{ A int }{1}, map[string]any{"A": 1}, true},
		{math.NaN(), json.RawMessage(`NaN`), true},
	} {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Equal(c.b, c.a); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v (swapped)", c.b, c.a, got, c.want)
		}
	}
}

// Decode reads what Python's json module reads, string by string code
// unit by code unit: lone surrogates kept (as WTF-8), pairs joined; and
// AppendQuoted writes back text Python reads as the same string.
func TestDecodeStringsAsPython(t *testing.T) {
	cases := []string{`"\ud83d"`, `"a\udc00b"`, `"\ud83d\ude00"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`,
		`"é\u00e9\/\"\\\b\f\n\r\t\u0000"`, `"😀"`, `"\uDBFF\uDFFF"`, `"x\ud800"`}
	out := python(t, `
import json, sys
for line in sys.stdin:
    s = json.loads(line)
    print(" ".join("%04x" % ord(c) if ord(c) < 0x10000 else "%x" % ord(c) for c in s) or "-")
`, strings.Join(cases, "\n")+"\n")
	want := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, c := range cases {
		v, err := Decode([]byte(c))
		if err != nil {
			t.Fatalf("Decode(%s): %v", c, err)
		}
		s := v.(string)
		if got := codeUnits(s); got != want[i] {
			t.Errorf("Decode(%s) = %s, Python %s", c, got, want[i])
		}
		back := AppendQuoted(nil, s)
		v2, err := Decode(back)
		if err != nil || v2.(string) != s {
			t.Errorf("AppendQuoted(Decode(%s)) = %s, reads back as %q (%v)", c, back, v2, err)
		}
	}
}

// codeUnits lists the code points of a WTF-8 string as Python prints them.
func codeUnits(s string) string {
	var parts []string
	for i := 0; i < len(s); {
		if r, ok := Surrogate(s[i:]); ok {
			parts = append(parts, hex4s(r))
			i += 3
			continue
		}
		r, n := rune(s[i]), 1
		if r >= 0x80 {
			rs := []rune(s[i:])
			r = rs[0]
			n = len(string(r))
		}
		if r < 0x10000 {
			parts = append(parts, hex4s(r))
		} else {
			parts = append(parts, strings.TrimLeft(hex4s(r>>16), "0")+hex4s(r&0xffff))
		}
		i += n
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func hex4s(r rune) string {
	const d = "0123456789abcdef"
	return string([]byte{d[r>>12&15], d[r>>8&15], d[r>>4&15], d[r&15]})
}

// Decode refuses what is not JSON (Python's extensions NaN and ±Infinity
// aside), as encoding/json does.
func TestDecodeRefuses(t *testing.T) {
	for _, s := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1.`, `.5`, `1e`, `"\x"`, "\"\x01\"", "\"\xff\"", `tru`, `1 2`, `{"a":1,}`, `"\u12"`} {
		if _, err := Decode([]byte(s)); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
		if json.Valid([]byte(s)) && s != "\"\xff\"" { // (encoding/json lets invalid UTF-8 be)
			t.Errorf("%q is JSON to encoding/json", s)
		}
	}
	for _, s := range []string{`{"a":[1,{"b":null}],"c":"d"}`, ` 1 `, `-0.5e+3`, `[]`, `{}`, `"\u12aB"`} {
		if _, err := Decode([]byte(s)); err != nil {
			t.Errorf("Decode(%q): %v", s, err)
		}
	}
}

// Members and Elements give an object's members in order (a repeated key
// where it first came, with its last value, as Python's dict) and an
// array's elements, as written.
func TestMembersElements(t *testing.T) {
	ms, ok := Members([]byte(` {"b": [1, 2], "a": {"x": 1}, "b": 3, "\u00e9": "s"} `))
	if !ok || len(ms) != 3 || ms[0].Key != "b" || string(ms[0].Value) != "3" || ms[1].Key != "a" || string(ms[1].Value) != `{"x": 1}` || ms[2].Key != "é" {
		t.Errorf("Members: %v %q", ok, ms)
	}
	if ms, ok := Members([]byte(`{}`)); !ok || len(ms) != 0 {
		t.Errorf("Members({}): %v %v", ok, ms)
	}
	for _, bad := range []string{`[]`, `{"a":1`, `{"a":1} x`, `"s"`} {
		if _, ok := Members([]byte(bad)); ok {
			t.Errorf("Members(%s) ok", bad)
		}
	}
	es, ok := Elements([]byte(`[1, {"a": [2]}, "x"]`))
	if !ok || len(es) != 3 || string(es[1]) != `{"a": [2]}` {
		t.Errorf("Elements: %v %q", ok, es)
	}
}

// AppendFloat writes floats as Python's json.dumps does.
func TestAppendFloatAsPython(t *testing.T) {
	fs := []float64{0, 1, -1, 0.1, 100, 1e15, 1e16, 123456789, 1.5e-5, 0.0001, 0.00001, 1e300, 5e-324, 2.5,
		math.Copysign(0, -1), 1234567890123456.7, 12345678901234567.0, math.Inf(1), math.Inf(-1), math.NaN()}
	var in []string
	for _, f := range fs {
		switch {
		case math.IsNaN(f):
			in = append(in, "nan")
		case math.IsInf(f, 0):
			in = append(in, strconv.FormatFloat(f, 'g', -1, 64))
		default:
			in = append(in, strconv.FormatFloat(f, 'x', -1, 64))
		}
	}
	out := python(t, `
import json, sys
for line in sys.stdin:
    print(json.dumps(float.fromhex(line.strip())))
`, strings.Join(in, "\n")+"\n")
	want := strings.Fields(out)
	for i, f := range fs {
		if got := string(AppendFloat(nil, f)); got != want[i] {
			t.Errorf("AppendFloat(%v) = %s, Python %s", f, got, want[i])
		}
	}
}
