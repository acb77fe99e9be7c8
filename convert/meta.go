package convert

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Cell metadata as generic JSON, read cheaply, and copied for snapshots.

// metaMap returns a cell's metadata (a pointer to a generated metadata
// struct) as a generic object, as nbmap.ToMap does, but as a copy of the
// values the struct holds, converting none, when the typed members set
// hold scalars (collapsed, name, scrolled, …) and the keys the schema does
// not type hold values ToMap returns as they are (numbers that are ints or
// float64, strings, booleans, null, arrays and objects as
// json.RawMessage), as most cells' metadata does: a copy of those keys
// and the typed scalars (see metaPlan).
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

// metaMapFast is metaMap, fast reporting whether the plans read md
// (fastMeta's fast path), and not ToMap.
func metaMapFast(md any) (meta, same map[string]any, fast bool, err error) {
	if meta, same, ok := nbmap.MetaMap(md); ok {
		return meta, same, true, nil
	}
	meta, err = nbmap.ToMap(md)
	return meta, nil, false, err
}

// fastMeta is metaMap without ToMap: ok is false when md holds what only
// ToMap converts.
func fastMeta(md any) (meta, same map[string]any, ok bool) {
	if meta, same, ok, known := cellMeta(md); known && ok {
		return meta, same, true
	}
	if nm, isNB := md.(*nbformat.NotebookMetadata); isNB && nm != nil {
		if meta, same, ok := notebookMeta(nm); ok {
			return meta, same, true
		}
	}
	v := reflect.ValueOf(md)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, nil, false
	}
	v = v.Elem()
	p := planOf(v.Type())
	if p == nil {
		return nil, nil, false
	}
	return fastStruct(v, p)
}

// fastStruct is fastMeta of the struct v of plan p.
func fastStruct(v reflect.Value, p *metaPlan) (meta, same map[string]any, ok bool) {
	typed := 0 // typed members set, required ones included
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		switch f.kind {
		case metaReqString:
			typed++
			continue
		case metaOther:
			if fv.IsNil() {
				continue
			}
			return nil, nil, false
		}
		if fv.IsNil() {
			continue
		}
		if f.kind == metaAny && !keptValue(fv.Elem().Interface()) {
			return nil, nil, false
		}
		typed++
	}
	extra, _ := v.Field(p.extra).Interface().(map[string]any)
	if len(extra) == 0 && typed == 0 {
		// (Most cells: an empty object, without iterating over maps.)
		return make(map[string]any), extra, true
	}
	for _, x := range extra {
		if !keptValue(x) {
			return nil, nil, false
		}
	}
	out := make(map[string]any, len(extra)+typed)
	for k, x := range extra {
		out[k] = x
	}
	if typed == 0 {
		return out, extra, true
	}
	// A typed member set shadows an extra key of its name, as in ToMap; a
	// required member is always there, but an extra key of its name
	// (a value of another type, read from an invalid file) is not
	// shadowed while the member holds its zero value.
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		if f.kind == metaReqString {
			if s := fv.String(); s != "" {
				out[f.name] = s
			} else if _, ok := out[f.name]; !ok {
				out[f.name] = ""
			}
			continue
		}
		if fv.IsNil() {
			continue
		}
		e := fv.Elem()
		switch f.kind {
		case metaAny:
			out[f.name] = e.Interface()
		case metaBool:
			out[f.name] = e.Bool()
		case metaString:
			out[f.name] = e.String()
		case metaInt:
			out[f.name] = int(e.Int())
		case metaFloat:
			out[f.name] = e.Float()
		case metaStruct:
			m, _, ok := fastStruct(e, f.plan)
			if !ok {
				return nil, nil, false
			}
			out[f.name] = m
		}
	}
	return out, nil, true
}

// keptValue reports whether ToMap returns x, a value of a generated
// struct's AdditionalProperties or interface member, as it is.
func keptValue(x any) bool {
	switch x := x.(type) {
	case nil, bool, string, int, float64:
		return true
	case json.RawMessage:
		return x != nil // (ToMap gives null for a nil one)
	}
	return false
}

// metaPlan is how metaMap reads a generated metadata struct type: its
// AdditionalProperties field, and its other fields, each optional (left
// out of ToMap's object while nil) and of a kind metaMap converts, or
// metaOther, which it leaves to ToMap, or a required string (always in
// ToMap's object).
type metaPlan struct {
	extra  int
	fields []metaField
}

type metaField struct {
	index int
	name  string // the JSON member
	kind  metaKind
	plan  *metaPlan // metaStruct: the plan of the struct pointed to
}

type metaKind uint8

const (
	metaOther     metaKind = iota // a struct, slice or map: ToMap converts it
	metaAny                       // interface{}: kept when a scalar (keptValue)
	metaBool                      // *bool
	metaString                    // *string
	metaInt                       // *int
	metaFloat                     // *float64
	metaStruct                    // a pointer to a struct with a plan of its own
	metaReqString                 // string, required: always written
)

var metaPlans sync.Map // reflect.Type → *metaPlan (nil: no plan)

// The plans of the cells' and the notebook's metadata types, made once:
// planOf takes them without a lookup in metaPlans.
var (
	codeMetaType     = reflect.TypeFor[nbformat.CodeCellMetadata]()
	markdownMetaType = reflect.TypeFor[nbformat.MarkdownCellMetadata]()
	rawMetaType      = reflect.TypeFor[nbformat.RawCellMetadata]()
	notebookMetaType = reflect.TypeFor[nbformat.NotebookMetadata]()
	codeMetaPlan     = makeMetaPlan(codeMetaType)
	markdownMetaPlan = makeMetaPlan(markdownMetaType)
	rawMetaPlan      = makeMetaPlan(rawMetaType)
	notebookMetaPlan = makeMetaPlan(notebookMetaType)
)

// planOf returns the plan of a struct type (nil: none, ToMap converts
// its values).
func planOf(t reflect.Type) *metaPlan {
	switch t {
	case codeMetaType:
		return codeMetaPlan
	case markdownMetaType:
		return markdownMetaPlan
	case rawMetaType:
		return rawMetaPlan
	case notebookMetaType:
		return notebookMetaPlan
	}
	if p, ok := metaPlans.Load(t); ok {
		return p.(*metaPlan)
	}
	p := makeMetaPlan(t)
	metaPlans.Store(t, p)
	return p
}

// makeMetaPlan makes the plan of a struct type: nil unless it has an
// AdditionalProperties map[string]any and every other field is a
// pointer, slice, map or interface written only when not nil (a json tag
// with a name and omitempty), or a required string (a json tag with a
// name, without omitempty), as the generated metadata structs are. A
// pointer to a struct that has a plan is read with that plan (Kernelspec
// and LanguageInfo in the notebook's metadata).
func makeMetaPlan(t reflect.Type) *metaPlan { return makeMetaPlanIn(t, nil) }

// makeMetaPlanIn is makeMetaPlan of t inside the struct types outer
// (whose plans are being made: a type holding a pointer to one of them
// is left to ToMap there, so that making a plan ends).
func makeMetaPlanIn(t reflect.Type, outer []reflect.Type) *metaPlan {
	if t.Kind() != reflect.Struct {
		return nil
	}
	outer = append(outer, t)
	p := &metaPlan{extra: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Name == "AdditionalProperties" {
			if f.Type != reflect.TypeFor[map[string]any]() {
				return nil
			}
			p.extra = i
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			return nil
		}
		mf := metaField{index: i, name: name}
		if !strings.Contains(","+opts+",", ",omitempty,") {
			if f.Type != reflect.TypeFor[string]() {
				return nil
			}
			mf.kind = metaReqString
			p.fields = append(p.fields, mf)
			continue
		}
		switch f.Type.Kind() {
		case reflect.Interface:
			if f.Type.NumMethod() != 0 {
				return nil
			}
			mf.kind = metaAny
		case reflect.Pointer:
			switch e := f.Type.Elem(); {
			case e == reflect.TypeFor[bool]():
				mf.kind = metaBool
			case e == reflect.TypeFor[string]():
				mf.kind = metaString
			case e == reflect.TypeFor[int]():
				mf.kind = metaInt
			case e == reflect.TypeFor[float64]():
				mf.kind = metaFloat
			case e.Kind() == reflect.Struct && !slices.Contains(outer, e):
				if sub := makeMetaPlanIn(e, outer); sub != nil {
					mf.kind, mf.plan = metaStruct, sub
				}
			}
		case reflect.Slice, reflect.Map:
		default:
			return nil
		}
		p.fields = append(p.fields, mf)
	}
	if p.extra < 0 {
		return nil
	}
	return p
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
