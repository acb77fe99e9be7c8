package jsonvalue

// Writing generic JSON without reflection: AppendJSON, AppendObject, and floats
// as Python's repr writes them.

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// AppendJSON appends v as compact JSON: json.RawMessage as it is (after
// checking it is JSON), strings with AppendQuoted (lone surrogates as
// their escapes), json.Number as its text, float64 as Python writes it
// (NaN, Infinity and -Infinity included: notebooks hold them), objects of
// any map type with their keys sorted, arrays of any element; any other
// value as encoding/json writes it.
func AppendJSON(b []byte, v any) ([]byte, error) {
	return appendJSON(b, v, 0)
}

func appendJSON(b []byte, v any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return b, fmt.Errorf("jsonvalue: a value nested deeper than %d (or one that contains itself)", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return AppendQuoted(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case float64:
		return AppendFloat(b, x), nil
	case json.Number:
		if _, ok := parseNumber(string(x)); !ok {
			return b, fmt.Errorf("jsonvalue: %q is not a number", string(x))
		}
		return append(b, x...), nil
	case json.RawMessage:
		if len(x) == 0 {
			return append(b, "null"...), nil
		}
		if _, err := Decode(x); err != nil {
			return b, err
		}
		return append(b, x...), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	if m, ok := Object(v); ok {
		return appendMembers(b, slices.Sorted(maps.Keys(m)), m, depth)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, raw...), nil
}

// AppendObject appends the object of the members vals in the order of
// keys (each a key of vals), compactly, values as AppendJSON writes them.
func AppendObject(b []byte, keys []string, vals map[string]any) ([]byte, error) {
	return appendMembers(b, keys, vals, 0)
}

func appendMembers(b []byte, keys []string, vals map[string]any, depth int) ([]byte, error) {
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendQuoted(b, k), ':')
		var err error
		if b, err = appendJSON(b, vals[k], depth+1); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// AppendFloat appends f as Python's repr writes a float (as json.dumps
// does): the shortest digits that read back as f, in positional notation
// with at least one digit after the point for exponents from -4 to 15
// ("100.0", "0.0001"), else in scientific notation with a signed
// exponent of at least two digits ("1e+16", "1.5e-05"); NaN, Infinity,
// -Infinity.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		b = append(b, mant...)
		b = append(b, 'e')
		if x < 0 {
			b, x = append(b, '-'), -x
		} else {
			b = append(b, '+')
		}
		if x < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(x), 10)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	b = append(b, s...)
	if !strings.ContainsRune(s, '.') {
		b = append(b, ".0"...)
	}
	return b
}
