package convert

import (
	"math"
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Metadata compared with the typed metadata it was read from: a snapshot
// of a message's or a dialog's metadata can be the typed metadata itself
// (which no one changes: see metaMap), rather than a deep copy of the map
// made from it, when the plans read it (fastMeta's fast path).

// sameAsTyped reports whether m equals (as jsonvalue.Equal compares them,
// m's values first) the object metaMap gives for md, a pointer to a
// generated metadata struct, without making it: ok is false when
// fastMeta's plans do not read md (metaMap gives ToMap's object), and the
// caller must compare with that object.
func sameAsTyped(m map[string]any, md any) (same, ok bool) {
	return nbmap.MetaEqual(m, md)
}

// sameAsTypedByPlans is sameAsTyped by the reflective plans.
func sameAsTypedByPlans(m map[string]any, md any) (same, ok bool) {
	v := reflect.ValueOf(md)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false, false
	}
	if nm, isNB := md.(*nbformat.NotebookMetadata); isNB && notebookMetaReads(nm) {
		return sameNotebookMeta(m, nm), true
	}
	v = v.Elem()
	p := planOf(v.Type())
	if p == nil || !planReads(v, p) {
		return false, false
	}
	return planEqual(m, v, p), true
}

// planReads reports whether fastStruct reads v (of plan p) itself: every
// typed member set is one it converts, every extra value one ToMap keeps.
func planReads(v reflect.Value, p *metaPlan) bool {
	for i := range p.fields {
		f := &p.fields[i]
		if f.kind == metaReqString {
			continue
		}
		fv := v.Field(f.index)
		if fv.IsNil() {
			continue
		}
		switch f.kind {
		case metaOther:
			return false
		case metaAny:
			if !keptValue(fv.Elem().Interface()) {
				return false
			}
		case metaStruct:
			if !planReads(fv.Elem(), f.plan) {
				return false
			}
		}
	}
	extra, _ := v.Field(p.extra).Interface().(map[string]any)
	for _, x := range extra {
		if !keptValue(x) {
			return false
		}
	}
	return true
}

// planEqual reports whether m equals fastStruct's object of v (of plan p,
// which reads it: planReads): the extra keys, but those a typed member
// shadows, and the typed members set (a required string always, unless
// it is empty and an extra key has its name), each compared as
// jsonvalue.Equal compares the value fastStruct gives it, and no other key.
func planEqual(m map[string]any, v reflect.Value, p *metaPlan) bool {
	extra, _ := v.Field(p.extra).Interface().(map[string]any)
	n := len(extra) // the keys of fastStruct's object
	shadowed := 0   // extra keys a typed member shadows
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		var eq bool
		if f.kind == metaReqString {
			s := fv.String()
			if s == "" && len(extra) > 0 {
				if _, inExtra := extra[f.name]; inExtra {
					continue // the extra key's value stands
				}
			}
			got, has := m[f.name]
			y, isString := got.(string)
			eq = has && (isString && y == s || !isString && sameString(got, s))
		} else {
			if fv.IsNil() {
				continue
			}
			got, has := m[f.name]
			eq = has && typedEqual(got, fv.Elem(), f)
		}
		if !eq {
			return false
		}
		if _, inExtra := extra[f.name]; inExtra && len(extra) > 0 {
			shadowed++
		} else {
			n++
		}
	}
	if len(m) != n {
		return false
	}
	for k, x := range extra {
		if shadowed > 0 && p.shadows(v, k) {
			continue
		}
		got, has := m[k]
		if !has || !sameValue(got, x) {
			return false
		}
	}
	return true
}

// typedEqual reports whether got equals the value fastStruct gives the
// typed member e (of field f, set), as jsonvalue.Equal(got, that) does.
func typedEqual(got any, e reflect.Value, f *metaField) bool {
	switch f.kind {
	case metaAny:
		return sameValue(got, e.Interface())
	case metaBool:
		if y, ok := got.(bool); ok {
			return y == e.Bool()
		}
		return jsonvalue.Equal(got, e.Bool())
	case metaString:
		if y, ok := got.(string); ok {
			return y == e.String()
		}
		return jsonvalue.Equal(got, e.String())
	case metaInt:
		if y, ok := got.(int); ok {
			return y == int(e.Int())
		}
		return jsonvalue.Equal(got, int(e.Int()))
	case metaFloat:
		x := e.Float()
		if y, ok := got.(float64); ok {
			return y == x || math.IsNaN(x) && math.IsNaN(y)
		}
		return jsonvalue.Equal(got, x)
	case metaStruct:
		obj, ok := jsonvalue.Object(got)
		return ok && planEqual(obj, e, f.plan)
	}
	return false
}

// shadows reports whether a typed member of v (of plan p) set shadows the
// extra key k: its name is k and fastStruct writes it over the extra
// value (a required string only when not empty).
func (p *metaPlan) shadows(v reflect.Value, k string) bool {
	for i := range p.fields {
		f := &p.fields[i]
		if f.name != k {
			continue
		}
		fv := v.Field(f.index)
		if f.kind == metaReqString {
			return fv.String() != ""
		}
		return !fv.IsNil()
	}
	return false
}

// sameMeta reports whether meta is the dialog's metadata as read (as
// jsonvalue.Equal compares them).
func (org *origin) sameMeta(meta map[string]any) bool {
	if org.metaTyped {
		// (MetaMap read it when it was read, and it has not changed.)
		if same, ok := nbmap.MetaEqual(meta, &org.work.Metadata); ok {
			return same
		}
	}
	return jsonvalue.Equal(meta, org.metaAsRead())
}

// metaAsRead returns the dialog's metadata as read: the copy kept, or one
// made anew from the notebook's (metaTyped), which the caller may keep.
func (org *origin) metaAsRead() map[string]any {
	if !org.metaTyped {
		return org.meta
	}
	meta, _, err := metaMap(&org.work.Metadata)
	if err != nil {
		return nil // (read once without error: never)
	}
	return meta
}
