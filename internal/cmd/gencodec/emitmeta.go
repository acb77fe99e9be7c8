package main

// The -map output's metadata views: a generated metadata struct read as
// generic JSON sharing its values (meta<S>), and a generic object compared
// with the struct (equal<S>), for the structs metaPlan reads.

import "fmt"

// metaKind is how the metadata views handle a field.
type metaKind int

const (
	mOther     metaKind = iota // optional, only ToMap converts it: the view refuses it set
	mAny                       // optional any: kept when a scalar or raw JSON (keptValue)
	mBool                      // *bool
	mString                    // *string
	mInt                       // *int
	mFloat                     // *float64
	mStruct                    // a pointer to a struct with views of its own
	mReqString                 // a required string: always in the object
)

// metaPlan returns the kinds of s's fields, or ok false when s has no
// views: a cell or output (it holds provenance), or a field neither a
// required string nor optional and nillable (a pointer, slice, map or
// empty interface).
func metaPlan(s *gstruct) (kinds []metaKind, ok bool) {
	return metaPlanIn(s, nil)
}

// metaPlanIn is metaPlan of s inside the structs outer (whose plans are
// being made: a pointer to one of them is mOther there).
func metaPlanIn(s *gstruct, outer []*gstruct) ([]metaKind, bool) {
	if s.variant {
		return nil, false
	}
	outer = append(outer, s)
	kinds := make([]metaKind, len(s.fields))
	for i, f := range s.fields {
		t := f.typ
		if !f.optional {
			if t.kind != kString || t.named != "" {
				return nil, false
			}
			kinds[i] = mReqString
			continue
		}
		switch t.kind {
		case kAny:
			kinds[i] = mAny
		case kPtr:
			e := t.elem
			switch {
			case e.named != "":
			case e.kind == kBool:
				kinds[i] = mBool
			case e.kind == kString:
				kinds[i] = mString
			case e.kind == kInt:
				kinds[i] = mInt
			case e.kind == kFloat:
				kinds[i] = mFloat
			case e.kind == kStruct && !inStructs(outer, e.st):
				if _, ok := metaPlanIn(e.st, outer); ok {
					kinds[i] = mStruct
				}
			}
		case kSlice, kMap:
		default:
			return nil, false
		}
	}
	return kinds, true
}

func inStructs(list []*gstruct, s *gstruct) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// metaStructs returns the structs with views, and their fields' kinds.
func (g *mapGen) metaStructs() ([]*gstruct, map[*gstruct][]metaKind) {
	var list []*gstruct
	kinds := map[*gstruct][]metaKind{}
	for _, s := range g.m.structs {
		if k, ok := metaPlan(s); ok {
			list = append(list, s)
			kinds[s] = k
		}
	}
	return list, kinds
}

// metaViews writes the dispatch and the views of every struct with a plan.
func (g *mapGen) metaViews() {
	list, kinds := g.metaStructs()
	g.p("// metaOf is MetaMap of v, a pointer to a metadata struct; ok is false")
	g.p("// for any other v and where the view does not read it (see reads<S>).")
	g.p("func metaOf(v any) (m, same map[string]any, ok bool) {")
	g.p("\tswitch x := v.(type) {")
	for _, s := range list {
		g.p("\tcase *nbformat.%s:", s.name)
		g.p("\t\tif x != nil {")
		g.p("\t\t\treturn meta%s(x)", s.name)
		g.p("\t\t}")
	}
	g.p("\t}")
	g.p("\treturn nil, nil, false")
	g.p("}")
	g.p("")
	g.p("// equalOf is MetaEqual of m and v.")
	g.p("func equalOf(m map[string]any, v any) (same, ok bool) {")
	g.p("\tswitch x := v.(type) {")
	for _, s := range list {
		g.p("\tcase *nbformat.%s:", s.name)
		g.p("\t\tif x != nil && reads%s(x) {", s.name)
		g.p("\t\t\treturn equal%s(m, x), true", s.name)
		g.p("\t\t}")
	}
	g.p("\t}")
	g.p("\treturn false, false")
	g.p("}")
	g.p("")
	for _, s := range list {
		g.metaView(s, kinds[s])
		g.readsView(s, kinds[s])
		g.equalView(s, kinds[s])
	}
}

// metaView writes meta<S>: x as generic JSON, its values shared.
func (g *mapGen) metaView(s *gstruct, kinds []metaKind) {
	x := g.m.extra
	g.p("func meta%s(x *nbformat.%s) (m, same map[string]any, ok bool) {", s.name, s.name)
	g.p("\ttyped := 0")
	for i, f := range s.fields {
		v := "x." + f.goName
		switch kinds[i] {
		case mReqString:
			g.p("\ttyped++")
		case mOther:
			g.p("\tif %s != nil {", v)
			g.p("\t\treturn nil, nil, false")
			g.p("\t}")
		case mAny:
			g.p("\tif %s != nil {", v)
			g.p("\t\tif !keptValue(%s) {", v)
			g.p("\t\t\treturn nil, nil, false")
			g.p("\t\t}")
			g.p("\t\ttyped++")
			g.p("\t}")
		default:
			g.p("\tif %s != nil {", v)
			g.p("\t\ttyped++")
			g.p("\t}")
		}
	}
	g.p("\tif !keptValues(x.%s) {", x)
	g.p("\t\treturn nil, nil, false")
	g.p("\t}")
	g.p("\tif typed == 0 {")
	g.p("\t\treturn extraCopy(x.%s), x.%s, true", x, x)
	g.p("\t}")
	g.p("\tout := make(map[string]any, len(x.%s)+typed)", x)
	g.p("\tfor k, v := range x.%s {", x)
	g.p("\t\tout[k] = v")
	g.p("\t}")
	for i, f := range s.fields {
		v := "x." + f.goName
		switch kinds[i] {
		case mReqString:
			g.p("\tsetRequired(out, %q, %s)", f.key, v)
		case mAny:
			g.p("\tif %s != nil {", v)
			g.p("\t\tout[%q] = %s", f.key, v)
			g.p("\t}")
		case mBool, mString, mInt, mFloat:
			g.p("\tif %s != nil {", v)
			g.p("\t\tout[%q] = *%s", f.key, v)
			g.p("\t}")
		case mStruct:
			g.p("\tif %s != nil {", v)
			g.p("\t\tsub, _, ok := meta%s(%s)", f.typ.elem.st.name, v)
			g.p("\t\tif !ok {")
			g.p("\t\t\treturn nil, nil, false")
			g.p("\t\t}")
			g.p("\t\tout[%q] = sub", f.key)
			g.p("\t}")
		}
	}
	g.p("\treturn out, nil, true")
	g.p("}")
	g.p("")
}

// readsView writes reads<S>: whether meta<S> reads x.
func (g *mapGen) readsView(s *gstruct, kinds []metaKind) {
	g.p("func reads%s(x *nbformat.%s) bool {", s.name, s.name)
	for i, f := range s.fields {
		v := "x." + f.goName
		switch kinds[i] {
		case mOther:
			g.p("\tif %s != nil {", v)
			g.p("\t\treturn false")
			g.p("\t}")
		case mAny:
			g.p("\tif %s != nil && !keptValue(%s) {", v, v)
			g.p("\t\treturn false")
			g.p("\t}")
		case mStruct:
			g.p("\tif %s != nil && !reads%s(%s) {", v, f.typ.elem.st.name, v)
			g.p("\t\treturn false")
			g.p("\t}")
		}
	}
	g.p("\treturn keptValues(x.%s)", g.m.extra)
	g.p("}")
	g.p("")
}

// equalView writes equal<S>: whether m equals meta<S>'s object of x (which
// reads<S> reads), as jsonvalue.Equal compares them.
func (g *mapGen) equalView(s *gstruct, kinds []metaKind) {
	x := g.m.extra
	g.p("func equal%s(m map[string]any, x *nbformat.%s) bool {", s.name, s.name)
	g.p("\textra := x.%s", x)
	g.p("\tn, shadowed := len(extra), 0 // the object's keys; extra keys a typed member shadows")
	count := func(key, indent string) {
		g.p("%sif _, in := extra[%q]; in {", indent, key)
		g.p("%s\tshadowed++", indent)
		g.p("%s} else {", indent)
		g.p("%s\tn++", indent)
		g.p("%s}", indent)
	}
	for i, f := range s.fields {
		v := "x." + f.goName
		if kinds[i] == mReqString {
			g.p("\tif _, in := extra[%q]; %s != \"\" || !in {", f.key, v)
			g.p("\t\tif got, has := m[%q]; !has || !sameString(got, %s) {", f.key, v)
			g.p("\t\t\treturn false")
			g.p("\t\t}")
			count(f.key, "\t\t")
			g.p("\t}")
			continue
		}
		g.p("\tif %s != nil {", v)
		var eq string
		switch kinds[i] {
		case mOther:
			g.p("\t\treturn false // (not read: see reads%s)", s.name)
			g.p("\t}")
			continue
		case mAny:
			eq = fmt.Sprintf("sameValue(got, %s)", v)
		case mBool:
			eq = fmt.Sprintf("sameBool(got, *%s)", v)
		case mString:
			eq = fmt.Sprintf("sameString(got, *%s)", v)
		case mInt:
			eq = fmt.Sprintf("sameInt(got, *%s)", v)
		case mFloat:
			eq = fmt.Sprintf("sameFloat(got, *%s)", v)
		case mStruct:
			eq = fmt.Sprintf("isObj && equal%s(obj, %s)", f.typ.elem.st.name, v)
		}
		g.p("\t\tgot, has := m[%q]", f.key)
		if kinds[i] == mStruct {
			g.p("\t\tobj, isObj := jsonObject(got)")
		}
		g.p("\t\tif !has || !(%s) {", eq)
		g.p("\t\t\treturn false")
		g.p("\t\t}")
		count(f.key, "\t\t")
		g.p("\t}")
	}
	g.p("\tif len(m) != n {")
	g.p("\t\treturn false")
	g.p("\t}")
	g.p("\tfor k, v := range extra {")
	if len(s.fields) > 0 {
		g.p("\t\tif shadowed > 0 {")
		g.p("\t\t\tswitch k {")
		for i, f := range s.fields {
			g.p("\t\t\tcase %q:", f.key)
			if kinds[i] == mReqString {
				g.p("\t\t\t\tif x.%s != \"\" {", f.goName)
			} else {
				g.p("\t\t\t\tif x.%s != nil {", f.goName)
			}
			g.p("\t\t\t\t\tcontinue // shadowed by the field")
			g.p("\t\t\t\t}")
		}
		g.p("\t\t\t}")
		g.p("\t\t}")
	}
	g.p("\t\tif got, has := m[k]; !has || !sameValue(got, v) {")
	g.p("\t\t\treturn false")
	g.p("\t\t}")
	g.p("\t}")
	g.p("\treturn true")
	g.p("}")
	g.p("")
}
