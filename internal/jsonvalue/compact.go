// Compact JSON of generic values as Python's json.dumps spells it, with a caller's fallback for other values.
package jsonvalue

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
)

// Compact returns v as compact JSON, as package nbformat writes generic
// values: keys sorted, strings escaped as the encoder escapes them, floats
// as Python writes them (NaN, Infinity, -Infinity), json.Number as its
// text, json.RawMessage without its spaces. Values of the types Decode
// returns (nil, bool, string, int, float64, json.Number, []any,
// map[string]any) and json.RawMessage at the top are written without
// reflection. Any other value (one of another type anywhere in v, a
// string that is not valid UTF-8, an invalid json.Number, or a value
// nested deeper than the readers' MaxDepth) is passed whole to other,
// which writes it or reports its error (nbformat's encoder, through its
// public API: see internal/nbjson).
func Compact(v any, other func(v any) ([]byte, error)) ([]byte, error) {
	if out, ok := AppendCompact(nil, v); ok {
		return out, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		if raw == nil {
			return []byte("null"), nil
		}
		if _, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth}, nil); err != nil {
			return nil, fmt.Errorf("nbformat: invalid raw JSON: %w", err)
		}
		return jsontree.AppendCompact(nil, raw), nil
	}
	return other(v)
}

// AppendCompact appends v, a generic value, as compact JSON, without
// reflection, at the cost of the output buffer and one key list per
// object (package nbformat's encodeCompact writes generic values with it).
// It reports false, leaving the caller to use its encoder, for a value of
// another type, a string that is not valid UTF-8, an invalid json.Number,
// or a value nested deeper than the readers' MaxDepth (which Decode never
// returns).
func AppendCompact(dst []byte, v any) ([]byte, bool) { return appendCompact(dst, v, 0) }

func appendCompact(dst []byte, v any, depth int) ([]byte, bool) {
	if depth > nblimits.DefaultMaxDepth {
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
			if dst, ok = appendCompact(dst, el, depth+1); !ok {
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
			if dst, ok = appendCompact(dst, x[k], depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	}
	return dst, false
}
