package nbformat

// The reflective writer this package used before the generated codec
// (codec_gen.go and codec_*.go) replaced it, kept as the oracle of the
// differential tests (codec_diff_test.go, attack_snap*_test.go): it walks
// reflect.Values described by typeinfo_oracle_test.go.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// value writes v, whose original is node o (or -1), on a line indented by
// ind.
func (e *encoder) value(v reflect.Value, ti *typeInfo, o int, ind string) {
	if o >= 0 && e.equal(v, ti, o) {
		e.buf = append(e.buf, e.t.Raw(o)...)
		return
	}
	if e.t == nil {
		o = -1
	}
	if o >= 0 && e.t.Lazy(o) && readsChildren(ti.kind) {
		// A changed value whose original is lazy: keep the original's
		// layout all the same.
		x, restore, ok := e.expandOrig(o)
		if ok {
			defer restore()
			o = x
		} else {
			o = -1
		}
	}
	switch ti.kind {
	case kString, kInt, kUint, kFloat, kBool, kNumber:
		e.scalar(v, ti.kind)
	case kRaw:
		e.rawJSON(v.Bytes(), ind)
	case kPtr:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.value(v.Elem(), ti.elem, o, ind)
	case kAny:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		if x, xi, ok := e.dynamic(v); ok {
			e.value(x, xi, o, ind)
		}
	case kSlice, kMap:
		if !e.cycles.Enter(v) {
			err := cycleError(v, "")
			e.fail(err)
			e.buf = append(e.buf, "null"...)
			return
		}
		if ti.kind == kSlice {
			e.slice(v, ti, o, ind)
		} else {
			e.mapValue(v, ti, o, ind)
		}
		e.cycles.Leave(v)
	case kStruct:
		e.structValue(v, ti.plan, o, ind)
	case kMultiline:
		e.multiline(mustAssert[MultilineString](v), o, ind, true)
	case kBundle:
		e.bundle(mustAssert[MimeBundle](v), o, ind)
	case kCell, kOutput:
		e.variant(v, ti, o, ind)
	default:
		e.fail(fmt.Errorf("nbformat: cannot write a %s", ti.typ))
		e.buf = append(e.buf, "null"...)
	}
}

// scalar writes a string, number or boolean.
func (e *encoder) scalar(v reflect.Value, k kind) {
	switch k {
	case kString:
		e.str(v.String())
	case kInt:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case kUint:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case kFloat:
		e.buf = jsontree.AppendPythonFloat(e.buf, v.Float())
	case kBool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case kNumber:
		s := v.String()
		if !json.Valid([]byte(s)) && s != "NaN" && s != "Infinity" && s != "-Infinity" {
			e.fail(fmt.Errorf("nbformat: invalid json.Number %q", s))
		}
		e.buf = append(e.buf, s...)
	}
}

// variant writes a Cell or an Output: an unknown one as its bytes, a
// typed one as its struct.
func (e *encoder) variant(v reflect.Value, ti *typeInfo, o int, ind string) {
	if v.IsNil() || v.Elem().IsNil() {
		e.fail(fmt.Errorf("nbformat: nil %s in a notebook", strings.ToLower(ti.typ.Name())))
		e.buf = append(e.buf, "null"...)
		return
	}
	switch x := v.Interface().(type) {
	case *UnknownCell:
		e.rawJSON(x.Raw, ind)
		return
	case *UnknownOutput:
		e.rawJSON(x.Raw, ind)
		return
	}
	el := v.Elem().Elem()
	defer e.leave(e.enter(v.Interface()))
	e.structValue(el, infoOf(el.Type()).plan, o, ind)
}

func (e *encoder) structValue(v reflect.Value, plan *structPlan, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	var extra map[string]any
	if plan.extra >= 0 {
		extra = v.Field(plan.extra).Interface().(map[string]any)
	}
	var ms []member
	used := map[string]bool{}
	anyWriter := func(x any) func(int, string) {
		return func(j int, ind string) { e.value(reflect.ValueOf(&x).Elem(), infoOf(anyType), j, ind) }
	}
	if hasOrig {
		for _, j := range t.UniqueMembers(o) {
			key := t.KeyString(j)
			used[key] = true
			if x, ok := extra[key]; ok && !shadowed(v, plan, key) {
				ms = append(ms, member{key: key, orig: j, write: anyWriter(x)})
				continue
			}
			if fi, ok := plan.byName[key]; ok {
				f := &plan.fields[fi]
				if fv, present := e.field(v, f, true, true); present {
					ms = append(ms, member{key: key, orig: j, write: func(j int, ind string) { e.value(fv, f.ti, j, ind) }})
				}
			}
		}
	}
	var added []member
	for i := range plan.fields {
		f := &plan.fields[i]
		if used[f.name] {
			continue
		}
		if _, inExtra := extra[f.name]; inExtra && !shadowed(v, plan, f.name) {
			continue
		}
		if fv, present := e.field(v, f, hasOrig, false); present {
			added = append(added, member{key: f.name, orig: -1, write: func(j int, ind string) { e.value(fv, f.ti, j, ind) }})
		}
	}
	for k, x := range extra {
		if !used[k] && !shadowed(v, plan, k) {
			added = append(added, member{key: k, orig: -1, write: anyWriter(x)})
		}
	}
	e.object(o, ind, e.place(ms, added, codecIDOf(v.Type())), hasOrig)
}

func (e *encoder) mapValue(v reflect.Value, ti *typeInfo, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	var ms []member
	used := map[string]bool{}
	if hasOrig {
		for _, j := range t.UniqueMembers(o) {
			key := t.KeyString(j)
			mv := v.MapIndex(reflect.ValueOf(key).Convert(ti.typ.Key()))
			if !mv.IsValid() {
				continue
			}
			used[key] = true
			ms = append(ms, member{key: key, orig: j, write: func(j int, ind string) { e.value(mv, ti.elem, j, ind) }})
		}
	}
	var added []member
	iter := v.MapRange()
	for iter.Next() {
		key := iter.Key().String()
		if used[key] {
			continue
		}
		mv := iter.Value()
		added = append(added, member{key: key, orig: -1, write: func(j int, ind string) { e.value(mv, ti.elem, j, ind) }})
	}
	e.object(o, ind, e.place(ms, added, -1), hasOrig)
}

// slice writes an array, keeping the original's layout and matching each
// element to its original: cells and outputs by identity (then cells by
// id), everything else by position.
func (e *encoder) slice(v reflect.Value, ti *typeInfo, o int, ind string) {
	n := v.Len()
	hasOrig := o >= 0 && e.t.Nodes[o].Kind == jsontree.Array
	var kids []int
	if hasOrig {
		kids = e.t.ChildList(o)
	}
	var origs []int
	if e.src != nil && (ti.elem.kind == kCell || ti.elem.kind == kOutput) {
		origs = e.matchOriginals(v, ti.elem.kind == kCell && hasOrig, kids)
	} else {
		origs = make([]int, n)
		for i := range origs {
			origs[i] = -1
			if i < len(kids) {
				origs[i] = kids[i]
			}
		}
	}
	elem := func(i int, ind string) { e.value(v.Index(i), ti.elem, origs[i], ind) }
	e.array(o, ind, n, hasOrig, elem)
}

// ours reports whether t is (a pointer to) a type of this package, which
// the encoder writes natively.
func ours(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == pkgPath
}

var pkgPath = reflect.TypeFor[Notebook]().PkgPath()

// shadowed reports whether the kept value AdditionalProperties[key] (a
// member whose JSON did not fit its field) is replaced by the field, which
// was set since: a field holding its zero value leaves the kept value in
// place.
func shadowed(v reflect.Value, plan *structPlan, key string) bool {
	fi, ok := plan.byName[key]
	return ok && !v.Field(plan.fields[fi].index).IsZero()
}

// codecIDOf returns the id of the codec of the generated struct typ, or -1.
func codecIDOf(typ reflect.Type) int {
	for _, c := range structCodecs {
		if c.name == typ.Name() && typ.PkgPath() == pkgPath {
			return c.id
		}
	}
	return -1
}

// matchOriginals finds the original (a node of the tape, or -1) of each
// cell or output of v, whose original array has the elements kids: the
// value it was read as, else (cells, byID) the cell of the same id, else
// the element at the same place if it has the same type. No original is
// claimed twice.
func (e *encoder) matchOriginals(v reflect.Value, byID bool, kids []int) []int {
	n := v.Len()
	origs := make([]int, n)
	claimed := map[int]bool{}
	claim := func(i, k int) {
		origs[i] = k
		claimed[k] = true
	}
	for i := range n {
		origs[i] = -1
		j, ok := originIn(e.src, v.Index(i).Interface())
		if ok && !claimed[j] {
			claim(i, j)
		}
	}
	if byID {
		e.matchByID(v, kids, origs, claimed, claim)
	}
	// Positional fallback, for values rebuilt without identity or id
	// (only onto an original of the same type, whose layout fits).
	for i := 0; i < n && i < len(kids); i++ {
		if origs[i] < 0 && !claimed[kids[i]] && sameType(e.t, kids[i], v.Index(i).Interface()) {
			claim(i, kids[i])
		}
	}
	return origs
}

// matchByID gives cells without an original the original cell of their id.
func (e *encoder) matchByID(v reflect.Value, kids, origs []int, claimed map[int]bool, claim func(i, k int)) {
	t := e.t
	byID := map[string]int{}
	for _, k := range kids {
		if t.Nodes[k].Kind == jsontree.Object {
			if id := t.Lookup(k, "id"); id >= 0 && t.Nodes[id].Kind == jsontree.String {
				byID[t.Str(id)] = k
			}
		}
	}
	for i := range origs {
		if origs[i] >= 0 {
			continue
		}
		c, _ := v.Index(i).Interface().(Cell)
		if id := string(CellIDOf(c)); id != "" {
			if k, ok := byID[id]; ok && !claimed[k] {
				claim(i, k)
			}
		}
	}
}

// fills reports whether the struct v is one whose missing required members
// are written (see fillMissing).
func (e *encoder) fills(v reflect.Value) bool {
	if len(e.filledStructs) == 0 || !v.CanAddr() {
		return false
	}
	x, ok := v.Addr().Interface().(codecStruct)
	return ok && e.filledStructs[x]
}

// encode hands to emit the bytes the encoder builds for nb, built in
// memory or edited (without a nil cell or output).
func (nb *Notebook) encodeReflect(emit func(pieces ...[]byte) error) (err error) {
	e := nb.newEncoder()
	v := reflect.ValueOf(&nb.Document).Elem()
	defer func() {
		if err != nil {
			err = cycleAt(err, v.Addr().Interface()) // the place of a cycle, looked for only now
		}
	}()
	ti := infoOf(v.Type())
	if nb.src == nil {
		e.value(v, ti, -1, "")
		e.buf = append(e.buf, '\n')
		return e.emit(emit)
	}
	t := nb.src.tape
	root := &t.Nodes[jsontree.Root]
	lead := t.Data[:root.Start]
	if nb.dropBOM && t.BOM {
		lead = lead[3:]
	}
	e.st = nb.src.styleOf()
	e.buf = make([]byte, 0, len(t.Data)+len(t.Data)/8)
	e.buf = append(e.buf, lead...)
	e.value(v, ti, jsontree.Root, "")
	e.buf = append(e.buf, t.Data[root.End:]...)
	return e.emit(emit)
}

func reflectDocument(nb *Notebook) reflect.Value { return reflect.ValueOf(&nb.Document).Elem() }
