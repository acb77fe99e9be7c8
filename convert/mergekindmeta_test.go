package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// solveit_ai on a code or raw cell is that cell's metadata, and on a
// markdown cell what makes it a prompt: a side that makes such a raw cell
// a prompt changes no value of its metadata. Where ours makes it code
// instead (a kind conflict, ours' kind kept), the code cell keeps
// "solveit_ai": true, which base and both sides' files hold (it was
// dropped, theirs' prompt reading as the key deleted).
func TestMergeKeepsMetadataAKindImplies(t *testing.T) {
	t.Parallel()
	raw := `{"id": "c0", "cell_type": "raw", "metadata": {"solveit_ai": true}, "source": "hello"}`
	codeCell := withID(5, "c0", code(`{"solveit_ai": true}`, "hello", "[]", "null"))
	prompt := withID(5, "c0", md(`{"solveit_ai": true}`, "hello", ""))
	res, err := merge(notebook(5, raw), notebook(5, codeCell), notebook(5, prompt), dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cell := decodeJSON(t, res.Data)["cells"].([]any)[0].(map[string]any)
	meta, _ := cell["metadata"].(map[string]any)
	if cell["cell_type"] != "code" || meta["solveit_ai"] != true {
		t.Errorf("merged %v %v, want the code cell with solveit_ai true; conflicts %v", cell["cell_type"], meta, res.Conflicts)
	}
}
