package jsontree

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEachStringAndUnescapeAsEncodingJSON: EachString finds the strings of
// an array of strings and UnescapeString/AppendUnescaped decode them as
// encoding/json does (valid UTF-8, no lone surrogates), for strings with
// quotes, backslashes and escapes at every position around the vectorised
// searches' word boundaries.
func TestEachStringAndUnescapeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	pieces := []string{`\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\/`, `\t`, `é`, `"`}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		var elems []string
		for range 1 + n%5 {
			var b strings.Builder
			for range rng.IntN(40) {
				if rng.IntN(4) == 0 {
					p := pieces[rng.IntN(len(pieces)-1)] // not a bare quote
					b.WriteString(p)
				} else {
					b.WriteByte(byte('a' + rng.IntN(26)))
				}
			}
			elems = append(elems, `"`+b.String()+`"`)
		}
		raw := "[" + strings.Join(elems, ", \n ") + "]"
		var want []string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatalf("reference refused %s: %v", raw, err)
		}
		var got []string
		EachString([]byte(raw), func(s []byte) {
			got = append(got, UnescapeString(s))
			if a := string(AppendUnescaped(nil, s)); a != got[len(got)-1] {
				t.Fatalf("AppendUnescaped %q, UnescapeString %q", a, got[len(got)-1])
			}
		})
		if len(got) != len(want) {
			t.Fatalf("%s: %d strings, want %d", raw, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: string %d = %q, want %q", raw, i, got[i], want[i])
			}
		}
	}
}
