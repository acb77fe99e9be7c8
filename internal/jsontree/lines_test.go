package jsontree

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// linesOf decodes a string or array of strings with encoding/json (the
// reference).
func linesOf(t *testing.T, raw []byte) []string {
	t.Helper()
	var ls []string
	if json.Unmarshal(raw, &ls) == nil {
		return ls
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return []string{s}
}

// escapedAll writes ls as an array of strings with every character past
// ASCII and every quote as a \u escape (another spelling of the same
// value than encoding/json's).
func escapedAll(ls []string) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		q, _ := AppendQuoted(nil, l, Escaping{ASCII: true, Upper: i%2 == 0})
		b.Write(q)
	}
	b.WriteString("]")
	return []byte(b.String())
}

func TestEqualStringsAsDecoded(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "b", "\n", "\"", "\\", "é", "😀", "\t", "/"}
	randLines := func() []string {
		ls := make([]string, r.IntN(5))
		for i := range ls {
			var b strings.Builder
			for range r.IntN(6) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			ls[i] = b.String()
		}
		return ls
	}
	for range 3000 {
		x, y := randLines(), randLines()
		if r.IntN(2) == 0 {
			y = slices.Clone(x)
		}
		jx, _ := json.Marshal(x)
		jy := escapedAll(y)
		want := slices.Equal(linesOf(t, jx), linesOf(t, jy))
		if got, _ := EqualStrings(jx, jy, nil); got != want {
			t.Fatalf("EqualStrings(%s, %s) = %v, want %v", jx, jy, got, want)
		}
		if got := EqualLines(jy, x); got != want {
			t.Fatalf("EqualLines(%s, %q) = %v, want %v", jy, x, got, want)
		}
		joined := strings.Join(linesOf(t, jx), "")
		wantJoined := strings.Join(linesOf(t, jy), "") == joined
		if got, _ := EqualJoined(jy, joined, nil); got != wantJoined {
			t.Fatalf("EqualJoined(%s, %q) = %v, want %v", jy, joined, got, wantJoined)
		}
		// The same text split otherwise: into characters, or as one string.
		var chars []string
		for _, c := range joined {
			chars = append(chars, string(c))
		}
		jc, _ := json.Marshal(chars)
		one, _ := json.Marshal(strings.Join(linesOf(t, jy), ""))
		if got := EqualJoinedRaw(jc, jy); got != wantJoined {
			t.Fatalf("EqualJoinedRaw(%s, %s) = %v, want %v", jc, jy, got, wantJoined)
		}
		if got := EqualJoinedRaw(one, jx); got != wantJoined {
			t.Fatalf("EqualJoinedRaw(%s, %s) = %v, want %v", one, jx, got, wantJoined)
		}
		// A single string, against itself spelt otherwise.
		if len(x) > 0 {
			one, _ := json.Marshal(x[0])
			other, _ := AppendQuoted(nil, x[0], Escaping{ASCII: true})
			if got, _ := EqualStrings(one, other, nil); !got {
				t.Fatalf("EqualStrings(%s, %s) = false", one, other)
			}
		}
	}
}

// Comparing a long value needs scratch for one line, not for the value.
func TestEqualStringsScratchIsALine(t *testing.T) {
	ls := make([]string, 20000)
	for i := range ls {
		ls[i] = "line \"quoted\" é\n"
	}
	a, _ := json.Marshal(ls)
	b := escapedAll(ls)
	ok, scratch := EqualStrings(a, b, nil)
	if !ok {
		t.Fatal("equal values compared unequal")
	}
	if cap(scratch) > 256 {
		t.Errorf("scratch grew to %d bytes for lines of %d", cap(scratch), len(ls[0]))
	}
}

// IsStrings tells a string or an array of strings from every other JSON
// value, as encoding/json decodes them (the reference).
func TestIsStringsAsDecoded(t *testing.T) {
	for _, raw := range []string{`"a"`, ` "" `, `[]`, ` [ ] `, `["a"]`, `["a", "b\"]"]`, "[\n \"x\",\n \"y\"\n]",
		`null`, `1`, `true`, `{}`, `{"a":"b"}`, `[1]`, `["a", 1]`, `["a", null]`, `[["a"]]`, `["a", {"b": "c"}]`, `[true]`, `["]", 2]`} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		want := false
		switch v := v.(type) {
		case string:
			want = true
		case []any:
			want = true
			for _, x := range v {
				if _, ok := x.(string); !ok {
					want = false
				}
			}
		}
		if got := IsStrings([]byte(raw)); got != want {
			t.Errorf("IsStrings(%s) = %v, want %v", raw, got, want)
		}
	}
}
