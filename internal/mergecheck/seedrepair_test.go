package mergecheck

// A pinned seed's repair, read from its kept notebooks: fix run on what
// git's line merge leaves of them, the repair accepted, and edited
// versions of it rejected.

import (
	"encoding/json"
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

// resultCells is the cells of out's result, decoded.
func resultCells(t *testing.T, out outcome) []any {
	t.Helper()
	var nb map[string]any
	if err := json.Unmarshal(out.result, &nb); err != nil {
		t.Fatal(err)
	}
	return nb["cells"].([]any)
}

// rejectsEdited fails unless out's result with its cells edited (what
// names the edit) is judged wrong.
func rejectsEdited(t *testing.T, out outcome, what string, edit func(cells []any) []any) {
	t.Helper()
	var mut map[string]any
	if err := json.Unmarshal(out.result, &mut); err != nil {
		t.Fatal(err)
	}
	mut["cells"] = edit(mut["cells"].([]any))
	m := out
	var err error
	if m.result, err = json.Marshal(mut); err != nil {
		t.Fatal(err)
	}
	if fails := judgeRepair(m, seedRepairOptions); len(fails) == 0 {
		t.Errorf("the repair %s judged right", what)
	}
}
