package mergecheck

import (
	"strings"
	"testing"
)

// Seeds 42002627 and 42001951 (fix path): git's file gives base's side a
// cell twice alike (a clean hunk moved it beside its old place) and
// another twice in two versions. Ours' side keeps one of the alike copies
// and makes the other code; theirs' keeps one alike copy and edits the
// first version of the other. Equality tells which base copy a side's
// cell is only where base has that value once: the repair that keeps
// ours' code copy, theirs' edit of the copy ours deleted (marked), and
// the second version is right, and results that drop a change or undo a
// deletion are caught (tokenKeysEqualTwinsInOrder: tokenKeysEqualFirst
// gives ours' alike copy to base's first and its code copy to the second,
// which theirs deleted, and the right repair failed under every reading).
func TestRepairCopiesAlikeInBase(t *testing.T) {
	t.Parallel()
	cell, nb := cell41, nb41
	a, aCode := cell("markdown", "{}", "«b1»\nA"), cell("code", "{}", "«b1»\nA")
	p1, p2 := cell("markdown", "{}", "«b3»\nP\nold"), cell("markdown", "{}", "«b3»\nP")
	p1Tags := cell("markdown", `{"tags": ["t"]}`, "«b3»\nP\nold")
	p1Marked := cell("markdown", `{"tags": ["t"]}`, "<<<<<<< ours (deleted this cell)\n=======\n«b3»\nP\nold\n>>>>>>> theirs (edited this cell)\n")
	base, ours, theirs := nb(a, p1, a, p2), nb(aCode, a, p2), nb(p1Tags, a, p2)
	opt := checkOptions{keys: tokenKeysEqualTwinsInOrder, uniqueLines: true}
	for _, c := range []struct {
		name   string
		result []byte
		clean  bool
		want   string // a failure's text holds it; "" none
	}{
		{"the repair's", nb(p1Marked, aCode, p2), false, ""},
		{"ours' code lost", nb(p1Marked, a, p2), false, "lost (ours)"},
		{"theirs' edit of the deleted copy lost", nb(aCode, p2), true, "edit of a deleted cell lost"},
		{"ours' deletion of the alike copy undone", nb(p1Marked, aCode, a, p2), false, "deleted cell kept"},
	} {
		fails := check(base, ours, theirs, c.result, c.clean, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}
