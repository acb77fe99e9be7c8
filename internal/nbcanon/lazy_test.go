package nbcanon

// The lazy path (values written and checked from their bytes, Shape's
// parse) against the full parse's nodes, and against Python's json.dumps.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// writeBoth returns Write's bytes or error over Shape's parse of data
// (a full parse when a rule asks for one, as package nbformat does) and
// over a full parse.
func writeBoth(t *testing.T, data []byte, major int) (lazy, full string) {
	t.Helper()
	out := func(tp *jsontree.Tape) (s string) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*jsontree.LazyError); !ok {
					panic(r)
				}
				s = "lazy"
			}
		}()
		b, err := Write(tp, major)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(b)
	}
	ft, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatalf("%v: %.200s", err, data)
	}
	st, err := jsontree.ParseShaped(data, jsontree.Limits{}, Shape(major))
	if err != nil {
		t.Fatal(err)
	}
	full = out(ft)
	if lazy = out(st); lazy == "lazy" {
		lazy = full // (package nbformat writes a full parse)
	}
	return lazy, full
}

// places wraps a JSON value in notebooks, where the schema leaves it open
// and where Python's rules apply around it.
func places(v string) map[string]string {
	return map[string]string{
		"notebook metadata": `{"cells":[],"metadata":{"x":` + v + `,"signature":` + v + `},"nbformat":4,"nbformat_minor":5}`,
		"cell metadata":     `{"cells":[{"cell_type":"code","metadata":{"a":` + v + `,"trusted":` + v + `},"source":[],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`,
		"JSON output data":  `{"cells":[{"cell_type":"code","metadata":{},"source":"x","outputs":[{"output_type":"display_data","metadata":{"m":` + v + `},"data":{"application/json":` + v + `,"text/plain":` + v + `}}],"execution_count":1,"z":` + v + `}],"metadata":{},"nbformat":4,"nbformat_minor":5}`,
		"source":            `{"cells":[{"cell_type":"markdown","metadata":{},"source":` + v + `}],"metadata":{},"nbformat":4,"nbformat_minor":5}`,
		"v3":                `{"worksheets":[{"cells":[{"cell_type":"code","input":` + v + `,"metadata":{"q":` + v + `},"outputs":[{"output_type":"pyout","text":` + v + `,"w":` + v + `}]}]}],"metadata":{"x":` + v + `},"nbformat":3,"nbformat_minor":0}`,
	}
}

// randValue returns a random JSON value: duplicate and escaped keys, lone
// surrogates, huge and odd numbers, non-ASCII, deep nesting.
func randValue(r *rand.Rand, depth int, python bool) string {
	if depth > 0 && r.IntN(3) > 0 {
		n := r.IntN(5)
		parts := make([]string, n)
		if r.IntN(2) == 0 {
			for i := range parts {
				parts[i] = randValue(r, depth-1, python)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
		for i := range parts {
			parts[i] = randString(r, python) + ":" + randValue(r, depth-1, python)
		}
		return "{" + strings.Join(parts, ",\n ") + "}"
	}
	switch r.IntN(6) {
	case 0:
		return randString(r, python)
	case 1:
		return []string{"null", "true", "false", "NaN", "-Infinity"}[r.IntN(5)]
	case 2:
		return []string{"0", "-0", "1.0", "1e400", "-2.5E-7", "123456789012345678901234567890", "1.5e16", "0.0001", "100000000000000000.0"}[r.IntN(9)]
	case 3:
		if !python && r.IntN(4) == 0 {
			return strings.Repeat("9", 4301)
		}
		return fmt.Sprint(r.Int64N(1<<40) - 1<<39)
	}
	return fmt.Sprint(r.Float64() * 1e6)
}

func randString(r *rand.Rand, python bool) string {
	pieces := []string{"a", "b", "a", `\u00e9`, "é", `\n`, `\"`, `\\`, `\/`, `\u001f`, "\u2028", `\ud83d\ude00`, "😀", `\u007f`, "\x7f", "z", "~", " "}
	if !python {
		pieces = append(pieces, `\ud800`, `\udc00x`)
	}
	var b strings.Builder
	b.WriteByte('"')
	for range r.IntN(4) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	b.WriteByte('"')
	return b.String()
}

func TestLazyAgreesWithFullParse(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 22))
	values := []string{`[]`, `{}`, `{"a":1,"a":2}`, `{"b":{"a":[{}]},"a":{"c":[[]]}}`, `[{"a":0},{"a":0}]`,
		`["a\n","b"]`, `["a",1]`, `{"\u0061":1,"a":2}`, `{"\ud800":1}`, `["\udc00"]`,
		strings.Repeat("[", 600) + strings.Repeat("]", 600), strings.Repeat(`{"a":`, 330) + "1" + strings.Repeat("}", 330),
		strings.Repeat(`[{"a":`, 170) + "1" + strings.Repeat("}]", 170), `[` + strings.Repeat("9", 4301) + `]`}
	for range 3000 {
		values = append(values, randValue(r, 1+r.IntN(5), false))
	}
	for _, v := range values {
		for where, nb := range places(v) {
			major := 4
			if where == "v3" {
				major = 3
			}
			lazy, full := writeBoth(t, []byte(nb), major)
			if lazy != full {
				t.Fatalf("%s, %.300s:\nlazy %.500q\nfull %.500q", where, v, lazy, full)
			}
		}
	}
}

// The notebooks of the corpus written both ways.
func TestLazyAgreesOnCorpus(t *testing.T) {
	t.Parallel()
	files := corpus.Sample
	if testtier.Full() {
		files = corpus.Files
	}
	for e, data := range files(t) {
		var head struct{ Nbformat int }
		if json.Unmarshal(data, &head) != nil || head.Nbformat < 3 {
			continue
		}
		if lazy, full := writeBoth(t, data, head.Nbformat); lazy != full {
			t.Errorf("%s: the lazy path writes other bytes than the full parse", e.Path)
		}
	}
}

// Python's json.dumps of the notebook metadata's random values: the
// reference the full parse agrees with too.
func TestLazyAgreesWithPython(t *testing.T) {
	t.Parallel()
	if exec.Command("/usr/bin/python3", "-c", "import json").Run() != nil {
		t.Skip("no /usr/bin/python3")
	}
	r := rand.New(rand.NewPCG(2, 22))
	var in bytes.Buffer
	var nbs []string
	for range 500 {
		nb := `{"cells":[],"metadata":{"x":` + randValue(r, 1+r.IntN(5), true) + `},"nbformat":4,"nbformat_minor":5}`
		nbs = append(nbs, nb)
		q, _ := json.Marshal(nb)
		in.Write(append(q, '\n'))
	}
	py := `import json, sys
for line in sys.stdin:
    v = json.loads(json.loads(line))
    print(json.dumps(json.dumps(v, indent=1, sort_keys=True, separators=(",", ": "), ensure_ascii=False) + "\n"))`
	cmd := exec.Command("/usr/bin/python3", "-c", py)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, nb := range nbs {
		var want string
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil {
			t.Fatal(err)
		}
		if lazy, _ := writeBoth(t, []byte(nb), 4); lazy != want {
			t.Fatalf("%.300s:\nlazy   %.500q\nPython %.500q", nb, lazy, want)
		}
	}
}

func FuzzLazyWrite(f *testing.F) {
	for _, v := range []string{`[{"a":0}]`, `{"b":1,"a":[1.5e300,"\ud800"]}`, `"x"`, `{"a":{"a":1},"a":2}`} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if _, err := jsontree.Parse([]byte(v), jsontree.Limits{}); err != nil || strings.HasPrefix(strings.TrimLeft(v, " \t\r\n"), "\xef\xbb\xbf") {
			return
		}
		for where, nb := range places(v) {
			major := 4
			if where == "v3" {
				major = 3
			}
			if lazy, full := writeBoth(t, []byte(nb), major); lazy != full {
				t.Fatalf("%s, %q:\nlazy %.500q\nfull %.500q", where, v, lazy, full)
			}
		}
	})
}
