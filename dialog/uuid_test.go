package dialog

// Tests that attachment ids are the UUIDs github.com/google/uuid makes from the
// same bytes.

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"
)

// The attachment ids made here are those github.com/google/uuid makes from
// the same bytes: every bit pattern of the version and variant bytes, and
// random inputs.
func TestNewUUID4AsGoogleUUID(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 122))
	var inputs [][]byte
	for b := range 256 {
		in := make([]byte, 16)
		for i := range in {
			in[i] = byte(rng.Uint32())
		}
		in[6], in[8] = byte(b), byte(255-b)
		inputs = append(inputs, in)
	}
	inputs = append(inputs, make([]byte, 16), bytes.Repeat([]byte{0xff}, 16))
	for _, in := range inputs {
		want, err := uuid.NewRandomFromReader(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := newUUID4(bytes.NewReader(in))
		if err != nil || got != want.String() {
			t.Fatalf("newUUID4(% x) = %q, %v; google/uuid gives %q", in, got, err, want.String())
		}
	}
	// Too few bytes: the reader's error, as io.ReadFull reports it.
	if _, err := newUUID4(bytes.NewReader(make([]byte, 15))); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("15 bytes: err = %v, want io.ErrUnexpectedEOF", err)
	}
}
