package convert_test

import (
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// The sides git's markers held in seed 8000326 of the fix path: base's
// file gives id a two cells, and a cell of id b the same text; ours
// deleted b (it holds a twice, b nowhere) and added a raw cell, theirs
// deleted one copy of a (it holds b and a once). Read by their id lines,
// the merge is ours' raw cell and one cell of id a, clean: b is gone
// (ours deleted it, theirs left it), a's copies are each kept by one
// side at least. Ours' copies of a paired by content took b and the
// copy theirs deleted: both copies of a were gone, b kept.
func TestMergeCopiesBesideAlikeCell(t *testing.T) {
	t.Parallel()
	cell := func(id string) string { return withID(5, id, code(`{}`, "«b0»", "[]", "21")) }
	raw := `{"id": "0f5884o2", "cell_type": "raw", "metadata": {}, "source": "«o2»"}`
	base := notebook(5, cell("724e8fb0"), cell("88eb45b1"), cell("724e8fb0"))
	ours := notebook(5, raw, cell("724e8fb0"), cell("724e8fb0"))
	theirs := notebook(5, cell("88eb45b1"), cell("724e8fb0"))
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range decodeJSON(t, res.Data)["cells"].([]any) {
		ids = append(ids, c.(map[string]any)["id"].(string))
	}
	if want := []string{"0f5884o2", "724e8fb0"}; !slices.Equal(ids, want) || len(res.Conflicts) > 0 {
		t.Errorf("merged cells %q, conflicts %v; want %q, clean", ids, res.Conflicts, want)
	}
}
