package nbformat

// Generic JSON written compactly, as Python's json.dumps spells it (NaN,
// big numbers, escapes).

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Compact JSON of generic values without reflection: what encodeCompact
// writes for the values Decode returns (nil, bool, string, int, float64,
// json.Number, []any, map[string]any), byte for byte (keys sorted, numbers
// spelled as the encoder spells them), at the cost of the output buffer
// and one key list per object. The upgrade of version 3 notebooks goes
// through it (their worksheets' cells are generic JSON). Outside the
// package, internal/jsonvalue.Compact is the same writer (internal/nbjson
// passes it this package's encoder for other values; compact_diff_test.go
// pins the two together).

// maxGenericDepth bounds appendGeneric's recursion; deeper values (which
// Decode never returns: its limit is defaultMaxDepth) take the encoder's
// path.
const maxGenericDepth = defaultMaxDepth

// appendGeneric appends v as compact JSON. It reports false, leaving the
// caller to use the encoder, for a value of another type, a string that is
// not valid UTF-8, an invalid json.Number, or a value nested deeper than
// maxGenericDepth (the encoder then writes the value, or reports its
// error, as it always has).
func appendGeneric(dst []byte, v any, depth int) ([]byte, bool) {
	if depth > maxGenericDepth {
		return dst, false
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case string:
		return jsontree.AppendQuoted(dst, x, jsontree.Escaping{})
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case float64:
		return jsontree.AppendPythonFloat(dst, x), true
	case json.Number:
		s := string(x)
		if !json.Valid([]byte(s)) && s != "NaN" && s != "Infinity" && s != "-Infinity" {
			return dst, false
		}
		return append(dst, s...), true
	case []any:
		if len(x) == 0 {
			return append(dst, "[]"...), true
		}
		dst = append(dst, '[')
		for i, el := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendGeneric(dst, el, depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	case map[string]any:
		if len(x) == 0 {
			return append(dst, "{}"...), true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, strings.Compare)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = jsontree.AppendQuoted(dst, k, jsontree.Escaping{}); !ok {
				return dst, false
			}
			dst = append(dst, ':')
			if dst, ok = appendGeneric(dst, x[k], depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	}
	return dst, false
}
