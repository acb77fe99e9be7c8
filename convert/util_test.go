package convert_test

import (
	"fmt"
	"sort"
	"strings"

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
