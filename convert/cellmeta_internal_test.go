package convert

import (
	"reflect"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
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

// notebookMeta knows every field of NotebookMetadata, Kernelspec and
// LanguageInfo: their numbers of fields are those it was written for,
// and each member set alone (with the others of a Kernelspec or
// LanguageInfo empty) gives what ToMap gives, by notebookMeta itself but
// for authors, which ToMap converts.
// (The corpus notebooks' metadata is checked by
// TestNotebookMetaMapMatchesToMap.)
func TestNotebookMetaKnowsEveryField(t *testing.T) {
	if !directNotebookMeta {
		t.Fatalf("a notebook metadata type has other fields than the %v notebookMeta knows: teach it the new ones", nbMetaFields)
	}
	set := func(fv reflect.Value) {
		switch fv.Kind() {
		case reflect.Pointer:
			fv.Set(reflect.New(fv.Type().Elem()))
			if e := fv.Elem(); e.Kind() == reflect.String {
				e.SetString("v")
			}
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
		case reflect.Interface:
			fv.Set(reflect.ValueOf("mode"))
		case reflect.String:
			fv.SetString("s")
		case reflect.Map:
			fv.Set(reflect.ValueOf(map[string]any{"name": 1, "x": "y"}))
		default:
			t.Fatalf("a field of kind %s", fv.Kind())
		}
	}
	for i := range notebookMetaType.NumField() {
		md := reflect.New(notebookMetaType)
		set(md.Elem().Field(i))
		name := notebookMetaType.Field(i).Name
		if _, _, ok := notebookMeta(md.Interface().(*nbformat.NotebookMetadata)); ok == (name == "Authors") {
			t.Errorf("NotebookMetadata.%s set: notebookMeta ok %v", name, ok)
		}
		checkMetaMap(t, "NotebookMetadata."+name, md.Interface())
	}
	for _, inner := range []struct {
		typ   reflect.Type
		field string
	}{{kernelspecType, "Kernelspec"}, {languageInfoType, "LanguageInfo"}} {
		for i := range inner.typ.NumField() {
			md := reflect.New(notebookMetaType)
			p := md.Elem().FieldByName(inner.field)
			p.Set(reflect.New(inner.typ))
			set(p.Elem().Field(i))
			name := inner.field + "." + inner.typ.Field(i).Name
			if _, _, ok := notebookMeta(md.Interface().(*nbformat.NotebookMetadata)); !ok {
				t.Errorf("%s set: not read by notebookMeta", name)
			}
			checkMetaMap(t, name, md.Interface())
		}
	}
}
