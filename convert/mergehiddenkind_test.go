package convert_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// Members the schema gives another kind of cell (outputs and an
// execution count on a markdown cell: git's line merge gave the cell
// another's lines, as in seed 18000802 of the fix path) are no hidden part
// of the cell that a side's change carries into the merge: over an
// invalid ours the merge is healed, and a markdown cell has only
// cell_type, metadata, source and attachments (the nbformat 4 schema's
// markdown_cell). A member unknown to the schema is still carried (see
// TestMergeKeepsTheirsHiddenChanges).
func TestMergeDropsOtherKindsMembers(t *testing.T) {
	t.Parallel()
	cell := `{"cell_type": "markdown", "metadata": {}, "outputs": [], "source": "«b2»"}`
	other := md(`{}`, "«b1»", "")
	base := notebook(3, other, cell)
	ours := notebook(3, md(`{}`, "«b1» ours", ""), cell)
	theirs := notebook(3, other, strings.Replace(cell, `"outputs"`, `"execution_count": null, "x_tool": 1, "outputs"`, 1))
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells := decodeJSON(t, res.Data)["cells"].([]any)
	got := cells[1].(map[string]any)
	var members []string
	for k := range got {
		members = append(members, k)
	}
	slices.Sort(members)
	if want := []string{"cell_type", "metadata", "source", "x_tool"}; !slices.Equal(members, want) || got["source"] != "«b2»" {
		t.Errorf("merged cell %v: members %q, want %q", got, members, want)
	}
	if src := cells[0].(map[string]any)["source"]; src != "«b1» ours" {
		t.Errorf("first cell's source %q, want ours'", src)
	}
}
