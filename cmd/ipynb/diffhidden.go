package main

// Differences the cell diff does not show. Two files that differ are
// never shown as nothing: git diff would print no line for a file git
// status calls modified, and a commit would hold changes nobody saw.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbjson"
)

// hiddenDifference is the line that says how a and b differ when the
// cell diff found no change: only in their formatting, or (as JSON
// values) first at a JSON Pointer; "" when the texts are the same.
func hiddenDifference(a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	va, erra := decodeNumbers(a)
	vb, errb := decodeNumbers(b)
	if erra != nil || errb != nil {
		return headerMark + "the files differ, not in any cell"
	}
	ptr, x, y, found := firstDifference("", va, vb)
	if !found {
		return headerMark + "the same notebook: only the formatting of its JSON differs (" + lineCount(a, b) + ")"
	}
	if ptr == "" {
		ptr = "the top"
	}
	return fmt.Sprintf("%sthe files differ, not in any cell: first at %s (%s → %s)", headerMark, ptr, brief(x), brief(y))
}

// versionChange is the line that says the format version changed
// ("## notebook: nbformat 4.5 → 4.4"), shown after the cells' changes (the
// cell diff has no change for it); "" when both files have one version or
// a file does not say its own.
func versionChange(a, b []byte) string {
	var v [2][2]json.Number // nbformat, nbformat_minor
	for i, data := range [2][]byte{a, b} {
		top, err := decodeNumbers(data) // as notebooks are read (NaN in them included)
		m, _ := top.(map[string]any)
		if err != nil || m == nil {
			return ""
		}
		for j, key := range []string{"nbformat", "nbformat_minor"} {
			n, ok := m[key].(json.Number)
			if !ok {
				return ""
			}
			v[i][j] = n
		}
	}
	if v[0] == v[1] {
		return ""
	}
	return fmt.Sprintf("%snotebook: nbformat %s.%s → %s.%s", headerMark, v[0][0], v[0][1], v[1][0], v[1][1])
}

// lineCount says how many lines a and b have.
func lineCount(a, b []byte) string {
	na, nb := bytes.Count(a, []byte("\n")), bytes.Count(b, []byte("\n"))
	if na == nb {
		return strconv.Itoa(na) + " lines"
	}
	return strconv.Itoa(na) + " lines → " + strconv.Itoa(nb)
}

// firstDifference returns the JSON Pointer (below ptr) of the first place
// where the JSON values x and y differ, and the values there.
func firstDifference(ptr string, x, y any) (string, any, any, bool) {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			return ptr, x, y, true
		}
		keys := make([]string, 0, len(xv)+len(yv))
		for k := range xv {
			keys = append(keys, k)
		}
		for k := range yv {
			if _, ok := xv[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			a, inX := xv[k]
			b, inY := yv[k]
			p := ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			switch {
			case !inX:
				return p, missing{}, b, true
			case !inY:
				return p, a, missing{}, true
			}
			if p, a, b, found := firstDifference(p, a, b); found {
				return p, a, b, true
			}
		}
		return "", nil, nil, false
	case []any:
		yv, ok := y.([]any)
		if !ok {
			return ptr, x, y, true
		}
		for i := range min(len(xv), len(yv)) {
			if p, a, b, found := firstDifference(ptr+"/"+strconv.Itoa(i), xv[i], yv[i]); found {
				return p, a, b, true
			}
		}
		if len(xv) != len(yv) {
			return ptr, items(len(xv)), items(len(yv)), true
		}
		return "", nil, nil, false
	}
	// Numbers by value, as Python compares them (300 is 300.0, as in
	// the cell diff and diff --json), strings (lone surrogates as WTF-8),
	// NaN and ±Infinity, booleans (true is not 1), null.
	if jsonvalue.Equal(x, y) {
		return "", nil, nil, false
	}
	return ptr, x, y, true
}

// decodeNumbers decodes a JSON text as notebooks are read: numbers as
// written (json.Number), NaN and ±Infinity, strings with their lone
// surrogates (which encoding/json turns into U+FFFD: two files differing
// only there read the same).
func decodeNumbers(data []byte) (any, error) {
	return jsonvalue.Decode(data)
}

// missing is a member one side does not have.
type missing struct{}

// items is the length of an array, where two arrays differ only in it.
type items int

// brief is a value as the line shows it: JSON, cut after 40 characters.
func brief(v any) string {
	switch v := v.(type) {
	case missing:
		return "absent"
	case items:
		return strconv.Itoa(int(v)) + " items"
	}
	b, err := nbjson.Encode(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return leadLine(string(b), 40)
}

// writeHidden writes the diff of two texts the cell diff found equal:
// the two names and the line saying how they differ; nothing when they
// are the same (the names when lines follow them). It reports whether
// the texts differ.
func (d *differ) writeHidden(w io.Writer, aName, bName string, a, b []byte) bool {
	line := hiddenDifference(a, b)
	if line == "" && len(d.afterNames) == 0 {
		return false
	}
	d.writeNames(w, aName, bName)
	if line != "" {
		d.paint(w, colBold, line)
	}
	return line != ""
}
