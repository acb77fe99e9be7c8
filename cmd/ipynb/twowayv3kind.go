package main

import (
	"encoding/json"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// The version 3 members of theirs' cell that a kind conflict of a
// two-way version 3 merge records: the upgrade the merge works on drops a
// code cell's language and a heading's level, so that the merged cell,
// which keeps ours' kind, would hold theirs' nowhere. A record of each
// (pointer "/language", "/level"; theirs' value as its file holds it)
// joins the cell's kind record, as a three-way version 3 merge writes it.

// v3KindMembers are the version 3 members that go with a cell's kind.
var v3KindMembers = []string{"language", "level"}

// theirsV3Cells returns a version 3 notebook text's cells, those of every
// worksheet in order, as generic objects (nil if it has none readable).
func theirsV3Cells(data []byte) []map[string]any {
	v, err := jsonvalue.Decode(data)
	if err != nil {
		return nil
	}
	wss, _ := jsonvalue.At(v, []string{"worksheets"})
	var cells []map[string]any
	ws, _ := wss.([]any)
	for _, w := range ws {
		cs, _ := jsonvalue.At(w, []string{"cells"})
		l, _ := cs.([]any)
		for _, c := range l {
			m, _ := c.(map[string]any)
			cells = append(cells, m)
		}
	}
	return cells
}

// recordTheirsV3Kind adds to merged cell c's conflict records, where it
// has a kind record, one of each version 3 member theirs' cell tc has
// (see v3KindMembers) and no record names.
func recordTheirsV3Kind(c nbformat.Cell, tc map[string]any) {
	var extra *map[string]any
	switch x := c.(type) {
	case *nbformat.CodeCell:
		extra = &x.Metadata.AdditionalProperties
	case *nbformat.MarkdownCell:
		extra = &x.Metadata.AdditionalProperties
	case *nbformat.RawCell:
		extra = &x.Metadata.AdditionalProperties
	default:
		return
	}
	var list []any
	switch v := (*extra)[convert.ConflictsKey].(type) {
	case json.RawMessage:
		d, err := jsonvalue.Decode(v)
		if err != nil {
			return
		}
		list, _ = d.([]any)
	case []any:
		list = v
	}
	named := map[string]bool{}
	for _, r := range list {
		if p, ok := jsonvalue.At(r, []string{"pointer"}); ok {
			if s, ok := p.(string); ok {
				named[s] = true
			}
		}
	}
	if !named["/cell_type"] {
		return
	}
	grown := false
	for _, k := range v3KindMembers {
		v, ok := tc[k]
		if !ok || named["/"+k] || k == "language" && c.Type() == nbformat.CellTypeCode {
			continue
		}
		list = append(list, map[string]any{"pointer": "/" + k, "what": "kind", "theirs": v})
		grown = true
	}
	if grown {
		(*extra)[convert.ConflictsKey] = list
	}
}
