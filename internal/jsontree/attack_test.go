package jsontree_test

// Attacks on the parser: it accepts what Python's json accepts, and tapes stay
// independent of later parses.

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// The grammar is Python's json module reading text decoded as UTF-8 (what
// nbformat does): this attack asks Python itself about hostile inputs
// (special bytes at every offset around 8-byte words, invalid UTF-8
// straddling words, escapes, numbers, literals, flat arrays failing late)
// and compares the acceptance of Parse and ParseShaped (of every
// container, and of flat arrays), and the strings' decoded bytes, with
// Python's.

const pyJudge = `
import sys, json
for line in sys.stdin:
    b = bytes.fromhex(line.strip())
    try:
        v = json.loads(b.decode('utf-8'))
    except Exception:
        print('err'); continue
    if isinstance(v, str):
        print('str', v.encode('utf-8', 'surrogatepass').hex())
    else:
        print('ok')
`

func attackInputs() [][]byte {
	var in [][]byte
	specials := []string{`\"`, `\\`, `\/`, `\b`, `\u0041`, `\u00e9`, `\uD800`, `\uDC00`, `\uD83D\uDE00`, `\uD83Dx`,
		`\x`, `\u12`, `\u12G4`, `\`, "\x00", "\x1f", "\x7f", "\x80", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xc2", "\xe2\x82", "\xf0\x9f\x98", "é", "€", "😀", "\u2028",
		"\xff", "\xfe", "\t", "\n", "'", "\xc3\x28", "\xe2\x28\xa1", "\xf0\x28\x8c\xbc"}
	for _, sp := range specials {
		for pre := 0; pre <= 17; pre++ {
			for _, post := range []int{0, 1, 7, 9} {
				s := strings.Repeat("a", pre) + sp + strings.Repeat("b", post)
				in = append(in, []byte(`"`+s+`"`))
				in = append(in, []byte(`{"`+s+`": 1}`))
				in = append(in, []byte(`[1, "`+s+`", 2]`))
			}
		}
	}
	nums := []string{"0", "-0", "01", "-01", "1.", ".5", "1.5e", "1e+", "1e400", "-1e400", "1E-400", "+1", "- 1",
		"123456789012345678901234567890", "1.0e+0", "0x10", "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity",
		"nan", "infinity", "Inf", "tru", "truex", "nul", "null0", "1_0", "١", "0e", "0.e1", "-", "--1", "1.0.0"}
	for _, n := range nums {
		in = append(in, []byte(n), []byte("["+n+"]"), []byte(`{"a":`+n+`}`), []byte("[1,2,3,4,5,6,7,8,"+n+"]"))
	}
	for _, bad := range []string{"", ",", "]", "[", "}", `"x`, "1 2", "tru", "[]]", "{}", `{"a"}`, `{"a":1,}`, "//"} {
		in = append(in, []byte("[1,2,3,\"s\",4.5,true,null,"+bad+"]"))
		in = append(in, []byte(`{"cells":[1,2,`+bad+`]}`))
	}
	for _, ws := range []string{" ", "\t", "\r\n", "\v", "\f", "\u00a0", "\x00"} {
		in = append(in, []byte(ws+"[1,"+ws+"2]"+ws))
	}
	return in
}

func TestAttackAcceptanceAsPython(t *testing.T) {
	t.Parallel()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no Python")
	}
	inputs := attackInputs()
	var stdin bytes.Buffer
	for _, b := range inputs {
		stdin.WriteString(hex.EncodeToString(b) + "\n")
	}
	script := filepath.Join(t.TempDir(), "judge.py")
	if err := os.WriteFile(script, []byte(pyJudge), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, script)
	cmd.Stdin = &stdin
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("python judged %d inputs of %d", len(lines), len(inputs))
	}
	fails := 0
	for i, b := range inputs {
		pyOK := lines[i] != "err"
		parsers := []struct {
			name string
			f    func([]byte) (*jsontree.Tape, error)
		}{
			{"Parse", func(d []byte) (*jsontree.Tape, error) { return jsontree.Parse(d, jsontree.Limits{}) }},
			{"ParseShaped flat", func(d []byte) (*jsontree.Tape, error) { return jsontree.ParseShaped(d, jsontree.Limits{}, flatShape) }},
			{"ParseShaped", func(d []byte) (*jsontree.Tape, error) {
				return jsontree.ParseShaped(d, jsontree.Limits{}, jsontree.All)
			}},
		}
		for _, p := range parsers {
			tp, err := p.f(bytes.Clone(b))
			if (err == nil) != pyOK {
				fails++
				if fails < 40 {
					t.Errorf("%s(%q): err %v; Python json.loads accepts: %v", p.name, b, err, pyOK)
				}
				continue
			}
			if err != nil || !strings.HasPrefix(lines[i], "str ") {
				continue
			}
			n := tp.Nodes[jsontree.Root]
			got := jsontree.UnescapeString(tp.Data[n.Start+1 : n.End-1])
			want, _ := hex.DecodeString(strings.TrimPrefix(lines[i], "str "))
			if got != string(want) && !bytes.Contains(want, []byte("\xed")) {
				t.Errorf("%s(%q): UnescapeString %q, Python %q", p.name, b, got, want)
			}
		}
	}
	if fails > 0 {
		t.Logf("%d disagreements", fails)
	}
	t.Logf("%d inputs judged", len(inputs))
}

// TestAttackTapesIndependent keeps tapes from every parse function, then
// parses other documents (valid and failing, from several goroutines, so
// that pooled scratch memory is reused): the tapes kept must not change.
func TestAttackTapesIndependent(t *testing.T) {
	t.Parallel()
	docs := [][]byte{
		[]byte(`{"cells": [1, 2, "three", {"a": [4, 5]}], "x": "y\n"}`),
		[]byte(`[` + strings.Repeat(`"s", 1, `, 500) + `2]`),
		[]byte(`{"k": {"n": [` + strings.Repeat("[1, 2, 3], ", 300) + `[]]}}`),
	}
	parsers := []func([]byte) (*jsontree.Tape, error){
		func(d []byte) (*jsontree.Tape, error) { return jsontree.Parse(d, jsontree.Limits{}) },
		func(d []byte) (*jsontree.Tape, error) { return jsontree.ParseShaped(d, jsontree.Limits{}, flatShape) },
		func(d []byte) (*jsontree.Tape, error) {
			return jsontree.ParseShaped(d, jsontree.Limits{}, jsontree.All)
		},
	}
	type kept struct {
		tp    *jsontree.Tape
		nodes []jsontree.Node
	}
	var all []kept
	for _, p := range parsers {
		for _, d := range docs {
			tp, err := p(bytes.Clone(d))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, kept{tp, append([]jsontree.Node(nil), tp.Nodes...)})
		}
	}
	others := [][]byte{
		[]byte(`[` + strings.Repeat(`{"a": 1, "b": [true, null]}, `, 2000) + `0]`),
		[]byte(`[` + strings.Repeat(`1, `, 5000) + `x]`),
		[]byte(`{"a": [1, 2, 3, ` + strings.Repeat(`"q", `, 3000) + `}`),
		[]byte(strings.Repeat(`[`, 3000) + strings.Repeat(`]`, 3000)),
	}
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for i := range 60 {
				_, _ = parsers[(g+i)%3](others[i%len(others)])
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	for i, k := range all {
		if len(k.tp.Nodes) != len(k.nodes) {
			t.Fatalf("tape %d: %d nodes, had %d", i, len(k.tp.Nodes), len(k.nodes))
		}
		for j := range k.nodes {
			if k.tp.Nodes[j] != k.nodes[j] {
				t.Fatalf("tape %d node %d changed after other parses: %+v, was %+v", i, j, k.tp.Nodes[j], k.nodes[j])
			}
		}
		// Appending to a tape's nodes must not write into another's.
		_ = append(k.tp.Nodes, jsontree.Node{Start: -7})
	}
	for i, k := range all {
		for j := range k.nodes {
			if k.tp.Nodes[j] != k.nodes[j] {
				t.Fatalf("tape %d node %d changed after appends to other tapes", i, j)
			}
		}
	}
}

// flatShape asks for the root array, and its arrays, as flat arrays.
var flatShape = &jsontree.Shape{Flat: true, Elem: &jsontree.Shape{Flat: true}}
