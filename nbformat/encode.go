package nbformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// encoder writes typed values back as JSON. Every value is written next to
// its original (a node of the tape it was read from, or -1): a value equal
// to its original is copied byte for byte, and a changed object or array
// keeps the original's layout (whitespace, separators, member order), so an
// edit changes only the bytes of what was edited. New content is written
// in the file's detected style.
type encoder struct {
	buf []byte
	t   *jsontree.Tape // nil for a notebook built in memory
	src *source
	st  *style
	ids bool // write empty cell ids (nbformat 4.5 and later)
	// decoded says whether the struct being written was decoded from the
	// original it is compared with (then a required member the original
	// lacks stays out while it is zero); complete turns that off for the
	// whole notebook (see Heal).
	decoded  bool
	complete bool
	err      error
	scratch  []byte
}

func (e *encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// ---- equality with the original ----

// equal reports whether v (of type ti) would be written as JSON equal to
// node o.
func (e *encoder) equal(v reflect.Value, ti *typeInfo, o int) bool {
	if o < 0 || e.t == nil {
		return false
	}
	if e.t.Lazy(o) && readsChildren(ti.kind) {
		x, restore, ok := e.expandOrig(o)
		if !ok {
			return false
		}
		defer restore()
		o = x
	}
	t := e.t
	n := &t.Nodes[o]
	switch ti.kind {
	case kString:
		return t.StrIs(o, v.String())
	case kInt:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
			return false
		}
		i, err := strconv.ParseInt(string(t.Raw(o)), 10, 64)
		return err == nil && i == v.Int() // "-0" equals 0
	case kUint:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
			return false
		}
		i, err := strconv.ParseUint(strings.TrimPrefix(string(t.Raw(o)), "-"), 10, 64)
		return err == nil && i == v.Uint() && (i == 0 || t.Raw(o)[0] != '-')
	case kFloat:
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt != 0 {
			return false
		}
		f, _ := numberValue(t.Raw(o), n.Flags).(float64)
		g := v.Float()
		return f == g && math.Signbit(f) == math.Signbit(g) || math.IsNaN(f) && math.IsNaN(g)
	case kBool:
		return (n.Kind == jsontree.True && v.Bool()) || (n.Kind == jsontree.False && !v.Bool())
	case kNumber:
		return n.Kind == jsontree.Number && v.String() == string(t.Raw(o))
	case kRaw:
		raw := v.Bytes()
		return sameBytes(raw, t.Raw(o)) || jsonEqual(raw, t.Raw(o))
	case kPtr:
		if v.IsNil() {
			return n.Kind == jsontree.Null
		}
		return e.equal(v.Elem(), ti.elem, o)
	case kAny:
		if v.IsNil() {
			return n.Kind == jsontree.Null
		}
		x, xi, ok := e.dynamic(v)
		return ok && e.equal(x, xi, o)
	case kSlice:
		if n.Kind != jsontree.Array || int(n.Len) != v.Len() {
			return false
		}
		eq := true
		i := 0
		t.Children(o, func(k int) bool {
			eq = e.equal(v.Index(i), ti.elem, k)
			i++
			return eq
		})
		return eq
	case kMap:
		if n.Kind != jsontree.Object {
			return false
		}
		ms := uniqueMembers(t, o)
		if len(ms) != v.Len() {
			return false
		}
		for _, j := range ms {
			mv := v.MapIndex(reflect.ValueOf(t.KeyString(j)).Convert(ti.typ.Key()))
			if !mv.IsValid() || !e.equal(mv, ti.elem, j) {
				return false
			}
		}
		return true
	case kStruct:
		return e.equalStruct(v, ti.plan, o)
	case kMultiline:
		return e.equalMultiline(v.Interface().(MultilineString), o)
	case kBundle:
		return e.equalBundle(v.Interface().(MimeBundle), o)
	case kCell, kOutput:
		if v.IsNil() {
			return false
		}
		switch x := v.Interface().(type) {
		case *UnknownCell:
			return jsonEqual(x.Raw, t.Raw(o))
		case *UnknownOutput:
			return jsonEqual(x.Raw, t.Raw(o))
		}
		el := v.Elem().Elem()
		if n.Kind != jsontree.Object {
			return false
		}
		defer e.enter(v.Interface())()
		return e.equalStruct(el, infoOf(el.Type()).plan, o)
	}
	return false
}

// readsChildren reports whether comparing or writing a value of kind k
// against an original reads the original's children.
func readsChildren(k kind) bool {
	switch k {
	case kSlice, kMap, kStruct, kBundle, kCell, kOutput:
		return true // (MultilineString reads the bytes of lines)
	}
	return false
}

// expandOrig makes the expansion of lazy node o the original (its root,
// node 0, standing for o) until restore is called. Inside it there are no
// cells or outputs of the source to match.
func (e *encoder) expandOrig(o int) (x int, restore func(), ok bool) {
	sub, err := e.t.Expand(o)
	if err != nil {
		return -1, nil, false
	}
	savedT, savedSrc := e.t, e.src
	e.t, e.src = sub, nil
	return 0, func() { e.t, e.src = savedT, savedSrc }, true
}

// enter notes whether the cell or output x was decoded from the file, for
// the values inside it; the returned function restores the previous state.
func (e *encoder) enter(x any) func() {
	saved := e.decoded
	ok := false
	if e.src != nil {
		switch x := x.(type) {
		case Cell:
			_, ok = e.src.cells[x]
		case Output:
			_, ok = e.src.outputs[x]
		}
	}
	e.decoded = ok
	return func() { e.decoded = saved }
}

// field returns the value to write for struct field f and whether it is
// written at all. origHas says whether the original object has the key
// (hasOrig whether there is an original object).
func (e *encoder) field(v reflect.Value, f *fieldInfo, hasOrig, origHas bool) (reflect.Value, bool) {
	fv := v.Field(f.index)
	if f.typeTag && fv.String() == "" && v.CanAddr() {
		if c, ok := v.Addr().Interface().(interface{ Type() string }); ok {
			return reflect.ValueOf(c.Type()), true
		}
	}
	switch fv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		if f.optional {
			return fv, !fv.IsNil()
		}
	}
	if f.optional {
		return fv, !fv.IsZero()
	}
	// Required: always written, except that a required member missing from
	// an invalid file stays missing while it holds its zero value (in
	// values decoded from that file), and an empty cell id is not written
	// before nbformat 4.5.
	if fv.IsZero() {
		if hasOrig && e.decoded && !e.complete {
			return fv, origHas
		}
		if f.name == "id" && !e.ids && v.CanAddr() {
			if _, isCell := v.Addr().Interface().(Cell); isCell {
				return fv, false
			}
		}
	}
	return fv, true
}

func (e *encoder) equalStruct(v reflect.Value, plan *structPlan, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	var extra map[string]any
	if plan.extra >= 0 {
		extra = v.Field(plan.extra).Interface().(map[string]any)
	}
	matched := 0
	var has uint64 // fields whose key the original has (generated structs have few fields)
	for _, j := range uniqueMembers(t, o) {
		n := &t.Nodes[j]
		var x any
		var inExtra bool
		var fi int
		var isField bool
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			kb := t.Data[n.Key+1 : n.KeyEnd-1]
			x, inExtra = extra[string(kb)]
			fi, isField = plan.byName[string(kb)]
		} else {
			key := t.KeyString(j)
			x, inExtra = extra[key]
			fi, isField = plan.byName[key]
		}
		if isField && fi < 64 {
			has |= 1 << fi
		}
		if inExtra && isField && !v.Field(plan.fields[fi].index).IsZero() {
			inExtra = false // the field was set: it replaces the kept value
		}
		if inExtra {
			if !e.equal(reflect.ValueOf(&x).Elem(), infoOf(anyType), j) {
				return false
			}
			matched++
			continue
		}
		if !isField {
			return false
		}
		fv, present := e.field(v, &plan.fields[fi], true, true)
		if !present || !e.equal(fv, plan.fields[fi].ti, j) {
			return false
		}
		matched++
	}
	// Nothing new may be written.
	count := 0
	for k := range extra {
		if !shadowed(v, plan, k) {
			count++
		}
	}
	for i := range plan.fields {
		f := &plan.fields[i]
		if _, inExtra := extra[f.name]; inExtra && !shadowed(v, plan, f.name) {
			continue
		}
		origHas := i < 64 && has&(1<<i) != 0
		if i >= 64 {
			origHas = t.Lookup(o, f.name) >= 0
		}
		if _, present := e.field(v, f, true, origHas); present {
			count++
		}
	}
	return count == matched
}

func (e *encoder) equalMultiline(m MultilineString, o int) bool {
	t := e.t
	n := &t.Nodes[o]
	if n.Kind != jsontree.String && n.Kind != jsontree.Array {
		return false
	}
	raw := t.Raw(o)
	switch {
	case m.raw != nil:
		if sameBytes(m.raw, raw) || bytes.Equal(m.raw, raw) {
			return true
		}
		if (m.raw[0] == '"') != (n.Kind == jsontree.String) || !isMultiline(t, o) {
			return false
		}
		return slices.Equal(m.Lines(), multilineFromRaw(raw).Lines())
	case m.lines != nil:
		if n.Kind != jsontree.Array || !isMultiline(t, o) {
			return false
		}
		return slices.Equal(m.lines, multilineFromRaw(raw).Lines())
	}
	if !isMultiline(t, o) {
		return false
	}
	switch m.form {
	case formString:
		if n.Kind != jsontree.String {
			return false
		}
	case formLines:
		if n.Kind != jsontree.Array {
			return false
		}
	}
	if n.Kind == jsontree.String {
		return t.StrIs(o, m.text)
	}
	e.scratch = e.scratch[:0]
	jsontree.EachString(raw, func(s []byte) { e.scratch = jsontree.AppendUnescaped(e.scratch, s) })
	return string(e.scratch) == m.text
}

func (e *encoder) equalBundle(m MimeBundle, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	if m.b == nil {
		return t.Nodes[o].Len == 0
	}
	if !m.b.dirty && m.b.raw != nil && sameBytes(m.b.raw, t.Raw(o)) {
		return true
	}
	ms := uniqueMembers(t, o)
	if len(ms) != len(m.b.entries) {
		return false
	}
	for _, j := range ms {
		i := m.find(t.KeyString(j))
		if i < 0 || !e.equalEntry(&m.b.entries[i], j) {
			return false
		}
	}
	return true
}

func (e *encoder) equalEntry(en *mimeEntry, j int) bool {
	if en.isJSON {
		return jsonEqual(en.json, e.t.Raw(j))
	}
	return e.equalMultiline(en.text, j)
}

// sameBytes reports whether a and b are the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// jsonEqual reports whether two JSON texts hold equal values.
func jsonEqual(a, b []byte) bool {
	if bytes.Equal(a, b) || jsontree.EqualIgnoringSpace(a, b) {
		return true
	}
	x, err1 := Decode(a)
	y, err2 := Decode(b)
	return err1 == nil && err2 == nil && genericEqual(x, y)
}

func genericEqual(x, y any) bool {
	x, y = decodeRaw(x), decodeRaw(y)
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !genericEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !genericEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		f, ok := y.(float64)
		return ok && (x == f || math.IsNaN(x) && math.IsNaN(f))
	}
	return x == y
}

// uniqueMembers returns the members of object o, dropping any whose key
// occurs again later (the last one wins, as in Python).
func uniqueMembers(t *jsontree.Tape, o int) []int {
	ms := t.ChildList(o)
	if len(ms) < 2 {
		return ms
	}
	dup := false
	if len(ms) <= 16 {
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				if bytes.Equal(t.KeyRaw(ms[i]), t.KeyRaw(ms[j])) {
					dup = true
				}
			}
		}
		if !dup && !anyEscapedKey(t, ms) {
			return ms
		}
	}
	last := make(map[string]int, len(ms))
	for i, j := range ms {
		last[t.KeyString(j)] = i
	}
	if len(last) == len(ms) {
		return ms
	}
	out := ms[:0:0]
	for i, j := range ms {
		if last[t.KeyString(j)] == i {
			out = append(out, j)
		}
	}
	return out
}

func anyEscapedKey(t *jsontree.Tape, ms []int) bool {
	for _, j := range ms {
		if t.Nodes[j].Flags&jsontree.FlagKeyEscaped != 0 {
			return true
		}
	}
	return false
}

// dynamic returns the concrete value inside an interface, as a type the
// encoder writes natively; other Go types go through encoding/json.
func (e *encoder) dynamic(v reflect.Value) (reflect.Value, *typeInfo, bool) {
	x := v.Elem()
	switch x.Interface().(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number, json.RawMessage, map[string]any, []any, []string, map[string]string,
		MultilineString, MimeBundle:
		return x, infoOf(x.Type()), true
	}
	if ours(x.Type()) {
		return x, infoOf(x.Type()), true
	}
	g, err := toGeneric(x.Interface())
	if err != nil {
		e.fail(err)
		return x, nil, false
	}
	gv := reflect.ValueOf(&g).Elem()
	if g == nil {
		return gv, infoOf(anyType), true
	}
	return gv.Elem(), infoOf(gv.Elem().Type()), true
}

func toGeneric(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("nbformat: cannot write a %T: %w", v, err)
	}
	return Decode(b)
}

// ---- writing ----

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
	case kRaw:
		e.rawJSON(v.Bytes(), ind)
	case kNumber:
		s := v.String()
		if !json.Valid([]byte(s)) && s != "NaN" && s != "Infinity" && s != "-Infinity" {
			e.fail(fmt.Errorf("nbformat: invalid json.Number %q", s))
		}
		e.buf = append(e.buf, s...)
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
	case kSlice:
		e.slice(v, ti, o, ind)
	case kMap:
		e.mapValue(v, ti, o, ind)
	case kStruct:
		e.structValue(v, ti.plan, o, ind)
	case kMultiline:
		e.multiline(v.Interface().(MultilineString), o, ind, true)
	case kBundle:
		e.bundle(v.Interface().(MimeBundle), o, ind)
	case kCell, kOutput:
		if v.IsNil() {
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
		defer e.enter(v.Interface())()
		e.structValue(el, infoOf(el.Type()).plan, o, ind)
	default:
		e.fail(fmt.Errorf("nbformat: cannot write a %s", ti.typ))
		e.buf = append(e.buf, "null"...)
	}
}

func (e *encoder) str(s string) {
	var ok bool
	e.buf, ok = jsontree.AppendQuoted(e.buf, s, e.st.esc)
	if !ok {
		e.fail(fmt.Errorf("nbformat: string is not valid UTF-8: %.40q", s))
	}
}

// member is one member of an object being written.
type member struct {
	key   string
	orig  int // original member node, or -1
	write func(orig int, ind string)
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
		for _, j := range uniqueMembers(t, o) {
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
	e.object(o, ind, e.place(ms, added, v.Type()), hasOrig)
}

// place orders new members among the existing ones: at their sorted place
// in a sorted file, else appended in the order objects of this type have
// in the file (then sorted).
func (e *encoder) place(ms, added []member, typ reflect.Type) []member {
	if len(added) == 0 {
		return ms
	}
	slices.SortFunc(added, func(a, b member) int { return strings.Compare(a.key, b.key) })
	if !e.st.sorted && e.src != nil && typ != nil {
		if order, ok := e.src.order[typ]; ok {
			rank := func(k string) int {
				if i := slices.Index(order, k); i >= 0 {
					return i
				}
				return len(order)
			}
			slices.SortStableFunc(added, func(a, b member) int { return rank(a.key) - rank(b.key) })
		}
	}
	if !e.st.sorted || !slices.IsSortedFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) }) {
		return append(ms, added...)
	}
	out := make([]member, 0, len(ms)+len(added))
	i := 0
	for _, a := range added {
		for i < len(ms) && ms[i].key < a.key {
			out = append(out, ms[i])
			i++
		}
		out = append(out, a)
	}
	return append(out, ms[i:]...)
}

func (e *encoder) mapValue(v reflect.Value, ti *typeInfo, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	var ms []member
	used := map[string]bool{}
	if hasOrig {
		for _, j := range uniqueMembers(t, o) {
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
	e.object(o, ind, e.place(ms, added, nil), hasOrig)
}

func (e *encoder) bundle(m MimeBundle, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	var entries []mimeEntry
	if m.b != nil {
		entries = m.b.entries
	}
	write := func(en mimeEntry) func(int, string) {
		return func(j int, ind string) {
			if j >= 0 && e.equalEntry(&en, j) {
				e.buf = append(e.buf, t.Raw(j)...)
				return
			}
			if en.isJSON {
				e.rawJSON(en.json, ind)
				return
			}
			e.multiline(en.text, j, ind, splitsMime(en.mime))
		}
	}
	var ms []member
	used := map[string]bool{}
	if hasOrig {
		for _, j := range uniqueMembers(t, o) {
			key := t.KeyString(j)
			i := m.find(key)
			if i < 0 {
				continue
			}
			used[key] = true
			ms = append(ms, member{key: key, orig: j, write: write(entries[i])})
		}
	}
	var added []member
	for _, en := range entries {
		if !used[en.mime] {
			added = append(added, member{key: en.mime, orig: -1, write: write(en)})
		}
	}
	if e.st.sorted {
		e.object(o, ind, e.place(ms, added, nil), hasOrig)
	} else {
		e.object(o, ind, append(ms, added...), hasOrig)
	}
}

// splitsMime reports whether new text of this MIME type is stored as lines
// (Python nbformat splits text/*, application/javascript and
// image/svg+xml).
func splitsMime(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == "application/javascript" || mime == "image/svg+xml"
}

// object writes the members ms; with an original object o it keeps o's
// layout.
func (e *encoder) object(o int, ind string, ms []member, hasOrig bool) {
	t := e.t
	if hasOrig && t.Nodes[o].Len > 0 {
		kids := t.ChildList(o)
		data := t.Data
		first := kids[0]
		firstLead := data[t.Nodes[o].Start+1 : t.Nodes[first].Key]
		pos := make(map[int]int, len(kids)) // member node → its position
		for i, k := range kids {
			pos[k] = i
		}
		sepOf := func(j int) []byte { // separator before orig member j (not first)
			if i := pos[j]; i > 0 {
				return data[t.Nodes[kids[i-1]].End:t.Nodes[j].Key]
			}
			return nil
		}
		typical := []byte(nil)
		if len(kids) > 1 {
			typical = data[t.Nodes[kids[0]].End:t.Nodes[kids[1]].Key]
		} else {
			typical = append([]byte(","+e.commaSpace()), afterComma(firstLead)...)
		}
		colon := data[t.Nodes[first].KeyEnd:t.Nodes[first].Start]
		e.buf = append(e.buf, '{')
		for k, m := range ms {
			var lead []byte
			switch {
			case m.orig == first && k == 0:
				lead = firstLead
			case m.orig == first:
				lead = typical
			case m.orig >= 0 && k > 0:
				lead = sepOf(m.orig)
			case m.orig >= 0:
				lead = afterComma(sepOf(m.orig))
			case k == 0:
				lead = firstLead
			default:
				lead = typical
			}
			e.buf = append(e.buf, lead...)
			mind := lineIndent(lead, ind+e.st.indent)
			if m.orig >= 0 {
				e.buf = append(e.buf, data[t.Nodes[m.orig].Key:t.Nodes[m.orig].Start]...)
			} else {
				e.str(m.key)
				e.buf = append(e.buf, colon...)
			}
			m.write(m.orig, mind)
		}
		if len(ms) == 0 {
			e.buf = append(e.buf, '}')
			return
		}
		e.buf = append(e.buf, data[t.Nodes[kids[len(kids)-1]].End:t.Nodes[o].End]...)
		return
	}
	if len(ms) == 0 {
		e.buf = append(e.buf, "{}"...)
		return
	}
	e.buf = append(e.buf, '{')
	inner := ind + e.st.indent
	for k, m := range ms {
		if k > 0 {
			e.buf = append(e.buf, ',')
			if e.st.compact() {
				e.buf = append(e.buf, e.commaSpace()...)
			}
		}
		if !e.st.compact() {
			e.buf = append(e.buf, e.st.newline...)
			e.buf = append(e.buf, inner...)
		}
		e.str(m.key)
		e.buf = append(e.buf, e.st.colon...)
		m.write(m.orig, inner)
	}
	if !e.st.compact() {
		e.buf = append(e.buf, e.st.newline...)
		e.buf = append(e.buf, ind...)
	}
	e.buf = append(e.buf, '}')
}

func (e *encoder) commaSpace() string { return e.st.comma }

// afterComma returns what follows the first comma in a separator (the
// whole separator if it has none).
func afterComma(sep []byte) []byte {
	if i := bytes.IndexByte(sep, ','); i >= 0 {
		return sep[i+1:]
	}
	return sep
}

// lineIndent returns the indentation a separator leaves: what follows its
// last newline, or def when it has none.
func lineIndent(sep []byte, def string) string {
	if i := bytes.LastIndexByte(sep, '\n'); i >= 0 {
		return string(sep[i+1:])
	}
	return def
}

// slice writes an array, keeping the original's layout and matching each
// element to its original: cells and outputs by identity (then cells by
// id), everything else by position.
func (e *encoder) slice(v reflect.Value, ti *typeInfo, o int, ind string) {
	t := e.t
	n := v.Len()
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Array
	var kids []int
	if hasOrig {
		kids = t.ChildList(o)
	}
	origs := make([]int, n)
	for i := range origs {
		origs[i] = -1
	}
	if e.src != nil && (ti.elem.kind == kCell || ti.elem.kind == kOutput) {
		claimed := map[int]bool{}
		for i := 0; i < n; i++ {
			var j int32
			var ok bool
			switch x := v.Index(i).Interface().(type) {
			case Cell:
				j, ok = e.src.cells[x]
			case Output:
				j, ok = e.src.outputs[x]
			}
			if ok && !claimed[int(j)] {
				origs[i] = int(j)
				claimed[int(j)] = true
			}
		}
		if ti.elem.kind == kCell && hasOrig {
			byID := map[string]int{}
			for _, k := range kids {
				if t.Nodes[k].Kind == jsontree.Object {
					if id := t.Lookup(k, "id"); id >= 0 && t.Nodes[id].Kind == jsontree.String {
						byID[t.Str(id)] = k
					}
				}
			}
			for i := 0; i < n; i++ {
				if origs[i] >= 0 {
					continue
				}
				c, _ := v.Index(i).Interface().(Cell)
				if id := string(CellIDOf(c)); id != "" {
					if k, ok := byID[id]; ok && !claimed[k] {
						origs[i] = k
						claimed[k] = true
					}
				}
			}
		}
		// Positional fallback, for values rebuilt without identity or id
		// (only onto an original of the same type, whose layout fits).
		for i := 0; i < n && i < len(kids); i++ {
			if origs[i] < 0 && !claimed[kids[i]] && sameType(t, kids[i], v.Index(i).Interface()) {
				origs[i] = kids[i]
				claimed[kids[i]] = true
			}
		}
	} else {
		for i := 0; i < n && i < len(kids); i++ {
			origs[i] = kids[i]
		}
	}
	elem := func(i int, ind string) { e.value(v.Index(i), ti.elem, origs[i], ind) }
	e.array(o, ind, n, hasOrig, elem)
}

// array writes n elements; with an original array o it keeps o's layout.
func (e *encoder) array(o int, ind string, n int, hasOrig bool, elem func(i int, ind string)) {
	t := e.t
	if hasOrig && t.Nodes[o].Len > 0 && n > 0 {
		kids := t.ChildList(o)
		data := t.Data
		lead := data[t.Nodes[o].Start+1 : t.Nodes[kids[0]].Start]
		var typical []byte
		if len(kids) > 1 {
			typical = data[t.Nodes[kids[0]].End:t.Nodes[kids[1]].Start]
		} else {
			typical = append([]byte(","+e.commaSpace()), afterComma(lead)...)
		}
		e.buf = append(e.buf, '[')
		for i := 0; i < n; i++ {
			sep := lead
			if i > 0 {
				sep = typical
				if i < len(kids) {
					sep = data[t.Nodes[kids[i-1]].End:t.Nodes[kids[i]].Start]
				}
			}
			e.buf = append(e.buf, sep...)
			elem(i, lineIndent(sep, ind+e.st.indent))
		}
		e.buf = append(e.buf, data[t.Nodes[kids[len(kids)-1]].End:t.Nodes[o].End]...)
		return
	}
	if n == 0 {
		e.buf = append(e.buf, "[]"...)
		return
	}
	e.buf = append(e.buf, '[')
	inner := ind + e.st.indent
	for i := 0; i < n; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
			if e.st.compact() {
				e.buf = append(e.buf, e.commaSpace()...)
			}
		}
		if !e.st.compact() {
			e.buf = append(e.buf, e.st.newline...)
			e.buf = append(e.buf, inner...)
		}
		elem(i, inner)
	}
	if !e.st.compact() {
		e.buf = append(e.buf, e.st.newline...)
		e.buf = append(e.buf, ind...)
	}
	e.buf = append(e.buf, ']')
}

// multiline writes text. splittable says whether new text may be stored as
// lines in this place (false for binary MIME data such as image/png).
func (e *encoder) multiline(m MultilineString, o int, ind string, splittable bool) {
	var pieces []string
	asList := false
	switch {
	case m.lines != nil:
		pieces, asList = m.lines, true
	case m.raw != nil:
		pieces, asList = m.Lines(), m.form == formLines
		if !asList {
			e.str(m.String())
			return
		}
	default:
		f := m.form
		if f == formAuto {
			switch {
			case o >= 0 && e.t.Nodes[o].Kind == jsontree.String:
				f = formString
			case o >= 0 && e.t.Nodes[o].Kind == jsontree.Array:
				f = formLines
			case e.st.lines && splittable:
				f = formLines
			default:
				f = formString
			}
		}
		if f == formString {
			e.str(m.text)
			return
		}
		asList = true
		if e.st.splitNL {
			pieces = splitNewlines(m.text)
		} else {
			pieces = SplitLines(m.text)
		}
	}
	_ = asList
	e.array(-1, ind, len(pieces), false, func(i int, _ string) { e.str(pieces[i]) })
}

// rawJSON writes JSON text in the file's style.
func (e *encoder) rawJSON(raw []byte, ind string) {
	if e.st.compact() && e.st.comma == "" && e.st.colon == ":" && !e.st.sorted && e.st.esc == (jsontree.Escaping{}) {
		// Compact output (Encode, FromMap): the text without its spaces,
		// checked without recording its values.
		if _, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: DefaultMaxDepth}, nil); err != nil {
			e.fail(fmt.Errorf("nbformat: invalid raw JSON: %w", err))
			e.buf = append(e.buf, "null"...)
			return
		}
		e.buf = jsontree.AppendCompact(e.buf, raw)
		return
	}
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: DefaultMaxDepth})
	if err != nil {
		e.fail(fmt.Errorf("nbformat: invalid raw JSON: %w", err))
		e.buf = append(e.buf, "null"...)
		return
	}
	e.tapeValue(t, jsontree.Root, ind)
}

// tapeValue writes node j of another tape in the file's style.
func (e *encoder) tapeValue(t *jsontree.Tape, j int, ind string) {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.String:
		e.str(t.Str(j))
	case jsontree.Array:
		kids := t.ChildList(j)
		e.array(-1, ind, len(kids), false, func(i int, ind string) { e.tapeValue(t, kids[i], ind) })
	case jsontree.Object:
		var ms []member
		for _, k := range uniqueMembers(t, j) {
			k := k
			ms = append(ms, member{key: t.KeyString(k), orig: -1, write: func(_ int, ind string) { e.tapeValue(t, k, ind) }})
		}
		if e.st.sorted {
			slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
		}
		e.object(-1, ind, ms, false)
	default:
		e.buf = append(e.buf, t.Raw(j)...)
	}
}

// encodeCompact writes v (any Go value the encoder handles) as compact JSON.
func encodeCompact(v any) ([]byte, error) {
	e := encoder{st: &style{colon: ":"}}
	x := reflect.ValueOf(&v).Elem()
	e.value(x, infoOf(anyType), -1, "")
	if e.err != nil {
		return nil, e.err
	}
	return e.buf, nil
}

// sameType reports whether node j is an object whose cell_type (or
// output_type) is that of x.
func sameType(t *jsontree.Tape, j int, x any) bool {
	if t.Nodes[j].Kind != jsontree.Object {
		return false
	}
	switch x := x.(type) {
	case *UnknownCell, *UnknownOutput:
		return false
	case Cell:
		k := t.Lookup(j, "cell_type")
		return k >= 0 && t.StrIs(k, x.Type())
	case Output:
		k := t.Lookup(j, "output_type")
		return k >= 0 && t.StrIs(k, x.Type())
	}
	return false
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
