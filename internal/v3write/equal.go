package v3write

// Equality of version 4 cells, outputs and bundles in generic form, texts by
// their text.

import (
	"bytes"
	"encoding/json"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/nbformat"
)

// Whether a cell to write is the upgrade of the cell it comes from,
// compared in their generic forms (v4Cell.g) without decoding them: texts
// by their text whatever their form (a string, or lines), nested arrays
// and objects held as json.RawMessage by their bytes when those are
// equal, else by their values. Ids are left out.

// equalCell reports whether two version 4 cells in generic form are
// equal, ids aside.
func equalCell(a, b map[string]any) bool {
	return equalMembers(a, b, func(k string, x, y any) bool {
		switch k {
		case "id":
			return true
		case "source":
			return equalText(x, y)
		case "outputs":
			return equalList(x, y, equalOutput)
		case "attachments":
			return equalMap(x, y, equalBundle)
		}
		return equalValue(x, y)
	}, "id")
}

// equalOutput compares outputs in generic form.
func equalOutput(x, y any) bool {
	a, okA := x.(map[string]any)
	b, okB := y.(map[string]any)
	if !okA || !okB {
		return equalValue(x, y)
	}
	typ := a["output_type"]
	return equalMembers(a, b, func(k string, x, y any) bool {
		switch {
		case k == "data" && (typ == "execute_result" || typ == "display_data"):
			return equalBundle(x, y)
		case k == "text" && typ == "stream":
			return equalText(x, y)
		}
		return equalValue(x, y)
	}, "")
}

// equalBundle compares mime bundles in generic form: text entries by
// their text.
func equalBundle(x, y any) bool {
	return equalMembersOf(x, y, func(k string, x, y any) bool {
		if mimetype.IsJSON(k) {
			return equalValue(x, y)
		}
		return equalText(x, y)
	})
}

// equalMembersOf is equalMembers for values that may not be objects.
func equalMembersOf(x, y any, eq func(k string, x, y any) bool) bool {
	a, okA := x.(map[string]any)
	b, okB := y.(map[string]any)
	return okA && okB && equalMembers(a, b, eq, "")
}

// equalMembers reports whether a and b have the same members (but skip)
// and eq holds for each pair.
func equalMembers(a, b map[string]any, eq func(k string, x, y any) bool, skip string) bool {
	n := 0
	for k, x := range a {
		if k == skip {
			continue
		}
		y, ok := b[k]
		if !ok || !eq(k, x, y) {
			return false
		}
		n++
	}
	for k := range b {
		if k != skip {
			n--
		}
	}
	return n == 0
}

// equalMap compares objects member by member with eq.
func equalMap(x, y any, eq func(x, y any) bool) bool {
	return equalMembersOf(x, y, func(_ string, x, y any) bool { return eq(x, y) })
}

// equalList compares arrays element by element with eq.
func equalList(x, y any, eq func(x, y any) bool) bool {
	a, okA := x.([]any)
	b, okB := y.([]any)
	if !okA || !okB {
		return equalValue(x, y)
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return false
		}
	}
	return true
}

// equalText compares texts: strings, or lists of strings joined.
func equalText(x, y any) bool {
	s, okS := textOf(x)
	t, okT := textOf(y)
	if okS && okT {
		return s == t
	}
	return equalValue(x, y)
}

func textOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		return lines.Join(x)
	}
	return "", false
}

// equalValue compares generic JSON values, any of them json.RawMessage.
func equalValue(x, y any) bool {
	rx, okX := x.(json.RawMessage)
	ry, okY := y.(json.RawMessage)
	if okX && okY && bytes.Equal(rx, ry) {
		return true
	}
	var err error
	if okX {
		if x, err = nbformat.Decode(rx); err != nil {
			return false
		}
	}
	if okY {
		if y, err = nbformat.Decode(ry); err != nil {
			return false
		}
	}
	if a, ok := jsonvalue.Object(x); ok {
		b, ok := jsonvalue.Object(y)
		return ok && equalMembers(a, b, func(_ string, x, y any) bool { return equalValue(x, y) }, "")
	}
	if a, ok := x.([]any); ok {
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalValue(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return jsonvalue.Equal(x, y)
}
