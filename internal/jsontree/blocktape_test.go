package jsontree

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// With Block.Tape, ParseBlock makes the tape where the caller says and
// returns that pointer: the same tape as without it, one allocation
// fewer (the Tape's own; measured exactly, as allocation counts), and the
// caller's Tape untouched when the parse fails.
func TestParseBlockIntoCallersTape(t *testing.T) {
	input, _ := cellsDoc(5)
	want, _, err := ParseBlock(input, Limits{}, All, Block{Copy: true})
	if err != nil {
		t.Fatal(err)
	}
	var dst Tape
	got, _, err := ParseBlock(input, Limits{}, All, Block{Copy: true, Tape: &dst})
	if err != nil {
		t.Fatal(err)
	}
	if got != &dst {
		t.Fatal("ParseBlock did not return the caller's tape")
	}
	if !equalNodes(got.Nodes, want.Nodes) || !bytes.Equal(got.Data, want.Data) || got.BOM != want.BOM || got.LazyStyle != want.LazyStyle || got.lazy != want.lazy {
		t.Fatal("the tape made in the caller's Tape differs from a new one")
	}

	bad := Tape{Data: []byte("kept")}
	if _, _, err := ParseBlock([]byte(`{"a": [1, }`), Limits{}, All, Block{Tape: &bad}); err == nil {
		t.Fatal("no error for invalid JSON")
	}
	if string(bad.Data) != "kept" || bad.Nodes != nil {
		t.Fatal("a failed parse wrote to the caller's tape")
	}

	if testtier.Race {
		return
	}
	// The least over single runs: a collection between them empties the
	// parser's pooled scratch, whose next use allocates.
	least := func(b func() Block) float64 {
		n := 1e9
		for range 10 {
			n = min(n, testing.AllocsPerRun(1, func() {
				if _, _, err := ParseBlock(input, Limits{}, All, b()); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return n
	}
	own := least(func() Block { return Block{Copy: true} })
	into := least(func() Block { return Block{Copy: true, Tape: &dst} })
	if own-into != 1 {
		t.Errorf("ParseBlock allocated %v times with a tape of its own, %v into the caller's: want exactly one fewer", own, into)
	}
}
