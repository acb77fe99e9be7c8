package mergecheck

// The reading of git's file by ids where a side changed an id that git's
// hunks also gave another cell's text (keyByIDThenToken), tried on seed
// 63000392.

import (
	"testing"
)

// Seed 63000392 (fix path): ours changed base's cell b0's id, theirs
// inserted a cell t5 before it; git's line merge gave base's id line and
// b0's attachments to t5's text, and theirs' b0 (of base's id) is in a
// conflict. Read back, base's cell has t5's token and b0's id; ours'
// version has t5's token and ours' new id; theirs has t5 of a new id and
// b0 of base's. The cell is base's id in theirs and its token in ours
// (ours' version has no other cell it could be): theirs changed its text
// to b0's and ours its id, and theirs added t5, the merge of git's own
// sides. The repair is accepted, and not with a cell dropped, ours' id
// change undone, or the two ids swapped. The notebooks are kept in
// testdata/fix-idtoken (the generator makes them from the shared corpus).
func TestRepairReadsSideIDChangeByToken(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-idtoken", "63000392")
	cells := resultCells(t, out)
	if len(cells) != 2 || str(cells[0].(*obj).vals["id"]) != "d1b261t5" || str(cells[1].(*obj).vals["id"]) != "o4id" {
		t.Fatalf("the repair is not theirs' t5 then b0 of ours' id: %s", out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	judgedWith("without t5", func(cs []any) []any { return cs[1:] })
	judgedWith("without b0", func(cs []any) []any { return cs[:1] })
	judgedWith("with b0 of base's id", func(cs []any) []any {
		cs[1].(*obj).set("id", "913a06b0")
		return cs
	})
	judgedWith("with the ids swapped", func(cs []any) []any {
		cs[0].(*obj).set("id", "o4id")
		cs[1].(*obj).set("id", "d1b261t5")
		return cs
	})
}
