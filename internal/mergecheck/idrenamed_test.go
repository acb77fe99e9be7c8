package mergecheck

// The reading of git's file by ids where a side's one new id is its one
// lost id of base's (keyByIDInOrderRenamed), tried on seed 65002172.

import (
	"testing"
)

// Seed 65002172 (fix path): base is b0, b1, b5; ours moved b1 first;
// theirs changed b1's id and moved b0 last. git's line merge gave theirs'
// new id line and base's id line of b1 to the cell whose text is b0's, and
// wrote b0's text twice: read back, base and ours hold b0's id twice and
// theirs' cell of the new id has b0's text, so no token says it is b1.
// It is base's cell of b1's id (theirs has no other cell of it): theirs
// changed its id, ours its text (to b1's). The repair (theirs' notebook:
// b1 of theirs' id, b5, b0, the merge of the real sides too) is accepted,
// and not with b1 or b0 dropped, theirs' id undone, or ours' text of
// it (b1's) undone.
func TestRepairReadsSideIDRenamed(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-idrenamed", "65002172")
	ids := []string{}
	for _, c := range resultCells(t, out) {
		ids = append(ids, str(c.(*obj).vals["id"]))
	}
	if len(ids) != 3 || ids[0] != "t4id" || ids[1] != "65e0cdb5" || ids[2] != "57a45db0" {
		t.Fatalf("the repair is not b1 of theirs' id, b5, b0: %s", out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	judgedWith("without b1", func(cs []any) []any { return cs[1:] })
	judgedWith("without b0", func(cs []any) []any { return cs[:2] })
	judgedWith("with b1 of base's id", func(cs []any) []any {
		cs[0].(*obj).set("id", "7f4b8fb1")
		return cs
	})
	judgedWith("with b1's text base's (b0's)", func(cs []any) []any {
		cs[0].(*obj).set("source", "«b0»\nb0.1 x = 1\nb0.2 - item\nb0.3 x = 1")
		return cs
	})
}
