package convert

import (
	"encoding/json"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbmap"
)

// Cell metadata as generic JSON, read cheaply, and copied for snapshots.

// metaMap returns a cell's metadata (a pointer to a generated metadata
// struct) as a generic object, as nbmap.ToMap does, but as a copy of the
// values the struct holds, converting none, when the typed members set
// hold scalars (collapsed, name, scrolled, …) and the keys the schema does
// not type hold values ToMap returns as they are (numbers that are ints or
// float64, strings, booleans, null, arrays and objects as
// json.RawMessage), as most cells' metadata does: a copy of those keys
// and the typed scalars (see nbmap.MetaMap).
//
// same is, when no typed member is set, the cell's own map of the other
// keys, which holds what the map returned holds and which no one changes
// (a notebook's values are replaced, never changed in place: see
// nbformat.Heal), so that a snapshot of the metadata can share it rather
// than copy it; nil otherwise.
func metaMap(md any) (meta, same map[string]any, err error) {
	meta, same, _, err = metaMapFast(md)
	return meta, same, err
}

// metaMapFast is metaMap, fast reporting whether nbmap.MetaMap read md
// (its values shared), and not ToMap.
func metaMapFast(md any) (meta, same map[string]any, fast bool, err error) {
	if meta, same, ok := nbmap.MetaMap(md); ok {
		return meta, same, true, nil
	}
	meta, err = nbmap.ToMap(md)
	return meta, nil, false, err
}

// cloneMeta copies metadata for a snapshot: objects and arrays are copied,
// everything else is shared (json.RawMessage values are never modified,
// only replaced: see dialog.Dialog.Meta). Empty objects become nil, which
// compares equal to them.
func cloneMeta(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = cloneShared(v)
	}
	return c
}

// cloneObject copies an object as cloneShared does (nil for nil).
func cloneObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return cloneShared(m).(map[string]any)
}

// cloneShared copies v for a snapshot: objects and arrays are copied,
// everything else is shared, json.RawMessage included (see cloneMeta).
func cloneShared(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = cloneShared(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = cloneShared(x)
		}
		return c
	case nil, bool, string, int, float64, json.Number, json.RawMessage:
		return v
	}
	return jsonvalue.Clone(v)
}
