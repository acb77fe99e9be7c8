package convert_test

// Helpers of the parity suite (parity_test.go): what a decoded document
// holds, and where two differ.

import (
	"fmt"
)

func hasUnknownCell(doc map[string]any) bool {
	for _, c := range cellsOf(doc) {
		switch c["cell_type"] {
		case "markdown", "code", "raw":
		default:
			return true
		}
	}
	return false
}

// jsonDiffs lists (some of) the JSON Pointers where two decoded documents
// differ, with the two values.
func jsonDiffs(a, b any, at string, out []string) []string {
	if len(out) >= 8 {
		return out
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return append(out, at)
		}
		keys := map[string]any{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			xv, okx := x[k]
			yv, oky := y[k]
			if !okx || !oky {
				out = append(out, fmt.Sprintf("%s/%s (only in the %s)", at, k, map[bool]string{true: "seed's", false: "ours"}[okx]))
				continue
			}
			out = jsonDiffs(xv, yv, at+"/"+k, out)
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return append(out, fmt.Sprintf("%s (%d items | %v)", at, len(x), b))
		}
		for i := range x {
			out = jsonDiffs(x[i], y[i], fmt.Sprintf("%s/%d", at, i), out)
		}
		return out
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return append(out, fmt.Sprintf("%s (seed %.60v | ours %.60v)", at, a, b))
	}
	return out
}
