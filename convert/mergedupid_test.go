package convert_test

import (
	"testing"

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
