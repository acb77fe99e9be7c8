package jsontree

// Tests of Python's spelling of floats, numbers and strings, acceptance as
// Python's, the tape's structure and limits.

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// AppendPythonFloat spells floats as CPython's json.dumps does
// (testdata/python-floats.txt, from scripts/reference/python_floats.py).
func TestPythonFloats(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/python-floats.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, line := range lines {
		bitsHex, want, _ := strings.Cut(line, " ")
		b, err := hex.DecodeString(bitsHex)
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(b))
		if got := string(AppendPythonFloat(nil, f)); got != want {
			t.Errorf("AppendPythonFloat(%v) = %s, Python says %s", f, got, want)
		}
	}
	if len(lines) < 6000 {
		t.Fatalf("only %d cases", len(lines))
	}
	for f, want := range map[float64]string{math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity"} {
		if got := string(AppendPythonFloat(nil, f)); got != want {
			t.Errorf("%v: %s", f, got)
		}
	}
}

func TestPythonNumbers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"-0": "0", "0": "0", "12345678901234567890123": "12345678901234567890123", "1.50": "1.5",
		"1E5": "100000.0", "1e-7": "1e-07", "1E400": "Infinity", "-1e400": "-Infinity", "NaN": "NaN", "-0.0": "-0.0",
	} {
		tape, err := Parse([]byte(in), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(AppendPythonNumber(nil, tape.Raw(0), tape.Nodes[0].Flags)); got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
}

// AppendQuoted and IsPythonToken agree with CPython's json.dumps
// (testdata/python-strings.json, from scripts/reference/python_text.py).
func TestPythonStrings(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/python-strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]string
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		s, raw, ascii := c[0], c[1], c[2]
		if got, ok := AppendQuoted(nil, s, Escaping{}); !ok || string(got) != raw {
			t.Errorf("AppendQuoted(%q) = %s, Python says %s", s, got, raw)
		}
		if got, ok := AppendQuoted(nil, s, Escaping{ASCII: true}); !ok || string(got) != ascii {
			t.Errorf("AppendQuoted(%q, ASCII) = %s, Python says %s", s, got, ascii)
		}
		for _, tc := range []struct {
			tok   string
			ascii bool
		}{{raw, false}, {ascii, true}} {
			tape, err := Parse([]byte(tc.tok), Limits{})
			if err != nil {
				t.Fatalf("%s: %v", tc.tok, err)
			}
			if !IsPythonToken(tape.Raw(0), tc.ascii, tape.Nodes[0].Flags) {
				t.Errorf("IsPythonToken(%s, ascii=%v) = false", tc.tok, tc.ascii)
			}
			if got := tape.Str(0); got != s {
				t.Errorf("Str(%s) = %q, want %q", tc.tok, got, s)
			}
			if !tape.StrIs(0, s) {
				t.Errorf("StrIs(%s, %q) = false", tc.tok, s)
			}
		}
		if raw != ascii {
			// One spelling is not the other's.
			tape, _ := Parse([]byte(ascii), Limits{})
			if IsPythonToken(tape.Raw(0), false, tape.Nodes[0].Flags) {
				t.Errorf("IsPythonToken(%s, ascii=false) = true", ascii)
			}
		}
	}
	for _, tok := range []string{`"\/"`, `"\u0041"`, `"\u000A"`, `"\u00E9"`} {
		tape, _ := Parse([]byte(tok), Limits{})
		if IsPythonToken(tape.Raw(0), true, tape.Nodes[0].Flags) || IsPythonToken(tape.Raw(0), false, tape.Nodes[0].Flags) {
			t.Errorf("IsPythonToken(%s) = true", tok)
		}
	}
}

func TestParseAcceptsWhatPythonAccepts(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`NaN`, `-Infinity`, `[Infinity]`, `{"a":NaN}`, " \t\r\n1 ", `"\ud800"`, `1E+2`, `-0.0e-0`, "\xef\xbb\xbf{}"} {
		if _, err := Parse([]byte(in), Limits{}); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
	for _, in := range []string{`nan`, `+1`, `01`, `1.`, `.5`, `1e`, `-`, `[1,]`, `{"a":1,}`, `{"a"}`, `{1:2}`, `"\x"`, "\"\x01\"", `tru`, `[`, `{"a":`, `"\u12"`, `{]`, `[}`} {
		if _, err := Parse([]byte(in), Limits{}); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestTapeStructure(t *testing.T) {
	t.Parallel()
	in := `{"a": [1, {"b": null}], "c": "x", "a": true}`
	tape, err := Parse([]byte(in), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tape.Nodes); n != 7 {
		t.Fatalf("%d nodes", n)
	}
	if got := tape.Lookup(0, "a"); tape.Nodes[got].Kind != True {
		t.Errorf("Lookup returns the last duplicate, got kind %v", tape.Nodes[got].Kind)
	}
	kids := tape.ChildList(0)
	if len(kids) != 3 || string(tape.Raw(kids[0])) != `[1, {"b": null}]` || tape.KeyString(kids[1]) != "c" {
		t.Errorf("children %v", kids)
	}
	if line, col := Position([]byte("ab\ncd"), 4); line != 2 || col != 2 {
		t.Errorf("Position = %d:%d", line, col)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	if _, err := Parse([]byte(`[[[]]]`), Limits{MaxDepth: 2}); err == nil || !err.(*SyntaxError).Limit {
		t.Errorf("depth: %v", err)
	}
	if _, err := Parse([]byte(`[[]]`), Limits{MaxDepth: 2}); err != nil {
		t.Errorf("depth 2: %v", err)
	}
	if _, err := Parse([]byte(`[1,2,3]`), Limits{MaxNodes: 3}); err == nil {
		t.Error("nodes: no error")
	}
}
