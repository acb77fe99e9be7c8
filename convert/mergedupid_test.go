package convert_test

// Tests of merges where base's file gives one id to more than one cell (git's
// hunks put a cell twice).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
)

// A base cell whose file id an earlier cell already holds (git's hunks
// put a moved cell twice in what ipynb fix reads as base) gets a made-up
// id, but the file gave it one: a side that gives it another id edited
// it. Where the other side deleted it, that is a conflict marked in the
// cell, not a deletion that drops the side's id (o2id was in no file).
func TestMergeBaseDuplicateIDChangedIsAnEdit(t *testing.T) {
	t.Parallel()
	b4 := md(`{}`, "«b4»", "")
	b3 := withID(5, "ff99aeb3", `{"cell_type": "raw", "metadata": {}, "source": "«b3»"}`)
	base := notebook(5, withID(5, "409e04b4", b4), b3, withID(5, "409e04b4", b4))
	ours := notebook(5, withID(5, "409e04b4", b4), b3, withID(5, "o2id", b4))
	theirs := notebook(5, withID(5, "409e04b4", b4), b3)
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells := decodeJSON(t, res.Data)["cells"].([]any)
	var ids []any
	for _, c := range cells {
		ids = append(ids, c.(map[string]any)["id"])
	}
	if len(cells) != 3 || ids[2] != "o2id" || len(res.Conflicts) != 1 {
		t.Errorf("merged cells %v, conflicts %v; want ours' o2id kept in a delete/edit conflict", ids, res.Conflicts)
	}
}

// The other shapes of it: where neither side changes the repeated cell,
// it is no edit (the merge is clean and keeps both copies); where a side
// deletes the copy the other left alone, it goes cleanly.
func TestMergeBaseDuplicateIDUnchanged(t *testing.T) {
	t.Parallel()
	b4 := md(`{}`, "«b4»", "")
	b3 := func(src string) string {
		return withID(5, "ff99aeb3", `{"cell_type": "raw", "metadata": {}, "source": "`+src+`"}`)
	}
	base := notebook(5, withID(5, "409e04b4", b4), b3("«b3»"), withID(5, "409e04b4", b4))
	for _, c := range []struct {
		name         string
		ours, theirs []byte
		texts        []any
	}{
		{"theirs edits another cell", base, notebook(5, withID(5, "409e04b4", b4), b3("«b3» edited"), withID(5, "409e04b4", b4)), []any{"«b4»", "«b3» edited", "«b4»"}},
		{"theirs deletes the copy", base, notebook(5, withID(5, "409e04b4", b4), b3("«b3»")), []any{"«b4»", "«b3»"}},
	} {
		res, err := merge(base, c.ours, c.theirs, dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var texts []any
		for _, cell := range decodeJSON(t, res.Data)["cells"].([]any) {
			src := cell.(map[string]any)["source"]
			if l, ok := src.([]any); ok && len(l) == 1 {
				src = l[0]
			}
			texts = append(texts, src)
		}
		if diff := cmp.Diff(c.texts, texts); diff != "" || len(res.Conflicts) != 0 {
			t.Errorf("%s: merged texts (-want +got):\n%s\nconflicts %v", c.name, diff, res.Conflicts)
		}
	}
}

// Where git's clean hunk gave a cell another's id line (theirs deleted
// b0 and moved b5, whose id is 27578649, to the front: b0's id line became
// 27578649 in every side), base holds that id twice, on b0 and on b5. A
// side's cell of that id with b5's text is base's b5, not b0 edited: the
// id says nothing between the two, the content does. So theirs deleted
// b0 (which ours edited: one delete/edit conflict) and moved b5, whose id
// ours changed: b5 first with ours' id, no conflict on it.
//
// And where git's hunks put a cell both sides inserted at the front over
// the first cell's lines but its id (ours' copy of the cell, beside, gets
// a made-up id), base holds the id on the inserted text and on the first
// cell: theirs' cell of that id with the first cell's text is that cell
// unchanged, and keeps its id (not ours' copy's made-up one).
func TestMergeBaseDuplicateIDPairedByContent(t *testing.T) {
	t.Parallel()
	b0, b0o := md(`{}`, "«b0»\n# clean", ""), md(`{}`, "«b0»\no3 new line", "")
	b4, b5 := withID(5, "3c669488", md(`{}`, "«b4»", "")), md(`{}`, "«b5»\n## Trust", "")
	o1, b2 := md(`{}`, "«o1»\no1.1 - item", ""), md(`{}`, "«b2»\nb2.1 x = 1", "")
	for _, c := range []struct {
		name               string
		base, ours, theirs []byte
		want               []string
		conflict           string // the one conflict, "" for none
	}{
		{"theirs deleted the first, moved the copy ours renamed",
			notebook(5, withID(5, "27578649", b0), b4, withID(5, "27578649", b5)),
			notebook(5, withID(5, "27578649", b0o), b4, withID(5, "o2id", b5)),
			notebook(5, withID(5, "27578649", b5), b4),
			[]string{
				`27578649 "<<<<<<< ours (edited this cell)\n«b0»\no3 new line\n=======\n>>>>>>> theirs (deleted this cell)\n"`,
				`o2id "«b5»\n## Trust"`,
				`3c669488 "«b4»"`,
			}, "deleted by theirs, edited by ours"},
		{"both inserted a cell over the first's lines",
			notebook(5, withID(5, "87d92bb2", o1), withID(5, "87d92bb2", b2)),
			notebook(5, withID(5, "0256a0o1", o1), withID(5, "87d92bb2", o1), withID(5, "87d92bb2", b2)),
			notebook(5, withID(5, "0256a0o1", o1), withID(5, "87d92bb2", b2)),
			[]string{`0256a0o1 "«o1»\no1.1 - item"`, `87d92bb2 "«b2»\nb2.1 x = 1"`}, ""},
	} {
		res, err := merge(c.base, c.ours, c.theirs, dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cell := range decodeJSON(t, res.Data)["cells"].([]any) {
			src := ""
			switch s := cell.(map[string]any)["source"].(type) {
			case string:
				src = s
			case []any:
				for _, l := range s {
					src += l.(string)
				}
			}
			got = append(got, fmt.Sprintf("%v %q", cell.(map[string]any)["id"], src))
		}
		var whats []string
		for _, k := range res.Conflicts {
			whats = append(whats, k.What)
		}
		if diff := cmp.Diff(c.want, got); diff != "" || strings.Join(whats, "; ") != c.conflict {
			t.Errorf("%s: merged cells (-want +got):\n%s\nconflicts %q, want %q", c.name, diff, whats, c.conflict)
		}
	}
}
