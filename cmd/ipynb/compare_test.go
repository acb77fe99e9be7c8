package main

import (
	"bytes"
	"testing"
)

// refLine is the reference: the first line (1-based) where two whole texts
// differ, found by walking both.
func refLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			break
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

// TestCompareWriter: output compared in pieces of any size gives the
// verdict and the first differing line that comparing whole texts gives.
func TestCompareWriter(t *testing.T) {
	t.Parallel()
	want := []byte("{\n \"a\": 1,\n \"b\": [\n  2\n ]\n}\n")
	outs := [][]byte{
		want,
		{},
		want[:len(want)-1],              // shorter
		append(bytes.Clone(want), '\n'), // longer
		bytes.Replace(want, []byte("2"), []byte("3"), 1),
		bytes.Replace(want, []byte("{"), []byte("["), 1),
		bytes.Replace(want, []byte("}\n"), []byte("}\r"), 1),
		[]byte("{\n \"a\": 1,\n"),
		[]byte("x"),
	}
	for i, out := range outs {
		for _, chunk := range []int{1, 2, 3, 7, len(want) + 5} {
			c := &compareWriter{want: want}
			for p := out; len(p) > 0; {
				k := min(chunk, len(p))
				if n, err := c.Write(p[:k]); n != k || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				p = p[k:]
			}
			if same := bytes.Equal(out, want); c.same() != same {
				t.Errorf("out %d, chunks of %d: same() = %v, want %v", i, chunk, c.same(), same)
			}
			if !c.same() && c.line() != refLine(want, out) {
				t.Errorf("out %d, chunks of %d: line() = %d, want %d", i, chunk, c.line(), refLine(want, out))
			}
		}
	}
}
