package jsontree

// Differential tests of Parse against the byte-by-byte reference parser and
// encoding/json, on strings, whitespace, scalars, limits and notebooks.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// sameAsReference fails t unless Parse of data with lim gives refParse's
// nodes or error (offset, message, limit), and unless a shaped and a flat
// parse accept and refuse it the same way.
func sameAsReference(t *testing.T, data []byte, lim Limits) {
	t.Helper()
	want, werr := refParse(data, lim)
	tp, err := Parse(data, lim)
	if fmt.Sprintf("%#v", err) != fmt.Sprintf("%#v", werr) {
		t.Fatalf("%q %+v: Parse error %#v, reference %#v", clip(data), lim, err, werr)
	}
	if err == nil && !equalNodes(tp.Nodes, want) {
		t.Fatalf("%q %+v: Parse nodes\n%+v\nreference\n%+v", clip(data), lim, tp.Nodes, want)
	}
	for _, shape := range []*Shape{nil, testShape(), {Flat: true, Elem: &Shape{Flat: true}}} {
		_, serr := ParseShaped(data, lim, shape)
		if fmt.Sprintf("%#v", serr) != fmt.Sprintf("%#v", werr) {
			t.Fatalf("%q %+v: ParseShaped error %#v, reference %#v", clip(data), lim, serr, werr)
		}
	}
}

func equalNodes(a, b []Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func clip(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// agreesWithJSONValid fails t unless Parse's verdict on data is
// encoding/json's, for the inputs where the grammars coincide: valid
// UTF-8, no byte-order mark and no NaN or Infinity (which Python's json,
// and so this package, reads).
func agreesWithJSONValid(t *testing.T, data []byte) {
	t.Helper()
	if !utf8.Valid(data) || bytes.HasPrefix(data, bom) || bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Infinity")) {
		return
	}
	_, err := Parse(data, Limits{})
	if (err == nil) != json.Valid(data) {
		t.Fatalf("%q: Parse error %v, json.Valid %v", clip(data), err, json.Valid(data))
	}
}

// specials are the byte sequences the string scanner must stop at: every
// escape (valid, invalid, cut short), control characters, DEL, non-ASCII
// of each length, invalid and cut-short UTF-8, surrogates raw and escaped.
var specials = []string{
	`"`, `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\u00E9`, `\ud83d\ude00`, `\ud800`, `\udc00x`,
	`\`, `\u`, `\u12`, `\u12g4`, `\x`, `\'`, "\x00", "\x01", "\x1f", "\t", "\n", "\x7f", "\x20",
	"é", "€", "😀", "\uFFFD", "\xff", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
}

// A string whose special byte (or sequence) falls at every offset of an
// 8-byte word, at the end of the input or followed by more text, scans as
// the reference scans it, with and without a MaxString around its length.
func TestStringScanAtEveryWordOffset(t *testing.T) {
	t.Parallel()
	for _, sp := range specials {
		for pre := 0; pre <= 17; pre++ {
			body := string(bytes.Repeat([]byte{'a'}, pre)) + sp
			for _, tail := range []string{"", "b", "bcdefghijklmnop", "\"", "b\"", "bcdefghij\""} {
				s := `"` + body + tail
				for _, doc := range []string{s, "[" + s, "[" + s + "]", "[" + s + ",1]", `{"k":` + s + "}", "{" + s + `:1}`, s + " "} {
					sameAsReference(t, []byte(doc), Limits{})
					for _, max := range []int{pre, pre + 3, len(body) + len(tail)} {
						sameAsReference(t, []byte(doc), Limits{MaxString: max})
					}
					agreesWithJSONValid(t, []byte(doc))
				}
			}
		}
	}
}

// Whitespace runs of every length (indentation after a newline, as
// writers indent) between every pair of tokens scan as the reference.
func TestWhitespaceRuns(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 20; n++ {
		for _, ws := range []string{" ", "\n", "\r\n", "\t", "\n "} {
			sp := string(bytes.Repeat([]byte(ws), n))
			for _, doc := range []string{
				sp + `{` + sp + `"a"` + sp + `:` + sp + `[` + sp + `1` + sp + `,` + sp + `"x"` + sp + `]` + sp + `}` + sp,
				`[` + sp, `[1` + sp, `{"a"` + sp, `{"a":` + sp, sp, `[` + sp + `]` + sp + `x`,
			} {
				sameAsReference(t, []byte(doc), Limits{})
				agreesWithJSONValid(t, []byte(doc))
			}
		}
	}
}

// Numbers and literals, whole, cut short and misspelt, scan as the
// reference.
func TestScalarsAsReference(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{
		"0", "-0", "12", "-12", "1.5", "1e5", "1E+5", "1e-5", "1.5e5", "01", "-", "1.", "1.e5", "1e", "1e+", ".5", "+1", "--1",
		"true", "false", "null", "NaN", "Infinity", "-Infinity", "tru", "fals", "nul", "Na", "Infinit", "-Inf", "-I", "trUe", "nulll",
	} {
		for _, doc := range []string{tok, "[" + tok + "]", "[" + tok + ",", `{"a":` + tok + "}", "[" + tok, "[1," + tok + ",2]"} {
			sameAsReference(t, []byte(doc), Limits{})
			agreesWithJSONValid(t, []byte(doc))
		}
	}
}

// Limits on values, depth and string length break at the same value as
// the reference says.
func TestLimitsAsReference(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"a": [1, [2, [3, {"b": "xyz"}]], "long string", {}], "c": [[], [[]]], "d": ["x", "yy", 3]}`)
	for v := 0; v <= 20; v++ {
		for d := 0; d <= 5; d++ {
			for s := 0; s <= 12; s += 3 {
				sameAsReference(t, doc, Limits{MaxNodes: v, MaxDepth: d, MaxString: s})
			}
		}
	}
}

// testInputs returns the module's testdata notebooks and, when present,
// the shared corpus's files.
func testInputs(t *testing.T) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	small, medium := corpusFiles(t)
	return append(append(out, small...), medium...)
}

// Every real notebook parses to the reference's nodes, and so do copies
// of them cut short or with one byte changed at random places (seeded:
// the same cases each run).
func TestNotebooksAsReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 1))
	repl := []byte{'"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', 0, 0x1f, 0x80, 0xff, 'x', '1', '-', 'e', '.'}
	for k, data := range testInputs(t) {
		sameAsReference(t, data, Limits{})
		agreesWithJSONValid(t, data)
		tries := 20
		if testing.Short() || k >= 100 {
			tries = 3
		}
		for range tries {
			m := bytes.Clone(data)
			switch i := rng.IntN(len(m)); rng.IntN(3) {
			case 0:
				m = m[:i]
			case 1:
				m[i] = repl[rng.IntN(len(repl))]
			default:
				m = append(m[:i:i], m[i+1:]...)
			}
			sameAsReference(t, m, Limits{})
			agreesWithJSONValid(t, m)
		}
	}
}

// FuzzParseReference: Parse (and shaped and flat parses) agree with the
// byte-by-byte reference on any input, under limits and without, and with
// encoding/json where the grammars coincide.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, "x\n", {"b": null}], "c": "é\u00e9"}`, `["abcdefg\"", "abcdefgh\\", "\u12"]`, "[\"\x01\"]", `[1e5, -0.5, NaN]`,
		"\xef\xbb\xbf {}", `{"a" 1}`, `[1 2]`, "\"abcdefghijklmno\xff\"", `[[[[]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsReference(t, data, Limits{})
		sameAsReference(t, data, Limits{MaxDepth: 3, MaxNodes: 20, MaxString: 10})
		agreesWithJSONValid(t, data)
	})
}
