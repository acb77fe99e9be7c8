package nbformat

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// join gives the pieces' concatenation, in a new array (never one of the
// pieces', which are the bytes read), whatever their number and lengths.
func TestJoinPieces(t *testing.T) {
	t.Parallel()
	src := bytes.Repeat([]byte("0123456789"), 100)
	cases := [][][]byte{
		nil, {}, {nil}, {src[:0], src[:0]},
		{src[:1]}, {src[:0], src[:500]}, {src[:500], src[:0]},
		{src[:3], src[10:500]}, {src[:300], src[300:500]}, {src[:250], src[250:500]}, {src[:251], src[251:500]},
		{src[:1], src[1:2]}, {src[:5], src[5:900], src[900:]}, {src[:0], src[:7], src[:0], src[7:9]},
	}
	for _, pieces := range cases {
		name := fmt.Sprint(len(pieces), " pieces")
		got := join(pieces)
		want := bytes.Join(pieces, nil)
		if got == nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %q, want %q", name, got, want)
		}
		if zerocopy.In(got, src) {
			t.Fatalf("%s: the result shares the pieces' array", name)
		}
		for i := range got {
			got[i] = 'x'
		}
		if !bytes.Equal(src, bytes.Repeat([]byte("0123456789"), 100)) {
			t.Fatalf("%s: writing the result changed a piece", name)
		}
	}
}
