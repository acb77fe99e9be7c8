package textdiff

import (
	"strings"
	"testing"
)

// FuzzMergeText: a merge with one side unchanged is the other side; the
// sides swapped give the same number of conflicts and, when clean, the
// same text; an edit script rebuilds both texts.
func FuzzMergeText(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n")
	f.Add("x", "", "y\n")
	f.Add("1\n2\n3\n4\n", "1\n3\n4\n2\n", "0\n1\n2\n3\n")
	f.Fuzz(func(t *testing.T, base, x, y string) {
		if len(base)+len(x)+len(y) > 4000 {
			return
		}
		if got, n := MergeText(base, x, base, Markers{}); n != 0 || got != x {
			t.Fatalf("merge(base, x, base) = %q (%d conflicts), want %q", got, n, x)
		}
		if got, n := MergeText(base, base, y, Markers{}); n != 0 || got != y {
			t.Fatalf("merge(base, base, y) = %q (%d conflicts), want %q", got, n, y)
		}
		xy, n1 := MergeText(base, x, y, Markers{Ours: "X", Theirs: "Y"})
		yx, n2 := MergeText(base, y, x, Markers{Ours: "Y", Theirs: "X"})
		if n1 != n2 || n1 == 0 && xy != yx {
			t.Fatalf("sides swapped: %d/%d conflicts\n%q\n%q", n1, n2, xy, yx)
		}
		if n1 > 0 && strings.Count(xy, "<<<<<<< X\n") != n1 {
			t.Fatalf("%d conflicts but markers %q", n1, xy)
		}
		var a, b strings.Builder
		for _, e := range Edits(Lines(base), Lines(x)) {
			if e.Op != '+' {
				a.WriteString(e.Text)
			}
			if e.Op != '-' {
				b.WriteString(e.Text)
			}
		}
		if a.String() != base || b.String() != x {
			t.Fatalf("edits rebuild %q and %q, want %q and %q", a.String(), b.String(), base, x)
		}
	})
}
