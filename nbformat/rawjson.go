package nbformat

// Raw JSON and tape values written in the file's style; encodeCompact for
// values in memory.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// Writing generic JSON text: raw JSON in a file's style, and compact JSON.

// rawJSON writes JSON text in the file's style.
func (e *encoder) rawJSON(raw []byte, ind string) {
	if e.st.Compact() && e.st.Comma == "" && e.st.Colon == ":" && !e.st.Sorted && e.st.Esc == (jsontree.Escaping{}) {
		// Compact output (Encode, FromMap): the text without its spaces,
		// checked without recording its values.
		if _, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: defaultMaxDepth}, nil); err != nil {
			e.fail(fmt.Errorf("nbformat: invalid raw JSON: %w", err))
			e.buf = append(e.buf, "null"...)
			return
		}
		e.buf = jsontree.AppendCompact(e.buf, raw)
		return
	}
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: defaultMaxDepth})
	if err != nil {
		e.fail(fmt.Errorf("nbformat: invalid raw JSON: %w", err))
		e.buf = append(e.buf, "null"...)
		return
	}
	e.tapeValue(t, jsontree.Root, ind)
}

// tapeValue writes node j of another tape in the file's style.
func (e *encoder) tapeValue(t *jsontree.Tape, j int, ind string) {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.String:
		e.token(t.Raw(j))
	case jsontree.Array:
		kids := t.ChildList(j)
		e.array(-1, ind, len(kids), false, func(i int, ind string) { e.tapeValue(t, kids[i], ind) })
	case jsontree.Object:
		var ms []member
		for _, k := range t.UniqueMembers(j) {
			k := k
			ms = append(ms, member{key: t.KeyString(k), orig: -1, write: func(_ int, ind string) { e.tapeValue(t, k, ind) }})
		}
		if e.st.Sorted {
			slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
		}
		e.object(-1, ind, ms, false)
	default:
		e.buf = append(e.buf, t.Raw(j)...)
	}
}

// encodeCompact writes v (any Go value the encoder handles) as compact JSON.
// Generic JSON values (the values Decode returns: the upgrade of version 3
// notebooks goes through it, their worksheets' cells being generic JSON)
// are written by jsonvalue.AppendCompact, without reflection; others by
// encAny (generic_compact_internal_test.go pins the two together, and
// compact_diff_test.go internal/nbjson, the same writer outside).
func encodeCompact(v any) ([]byte, error) {
	if out, ok := jsonvalue.AppendCompact(nil, v); ok {
		return out, nil
	}
	e := encoder{st: &nbstyle.Style{Colon: ":"}}
	encAny(&e, v, -1, "")
	if e.err != nil {
		return nil, cycleAt(e.err, &v)
	}
	return e.buf, nil
}
