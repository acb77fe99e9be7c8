package convert_test

// Tests of merges where a side's file gives one id to more than one cell: the
// copy is paired with base's cell by content.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
)

// An id a side's file gives more than one cell (git's hunks gave a
// cell's header, id line and all, to another cell's text: what ipynb fix
// reads as a side) does not say which of them is base's cell of that id.
// Where a copy other than the first is as base's cell of the id (kind and
// text), the copies are paired by content and place: the cell at base's
// place, as base had it, is base's, and the copy elsewhere is the cell
// there edited (its kind changed, given a taken id: no identity). A
// result that paired the first copy with base's cell by id would move
// that cell before the other (a move no side's file shows: the copies are
// alike) and give the other's id to the cell no side changed.
//
// Each case's cells are "kind id text" (and "+att" with attachments), in
// order; an id "*" is one made up by the merge (not pinned), "<nil>" none.
func TestMergeSideDuplicateIDPairedByContent(t *testing.T) {
	t.Parallel()
	mdc := func(id, src string) string { return withID(5, id, md(`{}`, src, "")) }
	codec := func(id, src string) string { return withID(5, id, code(`{}`, src, "[]", "null")) }
	rawc := func(id, src string) string {
		return withID(5, id, `{"cell_type": "raw", "metadata": {}, "source": "`+src+`"}`)
	}
	const attachment = `{"x.png": {"image/png": "iVBORw0KGgo="}}`
	base2 := notebook(5, mdc("aaaa0001", "«s»"), codec("bbbb0002", "«s»"))
	for _, c := range []struct {
		name               string
		base, ours, theirs []byte
		want               []string
		conflicts          int
	}{
		// seed 2001597 (ipynb fix): base holds k1 twice (git gave the
		// header of the first cell to the third's text), theirs holds
		// bbbb0002 twice (git gave the fourth's header to the third's
		// text). Ours renamed the third cell; theirs made it code with
		// the fourth's id; the fourth is the same in all three.
		{"seed 2001597: theirs gave the cell the next one's header, ours renamed it",
			notebook(5, mdc("aaaa0001", "«x»"), rawc("cccc0003", "«r»"), mdc("aaaa0001", "«s»"), codec("bbbb0002", "«s»")),
			notebook(5, mdc("aaaa0001", "«x»"), rawc("cccc0003", "«r»"), mdc("o2id", "«s»"), codec("bbbb0002", "«s»")),
			notebook(5, mdc("aaaa0001", "«x»"), rawc("cccc0003", "«r»"), codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`markdown aaaa0001 "«x»"`, `raw cccc0003 "«r»"`, `code o2id "«s»"`, `code bbbb0002 "«s»"`}, 0},
		// The id twice in theirs only: theirs changed the first cell's
		// kind (the id it gave is the second's, which it kept).
		{"theirs only, ours unchanged",
			base2, base2, notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`code aaaa0001 "«s»"`, `code bbbb0002 "«s»"`}, 0},
		{"theirs only, ours renamed the first",
			base2, notebook(5, mdc("o2id", "«s»"), codec("bbbb0002", "«s»")), notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`code o2id "«s»"`, `code bbbb0002 "«s»"`}, 0},
		// Theirs inserted a copy of the cell ours edited: which copy is
		// the inserted one, nothing says (they are alike); ours' edit is
		// in one, the other is theirs' copy under an id of its own.
		{"theirs only, a copy inserted, ours edited the cell",
			notebook(5, codec("bbbb0002", "«s»")), notebook(5, codec("bbbb0002", "«s» edited")),
			notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`code bbbb0002 "«s» edited"`, `code * "«s»"`}, 0},
		// Both sides made the same change: the ids they gave are no
		// identity, the first cell keeps base's, the second its own.
		{"both sides",
			base2, notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")), notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`code aaaa0001 "«s»"`, `code bbbb0002 "«s»"`}, 0},
		{"three copies in theirs",
			notebook(5, mdc("aaaa0001", "«s»"), rawc("cccc0003", "«s»"), codec("bbbb0002", "«s»")),
			notebook(5, mdc("aaaa0001", "«s»"), rawc("o2id", "«s»"), codec("bbbb0002", "«s»")),
			notebook(5, codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»"), codec("bbbb0002", "«s»")),
			[]string{`code aaaa0001 "«s»"`, `code o2id "«s»"`, `code bbbb0002 "«s»"`}, 0},
		// The first copy shares a line with base's cell of the id, a
		// later copy is as base's (seed 2001570): the first may be that
		// cell edited, as its id says, and stays paired by id. Theirs
		// took a line and the attachment out of it and inserted a copy
		// of base's; ours took the attachment out.
		{"theirs only, the first copy may be base's edited",
			notebook(5, withID(5, "aaaa0001", md(`{}`, "«s»\nline\no4", attachment))),
			notebook(5, mdc("aaaa0001", "«s»\nline\no4")),
			notebook(5, mdc("aaaa0001", "«s»\nline"), withID(5, "aaaa0001", md(`{}`, "«s»\nline\no4", attachment))),
			[]string{`markdown aaaa0001 "«s»\nline"`, `markdown * "«s»\nline\no4" +att`}, 0},
		// The id twice in base only: ours deleted the first copy, the
		// second now holds the id alone; theirs renamed the second and
		// edited the raw cell.
		{"base only",
			notebook(5, mdc("aaaa0001", "«x»"), rawc("cccc0003", "«r»"), mdc("aaaa0001", "«y»")),
			notebook(5, rawc("cccc0003", "«r»"), mdc("aaaa0001", "«y»")),
			notebook(5, mdc("aaaa0001", "«x»"), rawc("cccc0003", "«r» edited"), mdc("t2id", "«y»")),
			[]string{`raw cccc0003 "«r» edited"`, `markdown t2id "«y»"`}, 0},
		// Without ids (nbformat 4.4) cells are paired by content anyway.
		{"v4.4",
			notebook(4, md(`{}`, "«s»", ""), code(`{}`, "«s»", "[]", "null")), notebook(4, md(`{}`, "«s»", ""), code(`{}`, "«s»", "[]", "null")),
			notebook(4, code(`{}`, "«s»", "[]", "null"), code(`{}`, "«s»", "[]", "null")),
			[]string{`code <nil> "«s»"`, `code <nil> "«s»"`}, 0},
	} {
		res, err := merge(c.base, c.ours, c.theirs, dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		named := map[string]bool{} // the ids the cases name
		for _, w := range c.want {
			named[strings.Fields(w)[1]] = true
		}
		var got []string
		for _, cell := range decodeJSON(t, res.Data)["cells"].([]any) {
			m := cell.(map[string]any)
			id := fmt.Sprint(m["id"])
			if id != "<nil>" && !named[id] {
				id = "*"
			}
			s := fmt.Sprintf("%v %s %q", m["cell_type"], id, joinText(m["source"]))
			if a, _ := m["attachments"].(map[string]any); len(a) > 0 {
				s += " +att"
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(c.want, got); diff != "" || len(res.Conflicts) != c.conflicts {
			t.Errorf("%s: merged cells (-want +got):\n%s\nconflicts %v, want %d", c.name, diff, res.Conflicts, c.conflicts)
		}
	}
}
