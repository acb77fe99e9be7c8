package convert

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/nbformat"
)

// Cell metadata as generic JSON, read cheaply, and copied for snapshots.

// metaMap returns a cell's metadata (a pointer to a generated metadata
// struct) as a generic object, as nbgeneric.ToMap does, but without
// reflection's conversion when only keys the schema does not type are set
// and they hold values ToMap returns as they are (numbers that are ints
// or float64, strings, booleans, null, arrays and objects as
// json.RawMessage), as most cells' metadata does: a copy of those keys.
//
// same is, in that case, the cell's own map of those keys, which holds
// what the map returned holds and which no one changes (a notebook's
// values are replaced, never changed in place: see nbformat.Heal), so
// that a snapshot of the metadata can share it rather than copy it; nil
// otherwise.
func metaMap(md any) (meta, same map[string]any, err error) {
	extra, ok := onlyExtra(md)
	if !ok {
		meta, err = nbgeneric.ToMap(md)
		return meta, nil, err
	}
	out := make(map[string]any, len(extra))
	for k, v := range extra {
		switch v.(type) {
		case nil, bool, string, int, float64, json.RawMessage:
			out[k] = v
		default:
			meta, err = nbgeneric.ToMap(md)
			return meta, nil, err
		}
	}
	return out, extra, nil
}

// onlyExtra returns the AdditionalProperties of the struct ptr points to
// when its other fields are all nil pointers, slices, maps or interfaces
// (optional members in the generated structs, written only when not nil,
// so that ToMap gives the extra keys alone); ok is false otherwise, and
// for a field of another kind.
func onlyExtra(ptr any) (extra map[string]any, ok bool) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	v = v.Elem()
	at := extraField(v.Type())
	for i := range v.NumField() {
		f := v.Field(i)
		if i == at {
			extra, ok = f.Interface().(map[string]any)
			if !ok {
				return nil, false
			}
			continue
		}
		switch f.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if !f.IsNil() {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return extra, true
}

var extraFields sync.Map // reflect.Type → int

// The AdditionalProperties fields of the cells' metadata types, found
// once: extraField takes them without a lookup in extraFields.
var (
	codeMetaType     = reflect.TypeFor[nbformat.CodeCellMetadata]()
	markdownMetaType = reflect.TypeFor[nbformat.MarkdownCellMetadata]()
	rawMetaType      = reflect.TypeFor[nbformat.RawCellMetadata]()
	codeMetaExtra    = findExtraField(codeMetaType)
	markdownExtra    = findExtraField(markdownMetaType)
	rawMetaExtra     = findExtraField(rawMetaType)
)

// extraField returns the index of a struct type's AdditionalProperties
// field, or -1 (looked up once per type: reflect's Field is slow).
func extraField(t reflect.Type) int {
	switch t {
	case codeMetaType:
		return codeMetaExtra
	case markdownMetaType:
		return markdownExtra
	case rawMetaType:
		return rawMetaExtra
	}
	if i, ok := extraFields.Load(t); ok {
		return i.(int)
	}
	at := findExtraField(t)
	extraFields.Store(t, at)
	return at
}

// findExtraField returns the index of a struct type's
// AdditionalProperties field, or -1.
func findExtraField(t reflect.Type) int {
	if f, ok := t.FieldByName("AdditionalProperties"); ok && len(f.Index) == 1 {
		return f.Index[0]
	}
	return -1
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
