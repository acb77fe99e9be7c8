package convert_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// A base cell whose file id an earlier cell already holds (git's hunks
// put a moved cell twice in what ipynb fix reads as base) gets a made-up
// id, but the file gave it one: a side that gives it another id edited
// it. Where the other side deleted it, that is a conflict marked in the
// cell, not a deletion that drops the side's id (o2id was in no file).
func TestMergeBaseDuplicateIDChangedIsAnEdit(t *testing.T) {
	b4 := md(`{}`, "«b4»", "")
	b3 := withID(5, "ff99aeb3", `{"cell_type": "raw", "metadata": {}, "source": "«b3»"}`)
	base := notebook(5, withID(5, "409e04b4", b4), b3, withID(5, "409e04b4", b4))
	ours := notebook(5, withID(5, "409e04b4", b4), b3, withID(5, "o2id", b4))
	theirs := notebook(5, withID(5, "409e04b4", b4), b3)
	res, err := convert.Merge(base, ours, theirs, dialog.MergeOptions{})
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
		res, err := convert.Merge(base, c.ours, c.theirs, dialog.MergeOptions{})
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
