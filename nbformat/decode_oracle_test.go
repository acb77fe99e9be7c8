package nbformat

// The reflective decoder this package used until the decoder of decode.go
// replaced it (main fefa5c1, decode.go), kept unchanged but for its names
// as the oracle of the differential tests (decode_diff_test.go): it walks
// reflect.Values, and its results are what decoding means.

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// oracleSource is what the reflective decoder records besides the values:
// the node of each cell and output, and the first object of each type.
type oracleSource struct {
	cells   map[Cell]int32
	outputs map[Output]int32
	order   []int32
}

// learnOrder records the first object of each generated struct, by the
// id of its codec (see codec_gen.go); other types are not recorded.
func (s *oracleSource) learnOrder(ti *typeInfo, j int) {
	id := codecIDOf(ti.typ)
	if id < 0 {
		return
	}
	if id >= len(s.order) {
		s.order = append(s.order, make([]int32, id+1-len(s.order))...)
	}
	if s.order[id] == 0 {
		s.order[id] = int32(j) + 1
	}
}

// oracleDecode decodes object node o of t into the struct ptr points to,
// as the reflective decoder did.
func oracleDecode(t *jsontree.Tape, o int, ptr any) *oracleSource {
	src := &oracleSource{cells: map[Cell]int32{}, outputs: map[Output]int32{}}
	d := reflectDecoder{t: t, src: src}
	v := reflect.ValueOf(ptr).Elem()
	ti := infoOf(v.Type())
	d.decodeStruct(v, ti.plan, o)
	src.learnOrder(ti, o)
	return src
}

// reflectDecoder fills typed values from a tape. It never fails: a member whose
// JSON does not fit its Go field is kept, as generic JSON, in the struct's
// AdditionalProperties, and a cell or output that fits no variant becomes an
// UnknownCell or UnknownOutput. What the file holds is therefore always
// reachable and is written back as it was.
//
// The tape's bytes belong to the notebook being read and never change (see
// [UnmarshalOptions.Unmarshal]), so the strings decoded share them: a
// string without escapes costs no copy.
type reflectDecoder struct {
	t   *jsontree.Tape
	src *oracleSource
}

// str returns string node j, sharing the tape's bytes when it has no
// escapes.
func (d *reflectDecoder) str(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagEscaped != 0 || n.End-n.Start <= 2 {
		return d.t.Str(j)
	}
	return zerocopy.String(d.t.Data[n.Start+1 : n.End-1])
}

// key returns the key of member node j, sharing the tape's bytes when it
// has no escapes.
func (d *reflectDecoder) key(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagKeyEscaped != 0 || n.KeyEnd-n.Key <= 2 {
		return d.t.KeyString(j)
	}
	return zerocopy.String(d.t.Data[n.Key+1 : n.KeyEnd-1])
}

// decodeStruct fills the struct v from object node o.
func (d *reflectDecoder) decodeStruct(v reflect.Value, plan *structPlan, o int) {
	t := d.t
	var extra map[string]any
	t.Children(o, func(j int) bool {
		n := &t.Nodes[j]
		var key string
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			if fi, ok := plan.fieldNamed(t.Data[n.Key+1 : n.KeyEnd-1]); ok {
				f := &plan.fields[fi]
				fv := v.Field(f.index)
				if d.decodeValue(fv, f.ti, j, !f.optional) {
					if extra != nil {
						delete(extra, f.name)
					}
					return true
				}
				fv.SetZero()
				key = f.name
			}
		}
		if key == "" {
			key = d.key(j)
			if fi, ok := plan.byName[key]; ok { // an escaped spelling of a known key
				f := &plan.fields[fi]
				fv := v.Field(f.index)
				if d.decodeValue(fv, f.ti, j, !f.optional) {
					delete(extra, key)
					return true
				}
				fv.SetZero()
			}
		}
		if plan.extra < 0 {
			return true // cannot happen for generated structs
		}
		if extra == nil {
			extra = map[string]any{}
		}
		extra[key] = d.generic(j)
		return true
	})
	if len(extra) > 0 {
		v.Field(plan.extra).Set(reflect.ValueOf(extra))
	}
}

// decodeValue decodes node j into v (settable, of type ti.typ). required
// says whether a JSON null may be represented by a nil pointer. It reports
// false, leaving v unspecified, if the JSON does not fit the Go type.
func (d *reflectDecoder) decodeValue(v reflect.Value, ti *typeInfo, j int, required bool) bool {
	t := d.t
	n := &t.Nodes[j]
	switch ti.kind {
	case kString:
		if n.Kind != jsontree.String {
			return false
		}
		v.SetString(d.str(j))
	case kInt:
		// Scalars are decoded here, not by functions of their own: they
		// are most of the values decoded.
		if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
			return false
		}
		i, err := strconv.ParseInt(string(t.Raw(j)), 10, 64)
		if err != nil || v.OverflowInt(i) {
			return false
		}
		v.SetInt(i)
	case kBool:
		switch n.Kind {
		case jsontree.True:
			v.SetBool(true)
		case jsontree.False:
			v.SetBool(false)
		default:
			return false
		}
	case kPtr:
		if n.Kind == jsontree.Null {
			return oracleNull(v, required)
		}
		p := reflect.New(ti.elem.typ)
		if !d.decodeValue(p.Elem(), ti.elem, j, true) {
			return false
		}
		v.Set(p)
	case kSlice:
		return n.Kind == jsontree.Array && d.decodeSlice(v, ti, j)
	case kMap:
		return n.Kind == jsontree.Object && d.decodeMap(v, ti, j)
	case kStruct:
		if n.Kind != jsontree.Object {
			return false
		}
		v.SetZero() // a repeated key replaces, it does not merge
		d.decodeStruct(v, ti.plan, j)
		d.src.learnOrder(ti, j)
	case kAny:
		g := d.generic(j)
		if g == nil {
			return oracleNull(v, required)
		}
		v.Set(reflect.ValueOf(g))
	case kMultiline:
		if !oracleIsMultiline(t, j) {
			return false
		}
		oracleSetValue(v, multilineFromRaw(t.Raw(j)))
	case kBundle:
		if n.Kind != jsontree.Object {
			return false
		}
		oracleSetValue(v, d.bundle(j))
	case kCell:
		oracleSetValue(v, d.cell(j))
	case kOutput:
		oracleSetValue(v, d.output(j))
	default:
		return false
	}
	return true
}

// null decodes a JSON null into v, a pointer or interface, as nil where
// required allows it, and otherwise reports that the null does not fit
// (see decodeValue).
func oracleNull(v reflect.Value, required bool) bool {
	if required {
		v.SetZero()
	}
	return required
}

// decodeSlice decodes array node j into v, a slice of type ti.typ (see
// decodeValue).
func (d *reflectDecoder) decodeSlice(v reflect.Value, ti *typeInfo, j int) bool {
	n := int(d.t.Nodes[j].Len)
	s := reflect.MakeSlice(ti.typ, n, n)
	ok := true
	i := 0
	d.t.Children(j, func(k int) bool {
		ok = d.decodeValue(s.Index(i), ti.elem, k, true)
		i++
		return ok
	})
	if !ok {
		return false
	}
	v.Set(s)
	return true
}

// decodeMap decodes object node j into v, a map of type ti.typ (see
// decodeValue).
func (d *reflectDecoder) decodeMap(v reflect.Value, ti *typeInfo, j int) bool {
	m := reflect.MakeMapWithSize(ti.typ, int(d.t.Nodes[j].Len))
	ok := true
	d.t.Children(j, func(k int) bool {
		ev := reflect.New(ti.elem.typ).Elem()
		if ok = d.decodeValue(ev, ti.elem, k, true); ok {
			m.SetMapIndex(reflect.ValueOf(d.key(k)).Convert(ti.typ.Key()), ev)
		}
		return ok
	})
	if !ok {
		return false
	}
	v.Set(m)
	return true
}

// setValue stores x in v (of type T): through v's address when it has one,
// so that x is not copied to the heap as reflect.Value.Set's argument.
func oracleSetValue[T any](v reflect.Value, x T) {
	if v.CanAddr() {
		*(*T)(v.Addr().UnsafePointer()) = x
		return
	}
	oracleSetCopy(v, x)
}

// setCopy is setValue for a v without an address (x moves to the heap).
func oracleSetCopy[T any](v reflect.Value, x T) { v.Set(reflect.ValueOf(&x).Elem()) }

// isMultiline reports whether node j is a string or an array of strings.
func oracleIsMultiline(t *jsontree.Tape, j int) bool {
	n := &t.Nodes[j]
	if n.Kind == jsontree.String {
		return true
	}
	if n.Kind != jsontree.Array {
		return false
	}
	if t.Lazy(j) {
		if n.Flags&jsontree.FlagStrings != 0 {
			return true
		}
		sub, err := t.Expand(j) // not lines of text after all
		return err == nil && oracleIsMultiline(sub, jsontree.Root)
	}
	ok := true
	t.Children(j, func(k int) bool {
		ok = t.Nodes[k].Kind == jsontree.String
		return ok
	})
	return ok
}

func (d *reflectDecoder) bundle(j int) MimeBundle {
	t := d.t
	b := &bundle{raw: t.Raw(j), entries: make([]mimeEntry, 0, t.Nodes[j].Len)}
	var index map[string]int // for duplicate keys (the last wins), made when needed
	t.Children(j, func(k int) bool {
		e := mimeEntry{mime: d.key(k)}
		if !mimetype.IsJSON(e.mime) && oracleIsMultiline(t, k) {
			e.text = multilineFromRaw(t.Raw(k))
		} else {
			e.json, e.isJSON = t.Raw(k), true
		}
		if len(b.entries) < 8 {
			for i := range b.entries {
				if b.entries[i].mime == e.mime {
					b.entries[i] = e
					return true
				}
			}
		} else {
			if index == nil {
				index = make(map[string]int, t.Nodes[j].Len)
				for i, x := range b.entries {
					index[x.mime] = i
				}
			}
			if i, dup := index[e.mime]; dup {
				b.entries[i] = e
				return true
			}
			index[e.mime] = len(b.entries)
		}
		b.entries = append(b.entries, e)
		return true
	})
	b.reindex()
	return MimeBundle{b: b}
}

func (d *reflectDecoder) cell(j int) Cell {
	t := d.t
	var c Cell
	if t.Nodes[j].Kind == jsontree.Object {
		if k := t.Lookup(j, "cell_type"); k >= 0 {
			switch {
			case t.StrIs(k, "code"):
				c = &CodeCell{}
			case t.StrIs(k, "markdown"):
				c = &MarkdownCell{}
			case t.StrIs(k, "raw"):
				c = &RawCell{}
			}
		}
	}
	if c == nil {
		c = &UnknownCell{Raw: append(json.RawMessage{}, t.Raw(j)...)}
	} else {
		v := reflect.ValueOf(c).Elem()
		ti := infoOf(v.Type())
		d.decodeStruct(v, ti.plan, j)
		d.src.learnOrder(ti, j)
	}
	d.src.cells[c] = int32(j)
	return c
}

func (d *reflectDecoder) output(j int) Output {
	t := d.t
	var o Output
	if t.Nodes[j].Kind == jsontree.Object {
		if k := t.Lookup(j, "output_type"); k >= 0 {
			switch {
			case t.StrIs(k, "execute_result"):
				o = &ExecuteResult{}
			case t.StrIs(k, "display_data"):
				o = &DisplayData{}
			case t.StrIs(k, "stream"):
				o = &Stream{}
			case t.StrIs(k, "error"):
				o = &ErrorOutput{}
			}
		}
	}
	if o == nil {
		o = &UnknownOutput{Raw: append(json.RawMessage{}, t.Raw(j)...)}
	} else {
		v := reflect.ValueOf(o).Elem()
		ti := infoOf(v.Type())
		d.decodeStruct(v, ti.plan, j)
		d.src.learnOrder(ti, j)
	}
	d.src.outputs[o] = int32(j)
	return o
}

// generic returns node j as the value AdditionalProperties keeps: a
// scalar decoded (see [Decode]), an array or object as json.RawMessage,
// its bytes as read, sharing the input (see the package documentation).
func (d *reflectDecoder) generic(j int) any {
	t := d.t
	switch t.Nodes[j].Kind {
	case jsontree.Array, jsontree.Object:
		n := &t.Nodes[j]
		return json.RawMessage(t.Data[n.Start:n.End:n.End])
	case jsontree.String:
		return d.str(j)
	}
	return genericValue(t, j)
}
