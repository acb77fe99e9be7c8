package convert_test

// Helpers of the external tests: first differences, sorted keys, cell spans and
// Merge's results together.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbtest"
)

var firstDiff = nbtest.FirstDiff

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func diffLines(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n- %.200s\n+ %.200s\n", i, w, g)
			break
		}
	}
	return b.String()
}

var cellSpan = nbtest.CellSpan

var (
	codeOutput   = nbtest.CodeOutput
	streamOutput = nbtest.StreamOutput
)

// mergeResult is what convert.Merge returns, together, for the tests.
type mergeResult struct {
	Data      []byte
	Conflicts []dialog.Conflict
}

// merge is convert.Merge, its results together.
func merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*mergeResult, error) {
	data, conflicts, err := convert.Merge(base, ours, theirs, opt)
	if err != nil {
		return nil, err
	}
	return &mergeResult{data, conflicts}, nil
}
