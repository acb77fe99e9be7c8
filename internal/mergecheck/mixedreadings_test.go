package mergecheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Seeds 42001941 (nbformat 3) and 44001929 (fix path): git's file gives a
// side a cell twice, which that side reads one way (ours: the copy first
// in order is base's first, its tags moved by git's hunks to ours' new
// cell) and the other side another (theirs: the copy equal to base's),
// and no one numbering of all four notebooks reads both; each side's
// copies are read its own way (mixedReadings). The repair of each is
// accepted, and the repair with any one cell dropped is not. The seeds'
// notebooks, which the generator makes from the shared corpus, are kept
// in testdata/fix-copies, so that the test stands alone.
func TestRepairCopiesReadSideBySide(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	m := fixMerge(t, buildCommand(t), t.TempDir())
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, seed := range []uint64{42001941, 44001929} {
		var fs [3][]byte
		for i, side := range []string{"base", "ours", "theirs"} {
			var err error
			if fs[i], err = os.ReadFile(filepath.Join("testdata", "fix-copies", strconv.FormatUint(seed, 10), side+".ipynb")); err != nil {
				t.Fatal(err)
			}
		}
		out := m(fs[0], fs[1], fs[2])
		if out.marked == nil {
			t.Fatalf("seed %d: git merged cleanly", seed)
		}
		if fails := judgeRepair(out, opt); len(fails) > 0 {
			t.Errorf("seed %d: the repair judged failing: %v", seed, fails)
		}
		var nb map[string]any
		if err := json.Unmarshal(out.result, &nb); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		holder := nb
		if ws, ok := nb["worksheets"].([]any); ok {
			holder = ws[0].(map[string]any)
		}
		cells := holder["cells"].([]any)
		for i := range cells {
			holder["cells"] = append(append([]any{}, cells[:i]...), cells[i+1:]...)
			mut := out
			var err error
			if mut.result, err = json.Marshal(nb); err != nil {
				t.Fatal(err)
			}
			if fails := judgeRepair(mut, opt); len(fails) == 0 {
				t.Errorf("seed %d: the repair without its cell %d judged right", seed, i)
			}
		}
		holder["cells"] = cells
	}
}
