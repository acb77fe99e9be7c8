package nbformat

import (
	"math/rand/v2"
	"testing"
)

// placeProblemsByBytes is placeProblems as it was, a loop over every
// byte: the reference its vectorized form must agree with.
func placeProblemsByBytes(data []byte, probs []*ValidationError) {
	line, col, off := 1, 1, int64(0)
	for _, p := range probs {
		if p.offset < off || p.offset > int64(len(data)) {
			if p.offset >= 0 && p.offset <= int64(len(data)) {
				line, col := 1, 1
				for _, b := range data[:p.offset] {
					if b == '\n' {
						line++
						col = 1
					} else {
						col++
					}
				}
				p.Line, p.Column = line, col
			}
			continue
		}
		for _, b := range data[off:p.offset] {
			if b == '\n' {
				line++
				col = 1
			} else {
				col++
			}
		}
		off = p.offset
		p.Line, p.Column = line, col
	}
}

// placeProblems gives every problem the line and column the byte loop
// gives it: on the corpus's and testdata's notebooks (their own lines:
// LF, CRLF, one line) and random texts of newlines and other bytes, for
// offsets in order, repeated, out of order, at the ends, and beyond.
func TestPlaceProblemsAsByteLoop(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for _, nb := range testdataNotebooks(t) {
		inputs = append(inputs, nb)
	}
	inputs = append(inputs, nil, []byte("\n"), []byte("\n\n\n"), []byte("abc"), []byte("a\r\nb\r\n\r\nc"))
	for range 200 {
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = "ab\n\r\xc3\xa9"[r.IntN(6)]
		}
		inputs = append(inputs, b)
	}
	checked := 0
	for _, data := range inputs {
		for range 20 {
			n := r.IntN(8)
			offs := make([]int64, n)
			for i := range offs {
				offs[i] = int64(r.IntN(len(data) + 3)) // (past the end: left unplaced)
				if r.IntN(4) == 0 && i > 0 {
					offs[i] = offs[i-1] // repeated
				}
			}
			if r.IntN(2) == 0 {
				for i := 1; i < n; i++ { // mostly in document order
					offs[i] = max(offs[i], offs[i-1])
				}
			}
			got, want := make([]*ValidationError, n), make([]*ValidationError, n)
			for i, o := range offs {
				got[i], want[i] = &ValidationError{offset: o}, &ValidationError{offset: o}
			}
			placeProblems(data, got)
			placeProblemsByBytes(data, want)
			for i := range got {
				if got[i].Line != want[i].Line || got[i].Column != want[i].Column {
					t.Fatalf("%q offsets %v: problem %d at %d:%d, the byte loop's %d:%d", data, offs, i, got[i].Line, got[i].Column, want[i].Line, want[i].Column)
				}
				checked++
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d problems placed", checked)
	}
}

// BenchmarkPlaceProblems places two problems, in the middle and at the
// end of a notebook of ~20 KB: the byte loop (Bytes) against
// placeProblems.
func BenchmarkPlaceProblems(b *testing.B) {
	var data []byte
	for _, nb := range testdataNotebooks(b) {
		if len(nb) > len(data) && len(nb) < 40<<10 {
			data = nb
		}
	}
	offs := []int64{int64(len(data) / 2), int64(len(data) - 1)}
	for _, c := range []struct {
		name  string
		place func([]byte, []*ValidationError)
	}{{"Bytes", placeProblemsByBytes}, {"Vectorized", placeProblems}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			probs := []*ValidationError{{offset: offs[0]}, {offset: offs[1]}}
			for b.Loop() {
				c.place(data, probs)
			}
		})
	}
}
