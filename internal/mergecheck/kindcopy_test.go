package mergecheck

// The reading of git's file taking a copy of a token base has twice as
// base's copy of its kind (tokenKeysSameKindFirst), tried on seed 64000114.

import (
	"strings"
	"testing"
)

// Seed 64000114 (fix path): base has code b0 and markdown b1; ours
// appended a line to b0 and set b1's metadata; theirs made b0 a prompt
// (markdown, "solveit_ai", a reply) and deleted b1. git's line merge put
// b0's code lines in a hunk only ours and base hold, and gave b1's kind
// line and theirs' prompt text to the cell after it: read back, base is
// code b0 then a markdown cell of b0's token and theirs' text, ours the
// same with its edits, theirs that markdown cell alone (only its
// metadata changed). b1's own text is nowhere in git's file. The repair
// read so: b0 deleted by theirs and edited by ours (kept, marked), the
// markdown cell with both sides' metadata. It is accepted, and not with
// either cell dropped, either side's metadata dropped, or the marks
// removed from b0.
func TestRepairReadsCopyByKind(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-kindcopy", "64000114")
	if strings.Contains(string(out.marked), "# This is a markdown cell") {
		t.Fatal("b1's text is in git's file: the case is not the one described")
	}
	if cells := resultCells(t, out); len(cells) != 2 {
		t.Fatalf("the repair has %d cells, not b0 and the markdown cell: %s", len(cells), out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	meta := func(c any) *obj { return c.(*obj).sub("metadata", false) }
	judgedWith("without b0", func(cs []any) []any { return cs[1:] })
	judgedWith("without the markdown cell", func(cs []any) []any { return cs[:1] })
	judgedWith("without ours' metadata", func(cs []any) []any {
		meta(cs[1]).del("deep")
		return cs
	})
	judgedWith("without theirs' metadata", func(cs []any) []any {
		meta(cs[1]).del("solveit_ai")
		return cs
	})
	judgedWith("with b0 unmarked", func(cs []any) []any {
		cs[0].(*obj).set("source", "«b0»\nprint(\"this is a code cell\")\no1 new line")
		return cs
	})
}
