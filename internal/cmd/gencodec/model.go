package main

// The generator's model of schema_gen.go: its structs, their fields and the Go
// types of the fields.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// kind is how the codec handles a Go type.
type kind int

const (
	kString    kind = iota // string, or a named type of it
	kInt                   // int
	kFloat                 // float64
	kBool                  // bool
	kAny                   // interface{} / any: generic JSON
	kMultiline             // MultilineString
	kBundle                // MimeBundle
	kCell                  // Cell
	kOutput                // Output
	kStruct                // a generated struct
	kPtr                   // *T
	kSlice                 // []T
	kMap                   // map[string]T
)

// gtype is a Go type a generated struct's field has.
type gtype struct {
	kind  kind
	named string // the named type (CellID, a generated slice type), or ""
	elem  *gtype // kPtr, kSlice, kMap
	st    *gstruct
}

// spell returns the Go spelling of t.
func (t *gtype) spell() string {
	if t.named != "" {
		return t.named
	}
	switch t.kind {
	case kString:
		return "string"
	case kInt:
		return "int"
	case kFloat:
		return "float64"
	case kBool:
		return "bool"
	case kAny:
		return "any"
	case kMultiline:
		return "MultilineString"
	case kBundle:
		return "MimeBundle"
	case kCell:
		return "Cell"
	case kOutput:
		return "Output"
	case kStruct:
		return t.st.name
	case kPtr:
		return "*" + t.elem.spell()
	case kSlice:
		return "[]" + t.elem.spell()
	case kMap:
		return "map[string]" + t.elem.spell()
	}
	panic("unknown kind")
}

// mangle returns a name fragment for t, unique among the types of the
// file: []Author → SliceAuthor, *Kernelspec → PtrKernelspec.
func (t *gtype) mangle() string {
	if t.named != "" {
		return t.named
	}
	switch t.kind {
	case kPtr:
		return "Ptr" + t.elem.mangle()
	case kSlice:
		return "Slice" + t.elem.mangle()
	case kMap:
		return "Map" + t.elem.mangle()
	}
	s := t.spell()
	return strings.ToUpper(s[:1]) + s[1:]
}

// nillable reports whether the zero value of t is nil.
func (t *gtype) nillable() bool {
	switch t.kind {
	case kAny, kCell, kOutput, kPtr, kSlice, kMap:
		return true
	}
	return false
}

// readsChildren reports whether comparing or writing a value of t against
// an original reads the original's children (a lazy original is expanded
// first).
func (t *gtype) readsChildren() bool {
	switch t.kind {
	case kSlice, kMap, kStruct, kBundle, kCell, kOutput:
		return true
	}
	return false
}

// gfield is a field of a generated struct.
type gfield struct {
	goName   string
	key      string // JSON member name
	optional bool   // omitempty: absent when nil or zero
	typ      *gtype
	typeTag  bool // cell_type / output_type: the variant's type when empty
	cellID   bool // a cell's id: not written when empty before nbformat 4.5
}

// gstruct is a generated struct.
type gstruct struct {
	name    string
	id      int
	fields  []*gfield
	variant bool // a cell or output (has a type tag): carries provenance
}

// model is what the generator knows of schema_gen.go.
type model struct {
	structs []*gstruct
	byName  map[string]*gstruct
	named   map[string]ast.Expr // other named types declared in the file
	extra   string              // the field keeping unnamed members
	state   string              // the unexported provenance field of variants ("" if none)
	test    bool                // test structs: no tables over all structs, no ids
	beside  map[string]bool     // helpers the package's own codec writes (with -test: not written again)
}

// handwritten names the types of package nbformat the generated structs
// use that schema_gen.go does not declare (see internal/cmd/flatten).
var handwritten = map[string]*gtype{
	"CellType":        {kind: kString, named: "CellType"},
	"OutputType":      {kind: kString, named: "OutputType"},
	"MultilineString": {kind: kMultiline},
	"MimeBundle":      {kind: kBundle},
	"Cell":            {kind: kCell},
	"Output":          {kind: kOutput},
}

// load reads the generated structs of the Go file src.
func load(name string, src []byte, extra, state string) (*model, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	m := &model{byName: map[string]*gstruct{}, named: map[string]ast.Expr{}, extra: extra, state: state}
	specs := map[string]*ast.StructType{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				specs[ts.Name.Name] = st
				gs := &gstruct{name: ts.Name.Name}
				m.structs = append(m.structs, gs)
				m.byName[gs.name] = gs
			} else {
				m.named[ts.Name.Name] = ts.Type
			}
		}
	}
	sort.Slice(m.structs, func(i, j int) bool { return m.structs[i].name < m.structs[j].name })
	for i, gs := range m.structs {
		gs.id = i
		if err := m.fields(gs, specs[gs.name], fset); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// fields fills gs.fields from the struct's declaration.
func (m *model) fields(gs *gstruct, st *ast.StructType, fset *token.FileSet) error {
	sawExtra := false
	for _, f := range st.Fields.List {
		if len(f.Names) != 1 {
			return fmt.Errorf("%s: a field of %s without one name", fset.Position(f.Pos()), gs.name)
		}
		name := f.Names[0].Name
		if name == m.extra {
			sawExtra = true
			continue
		}
		if !ast.IsExported(name) {
			if name == strings.Split(m.state, ":")[0] {
				continue // the provenance field retag adds
			}
			return fmt.Errorf("%s: unexpected unexported field %s.%s", fset.Position(f.Pos()), gs.name, name)
		}
		var tag string
		if f.Tag != nil {
			s, err := strconv.Unquote(f.Tag.Value)
			if err != nil {
				return err
			}
			tag = reflect.StructTag(s).Get("json")
		}
		key, opts, _ := strings.Cut(tag, ",")
		if key == "" || key == "-" {
			return fmt.Errorf("%s: field %s.%s has no json name", fset.Position(f.Pos()), gs.name, name)
		}
		t, err := m.typeOf(f.Type)
		if err != nil {
			return fmt.Errorf("%s: %s.%s: %w", fset.Position(f.Pos()), gs.name, name, err)
		}
		gf := &gfield{goName: name, key: key, typ: t, optional: strings.Contains(","+opts+",", ",omitempty,")}
		gf.typeTag = key == "cell_type" || key == "output_type"
		gs.variant = gs.variant || gf.typeTag
		gs.fields = append(gs.fields, gf)
	}
	if !sawExtra {
		return fmt.Errorf("struct %s has no %s field", gs.name, m.extra)
	}
	for _, f := range gs.fields {
		f.cellID = f.key == "id" && hasKey(gs, "cell_type")
	}
	return nil
}

func hasKey(gs *gstruct, key string) bool {
	for _, f := range gs.fields {
		if f.key == key {
			return true
		}
	}
	return false
}

// typeOf resolves a field's type expression.
func (m *model) typeOf(e ast.Expr) (*gtype, error) {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return &gtype{kind: kString}, nil
		case "int":
			return &gtype{kind: kInt}, nil
		case "float64":
			return &gtype{kind: kFloat}, nil
		case "bool":
			return &gtype{kind: kBool}, nil
		case "any":
			return &gtype{kind: kAny}, nil
		}
		if t, ok := handwritten[e.Name]; ok {
			c := *t
			return &c, nil
		}
		if gs, ok := m.byName[e.Name]; ok {
			return &gtype{kind: kStruct, st: gs}, nil
		}
		if u, ok := m.named[e.Name]; ok {
			t, err := m.typeOf(u)
			if err != nil {
				return nil, err
			}
			if t.named != "" || t.kind == kStruct || t.kind == kAny {
				return nil, fmt.Errorf("named type %s of %s is not supported", e.Name, t.spell())
			}
			c := *t
			c.named = e.Name
			return &c, nil
		}
		return nil, fmt.Errorf("unknown type %s", e.Name)
	case *ast.StarExpr:
		el, err := m.typeOf(e.X)
		if err != nil {
			return nil, err
		}
		switch el.kind {
		case kString, kInt, kFloat, kBool, kStruct:
			if el.named != "" && el.kind != kStruct {
				return nil, fmt.Errorf("pointer to named %s is not supported", el.named)
			}
			return &gtype{kind: kPtr, elem: el}, nil
		}
		return nil, fmt.Errorf("pointer to %s is not supported", el.spell())
	case *ast.ArrayType:
		if e.Len != nil {
			return nil, fmt.Errorf("arrays are not supported")
		}
		el, err := m.typeOf(e.Elt)
		if err != nil {
			return nil, err
		}
		return &gtype{kind: kSlice, elem: el}, nil
	case *ast.MapType:
		if k, ok := e.Key.(*ast.Ident); !ok || k.Name != "string" {
			return nil, fmt.Errorf("map keys other than string are not supported")
		}
		el, err := m.typeOf(e.Value)
		if err != nil {
			return nil, err
		}
		return &gtype{kind: kMap, elem: el}, nil
	case *ast.InterfaceType:
		if e.Methods != nil && len(e.Methods.List) > 0 {
			return nil, fmt.Errorf("non-empty interfaces are not supported")
		}
		return &gtype{kind: kAny}, nil
	}
	return nil, fmt.Errorf("unsupported type expression %T", e)
}
