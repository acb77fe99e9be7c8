package main

// Tests of parts of a side made when asked (fixparts.go): the bytes of the side as made whole.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// Every part sideParts reads of a diff3 file's base is that part of the
// base's text as side.make makes it whole; parts past its end fail.
func TestSidePartsAsMade(t *testing.T) {
	var b bytes.Buffer
	for i := range 40 {
		fmt.Fprintf(&b, "line %d\n", i)
		if i%7 == 3 {
			fmt.Fprintf(&b, "<<<<<<< ours\nours %d\n||||||| base\nbase %d\nbase again %d\n=======\ntheirs %d\n>>>>>>> theirs\n", i, i, i, i)
		}
	}
	cs, err := splitConflictsOwned(bytes.Clone(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !cs.base.lazy {
		t.Fatal("the base is not made when asked")
	}
	whole := cs.base.make(&cs.ours)
	part := sideParts(&cs.base, &cs.ours)
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		off := r.IntN(len(whole) + 1)
		n := r.IntN(len(whole) - off + 1)
		got, err := part(int64(off), int64(n))
		if err != nil || !bytes.Equal(got, whole[off:off+n]) {
			t.Fatalf("part %d+%d = %q, %v; want %q", off, n, got, err, whole[off:off+n])
		}
	}
	if _, err := part(int64(len(whole)), 1); err == nil {
		t.Error("a part past the end was read")
	}
}
