package mergecheck

// A pinned seed's repair, read from its kept notebooks: fix run on what
// git's line merge leaves of them, the repair accepted, and edited
// versions of it rejected.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// seedRepairOptions is how the pinned seeds' repairs are judged.
var seedRepairOptions = checkOptions{keys: tokenKeys, uniqueLines: true}

// seedRepair runs fix on the base, ours and theirs notebooks kept in
// testdata/DIR/SEED as git's line merge leaves them, failing unless git
// conflicts and the repair is judged right.
func seedRepair(t *testing.T, dir, seed string) outcome {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	var fs [3][]byte
	for i, side := range []string{"base", "ours", "theirs"} {
		var err error
		if fs[i], err = os.ReadFile(filepath.Join("testdata", dir, seed, side+".ipynb")); err != nil {
			t.Fatal(err)
		}
	}
	out := fixMerge(t, buildCommand(t), t.TempDir())(fs[0], fs[1], fs[2])
	if out.marked == nil {
		t.Fatal("git merged cleanly")
	}
	if fails := judgeRepair(out, seedRepairOptions); len(fails) > 0 {
		t.Fatalf("the repair judged failing: %v", fails)
	}
	return out
}

// resultCells is the cells of out's result, decoded as the checker
// decodes (members in order, lone surrogates kept).
func resultCells(t *testing.T, out outcome) []any {
	t.Helper()
	_, cells := decodedCells(t, out.result)
	return cells
}

// decodedCells is notebook data decoded as the checker decodes, and its
// cells.
func decodedCells(t *testing.T, data []byte) (*obj, []any) {
	t.Helper()
	v, err := parseJSON(data)
	nb, ok := v.(*obj)
	if err != nil || !ok {
		t.Fatalf("the result is no JSON object (%v)", err)
	}
	cells, _ := nb.vals["cells"].([]any)
	return nb, cells
}

// rejectsEdited fails unless out's result with its cells edited (what
// names the edit; the cells are *obj) is judged wrong, and unless the
// result written back unedited is judged right (else the edit shows
// nothing).
func rejectsEdited(t *testing.T, out outcome, what string, edit func(cells []any) []any) {
	t.Helper()
	rewritten := func(edit func([]any) []any) outcome {
		nb, cells := decodedCells(t, out.result)
		nb.set("cells", edit(cells))
		m := out
		m.result = jupyterStyle.write(nb)
		return m
	}
	if fails := judgeRepair(rewritten(func(cs []any) []any { return cs }), seedRepairOptions); len(fails) > 0 {
		t.Fatalf("the repair written back unedited judged failing: %v", fails)
	}
	if fails := judgeRepair(rewritten(edit), seedRepairOptions); len(fails) == 0 {
		t.Errorf("the repair %s judged right", what)
	}
}
