package draft04

import (
	"math/rand/v2"
	"testing"
)

// keyWords tells apart every two keys of the same length up to
// maxWordKey bytes: keys differing in any one byte, at any place, get
// different words, equal keys equal words; so propTable.index and lookup,
// which compare words, find exactly the names a byte comparison finds.
func TestKeyWordsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= maxWordKey; n++ {
		for range 200 {
			a := make([]byte, n)
			for k := range a {
				a[k] = byte(rng.IntN(256))
			}
			x1, y1 := keyWords(a)
			if x2, y2 := keyWords(append([]byte(nil), a...)); x1 != x2 || y1 != y2 {
				t.Fatalf("%q: equal keys, different words", a)
			}
			for pos := range n {
				b := append([]byte(nil), a...)
				b[pos] ^= byte(1 + rng.IntN(255))
				if x2, y2 := keyWords(b); x1 == x2 && y1 == y2 {
					t.Fatalf("%q and %q (differing at %d): same words", a, b, pos)
				}
			}
		}
	}
}

// Properties are found by name whatever their lengths: names of the same
// length, names longer than maxWordKey, names that are prefixes of
// others.
func TestPropTableIndex(t *testing.T) {
	names := []string{"", "a", "b", "ab", "ba", "abc", "abcd", "abce", "source", "outputs", "metadata", "cell_type",
		"execution_count", "iopub.status.busy", "iopub.status.idle", "shell.execute_reply", "abcdefghijklmnop", "abcdefghijklmnoq"}
	m := map[string]*node{}
	for _, n := range names {
		m[n] = &node{}
	}
	p := newPropTable(m)
	for _, n := range names {
		x := p.index([]byte(n))
		if x < 0 || p.names[x] != n || p.nodes[x] != m[n] {
			t.Errorf("%q: index %d", n, x)
		}
	}
	for _, k := range []string{"c", "abcf", "sourcf", "iopub.status.bus", "iopub.status.busz", "abcdefghijklmnopq", "Source"} {
		if x := p.index([]byte(k)); x >= 0 {
			t.Errorf("%q: found %q", k, p.names[x])
		}
	}
}
