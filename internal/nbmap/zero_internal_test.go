package nbmap

import (
	"reflect"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// The generated zero tests of structs held as values agree with
// reflect.Value.IsZero (the oracle) on the zero value and on each field,
// and the unnamed members, made non-zero alone; MultilineString.IsZero
// agrees on texts made and read.
func TestZeroTestsAgreeWithReflect(t *testing.T) {
	check := func(name string, x any, zero func() bool) {
		t.Helper()
		if got, want := zero(), reflect.ValueOf(x).Elem().IsZero(); got != want {
			t.Errorf("%s: zero %v, reflect.Value.IsZero %v", name, got, want)
		}
	}
	for _, c := range []struct {
		name string
		new  func() (any, func() bool)
	}{
		{"CodeCellMetadata", func() (any, func() bool) {
			x := &nbformat.CodeCellMetadata{}
			return x, func() bool { return zeroCodeCellMetadata(x) }
		}},
		{"MarkdownCellMetadata", func() (any, func() bool) {
			x := &nbformat.MarkdownCellMetadata{}
			return x, func() bool { return zeroMarkdownCellMetadata(x) }
		}},
		{"RawCellMetadata", func() (any, func() bool) {
			x := &nbformat.RawCellMetadata{}
			return x, func() bool { return zeroRawCellMetadata(x) }
		}},
		{"NotebookMetadata", func() (any, func() bool) {
			x := &nbformat.NotebookMetadata{}
			return x, func() bool { return zeroNotebookMetadata(x) }
		}},
	} {
		x, zero := c.new()
		check(c.name+" zero", x, zero)
		n := reflect.TypeOf(x).Elem().NumField()
		for i := range n {
			x, zero := c.new()
			f := reflect.ValueOf(x).Elem().Field(i)
			if !f.CanSet() {
				continue // unexported
			}
			switch f.Kind() {
			case reflect.Pointer:
				f.Set(reflect.New(f.Type().Elem()))
			case reflect.Slice:
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			case reflect.Map:
				f.Set(reflect.MakeMap(f.Type()))
			case reflect.String:
				f.SetString("x")
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Int, reflect.Int64:
				f.SetInt(1)
			case reflect.Float64:
				f.SetFloat(1)
			case reflect.Interface:
				f.Set(reflect.ValueOf(0))
			default:
				t.Fatalf("%s.%s: no non-zero value for a %s", c.name, reflect.TypeOf(x).Elem().Field(i).Name, f.Type())
			}
			check(c.name+"."+reflect.TypeOf(x).Elem().Field(i).Name, x, zero)
		}
	}
	read := func(src string) nbformat.MultilineString {
		nb, err := nbformat.Unmarshal([]byte(`{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ` + src + `}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`))
		if err != nil {
			t.Fatal(err)
		}
		return nb.Cells[0].(*nbformat.MarkdownCell).Source
	}
	set := read(`"a"`)
	set.Set("")
	for name, m := range map[string]nbformat.MultilineString{
		"zero": {}, `Text("")`: nbformat.Text(""), `Text("a")`: nbformat.Text("a"),
		`read ""`: read(`""`), "read []": read(`[]`), `read ["a"]`: read(`["a"]`), `read "a", Set("")`: set,
	} {
		check("MultilineString "+name, &m, m.IsZero)
	}
}
