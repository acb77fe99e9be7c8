package convert

import (
	"reflect"
	"testing"
)

// cellMeta knows every field of the cells' metadata types: their numbers
// of fields are those it was written for (else it is off, and this test
// says why), and each typed member but "collapsed" and "scrolled", set
// alone, sends the metadata to the plans (which read every member), so a
// member cellMeta would not copy is never left out of a message's Meta.
// (What it gives is checked against ToMap by TestMetaMapMatchesToMap.)
func TestCellMetaKnowsEveryField(t *testing.T) {
	if !directCellMeta {
		t.Fatalf("a cell metadata type has other fields than the %v cellMeta knows: teach it the new ones", cellMetaFields)
	}
	for _, typ := range []reflect.Type{codeMetaType, markdownMetaType, rawMetaType} {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Name == "AdditionalProperties" {
				continue
			}
			md := reflect.New(typ)
			fv := md.Elem().Field(i)
			switch fv.Kind() {
			case reflect.Pointer:
				fv.Set(reflect.New(fv.Type().Elem()))
			case reflect.Slice:
				fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
			case reflect.Interface:
				fv.Set(reflect.ValueOf(true))
			default:
				t.Fatalf("%s.%s: a field of kind %s", typ.Name(), f.Name, fv.Kind())
			}
			_, _, ok, known := cellMeta(md.Interface())
			if !known {
				t.Fatalf("%s: not read by cellMeta", typ.Name())
			}
			name := f.Tag.Get("json")
			if copied := name == "collapsed,omitempty,omitzero" || name == "scrolled,omitempty,omitzero"; ok != copied {
				t.Errorf("%s.%s set: cellMeta ok %v, want %v", typ.Name(), f.Name, ok, copied)
			}
		}
	}
}
