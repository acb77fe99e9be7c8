package jsontree

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// specialMask finds the first byte the string scanner must look at in
// every word of two bytes at every pair of positions (the rest ordinary
// bytes of several kinds) and in random words, and in words of ordinary
// bytes it flags nothing: checked against a byte-by-byte test.
func TestSpecialMask(t *testing.T) {
	t.Parallel()
	special := func(b byte) bool { return b == '"' || b == '\\' || b < 0x20 || b >= 0x80 }
	first := func(w [8]byte) int {
		for i, b := range w {
			if special(b) {
				return i
			}
		}
		return 8
	}
	check := func(w [8]byte) {
		m := specialMask(binary.LittleEndian.Uint64(w[:]))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if want := first(w); got != want {
			t.Fatalf("% x: first special byte %d, want %d", w, got, want)
		}
	}
	// Backgrounds of ordinary bytes, next to the special ones among them.
	for _, bg := range []byte{'a', ' ', '!', '#', '[', ']', 0x7f} {
		for a := range 256 {
			for b := range 256 {
				for i := range 8 {
					for j := i; j < 8; j++ {
						w := [8]byte{bg, bg, bg, bg, bg, bg, bg, bg}
						w[i], w[j] = byte(a), byte(b)
						check(w)
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rng.Uint64())
		check(w)
	}
}
