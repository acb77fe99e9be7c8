package draft04

// The decoding of a schema document into generic JSON, over a jsontree
// parse (a fraction of encoding/json's cost, paid by every process that
// validates).

import (
	"encoding/json"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// decodeSchema decodes data as encoding/json with UseNumber does: objects
// as map[string]any (the last of a repeated key wins), arrays as []any,
// numbers as json.Number. NaN and infinities are not JSON and are refused.
func decodeSchema(data []byte) (any, error) {
	t, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		return nil, err
	}
	return decodeNode(t, jsontree.Root)
}

func decodeNode(t *jsontree.Tape, i int) (any, error) {
	n := &t.Nodes[i]
	switch n.Kind {
	case jsontree.Null:
		return nil, nil
	case jsontree.False:
		return false, nil
	case jsontree.True:
		return true, nil
	case jsontree.Number:
		if n.Flags&jsontree.FlagNonFinite != 0 {
			return nil, fmt.Errorf("%s at offset %d is not a JSON number", t.Raw(i), n.Start)
		}
		return json.Number(t.Raw(i)), nil
	case jsontree.String:
		return t.Str(i), nil
	case jsontree.Array:
		list := make([]any, 0, n.Len)
		var err error
		t.Children(i, func(j int) bool {
			var v any
			v, err = decodeNode(t, j)
			list = append(list, v)
			return err == nil
		})
		return list, err
	default:
		m := make(map[string]any, n.Len)
		var err error
		t.Children(i, func(j int) bool {
			var v any
			v, err = decodeNode(t, j)
			m[t.KeyString(j)] = v
			return err == nil
		})
		return m, err
	}
}
