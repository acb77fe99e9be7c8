package nbstyle

// WriteJoined against Python's json.loads (strings joined, lone surrogates kept) and encoding/json, on random escaped arrays.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// escapedPiece returns a random piece of JSON string contents as a
// hand-written file may spell it, and whether it names a lone surrogate.
func escapedPiece(r *rand.Rand) (string, bool) {
	hexd := func(v int) string {
		if r.IntN(2) == 0 {
			return fmt.Sprintf(`\u%04x`, v)
		}
		return fmt.Sprintf(`\u%04X`, v)
	}
	switch r.IntN(16) {
	case 0:
		return strings.Repeat("a", r.IntN(40)), false
	case 1:
		return `\n`, false
	case 2:
		return []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\t`}[r.IntN(7)], false
	case 3:
		return strings.Repeat(`\\`, 1+r.IntN(9)), false
	case 4:
		return hexd(0x20 + r.IntN(0x60)), false // an escaped ASCII character
	case 5:
		v := r.IntN(0xd800)
		return hexd(v), false
	case 6:
		return hexd(0xd800+r.IntN(0x400)) + hexd(0xdc00+r.IntN(0x400)), false // a pair
	case 7:
		return hexd(0xd800 + r.IntN(0x400)), true // a lone high surrogate
	case 8:
		return hexd(0xdc00 + r.IntN(0x400)), true // a lone low surrogate
	case 9:
		return hexd(0xd800+r.IntN(0x400)) + hexd(0xe000+r.IntN(0x1fff)), true // high, then no low
	case 10:
		return "é☃😀", false
	case 11:
		return hexd(0x0a), false // a line's end spelled \u000a
	case 12:
		return hexd(0xfffd), false
	case 13:
		if r.IntN(40) == 0 { // a very long run, then an escape
			return strings.Repeat("x", 100000+r.IntN(8)) + `\"`, false
		}
		return strings.Repeat("x", 60+r.IntN(300)), false
	case 14:
		return `\n\n`, false
	}
	return " ", false
}

// randomArray returns a random JSON text that is a string or an array of
// strings, spelled with escapes anywhere, and whether it has a lone
// surrogate.
func randomArray(r *rand.Rand) (string, bool) {
	lone := false
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(12) {
			p, l := escapedPiece(r)
			lone = lone || l
			b.WriteString(p)
		}
		b.WriteByte('"')
		return b.String()
	}
	if r.IntN(5) == 0 {
		return str(), lone
	}
	gaps := []string{",", ", ", ",\n ", " ,\r\n\t", ",\n" + strings.Repeat(" ", r.IntN(20))}
	var b strings.Builder
	b.WriteString("[" + strings.Repeat(" ", r.IntN(10)))
	for i := range r.IntN(8) {
		if i > 0 {
			b.WriteString(gaps[r.IntN(len(gaps))])
		}
		b.WriteString(str())
	}
	b.WriteString(strings.Repeat("\n", r.IntN(3)) + "]")
	return b.String(), lone
}

// WriteJoined writes what Python's json.loads decodes, strings joined
// (a lone surrogate, which Python keeps, as its WTF-8 bytes: Python's
// surrogatepass), and, without lone surrogates, what encoding/json
// decodes joined, for random arrays spelled with every escape.
func TestWriteJoinedAsPython(t *testing.T) {
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("python3 not found")
	}
	r := rand.New(rand.NewPCG(7, 11))
	var raws []string
	var lone []bool
	for range 3000 {
		s, l := randomArray(r)
		raws = append(raws, s)
		lone = append(lone, l)
	}
	in, err := json.Marshal(raws)
	if err != nil {
		t.Fatal(err)
	}
	script := `import json,sys
out=[]
for s in json.load(sys.stdin):
    v=json.loads(s)
    out.append((''.join(v) if isinstance(v,list) else v).encode('utf-8','surrogatepass').hex())
print(json.dumps(out))`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	got, err := cmd.Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	var want []string
	if err := json.Unmarshal(got, &want); err != nil || len(want) != len(raws) {
		t.Fatalf("python3 said %.200s: %v", got, err)
	}
	for i, raw := range raws {
		w, err := hex.DecodeString(want[i])
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		WriteJoined(&b, []byte(raw))
		if b.String() != string(w) {
			t.Errorf("%q: WriteJoined %q, Python %q", raw, b.String(), w)
			continue
		}
		if lone[i] {
			continue
		}
		var list []string
		if err := json.Unmarshal([]byte(raw), &list); err != nil {
			var s string
			if err := json.Unmarshal([]byte(raw), &s); err != nil {
				t.Fatalf("%q: %v", raw, err)
			}
			list = []string{s}
		}
		if j := strings.Join(list, ""); j != b.String() || !utf8.ValidString(j) {
			t.Errorf("%q: WriteJoined %q, encoding/json %q", raw, b.String(), j)
		}
	}
}
