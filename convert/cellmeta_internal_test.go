package convert

// Every typed member of the metadata types read as ToMap reads it.

import (
	"reflect"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Each typed member of the cells' and the notebook's metadata types (and
// of the structs they point to), set alone, gives what ToMap gives, by
// nbmap.MetaMap itself (values shared) unless the member is a list or a
// map, which only ToMap converts; so a member the schema adds is never left out of a
// message's Meta.
func TestMetaMapEveryMember(t *testing.T) {
	t.Parallel()
	// set sets fv to a value of its type and reports whether MetaMap
	// shares it (all but lists and maps).
	set := func(fv reflect.Value) bool {
		switch fv.Kind() {
		case reflect.Pointer:
			fv.Set(reflect.New(fv.Type().Elem()))
			if e := fv.Elem(); e.Kind() == reflect.String {
				e.SetString("v")
			}
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
			return false
		case reflect.Interface:
			fv.Set(reflect.ValueOf("mode"))
		case reflect.String:
			fv.SetString("s")
		case reflect.Map:
			fv.Set(reflect.MakeMapWithSize(fv.Type(), 0))
			return false
		default:
			t.Fatalf("a field of kind %s", fv.Kind())
		}
		return true
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[nbformat.CodeCellMetadata](), reflect.TypeFor[nbformat.MarkdownCellMetadata](),
		reflect.TypeFor[nbformat.RawCellMetadata](), reflect.TypeFor[nbformat.NotebookMetadata]()} {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Name == "AdditionalProperties" {
				continue
			}
			md := reflect.New(typ)
			fv := md.Elem().Field(i)
			shared := set(fv)
			where := typ.Name() + "." + f.Name
			if fast := checkMetaMap(t, where, md.Interface()); fast != shared {
				t.Errorf("%s set: MetaMap reads it %v, want %v", where, fast, shared)
			}
			if fv.Kind() != reflect.Pointer || fv.Elem().Kind() != reflect.Struct {
				continue
			}
			inner := fv.Elem()
			for j := range inner.NumField() {
				if inner.Type().Field(j).Name == "AdditionalProperties" {
					continue
				}
				md := reflect.New(typ)
				p := md.Elem().Field(i)
				p.Set(reflect.New(inner.Type()))
				shared := set(p.Elem().Field(j))
				where := where + "." + inner.Type().Field(j).Name
				if fast := checkMetaMap(t, where, md.Interface()); fast != shared {
					t.Errorf("%s set: MetaMap reads it %v, want %v", where, fast, shared)
				}
			}
		}
	}
}
