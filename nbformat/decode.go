package nbformat

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// decoder fills typed values from a tape. It never fails: a member whose
// JSON does not fit its Go field is kept, as generic JSON, in the struct's
// AdditionalProperties, and a cell or output that fits no variant becomes an
// UnknownCell or UnknownOutput. What the file holds is therefore always
// reachable and is written back as it was.
//
// The tape's bytes belong to the notebook being read and never change (see
// [UnmarshalOptions.Unmarshal]), so the strings decoded share them: a
// string without escapes costs no copy.
//
// It follows the plans typeinfo.go derives from the generated structs
// (field offsets and kinds; see decodeAt), so a field added to the schema
// is decoded with no change here, and it allocates the values of a
// notebook in few blocks (see slabs).
type decoder struct {
	t   *jsontree.Tape
	src *source
	slabs
	// variants is a stack of the variants of the elements of the arrays
	// of cells or outputs being decoded (see decodeCells).
	variants []variant
	infos    *[variantCount]*typeInfo // the variants' structs
	// spares are zero structs of the notebook's block that pointer hands
	// out, each once, for the first pointer to their type decoded (see
	// notebookBlock).
	spares [2]spare
}

// newDecoder returns a decoder of t's values, recording in src.
func newDecoder(t *jsontree.Tape, src *source) *decoder {
	return &decoder{t: t, src: src, infos: variantInfos()}
}

// str returns string node j, sharing the tape's bytes when it has no
// escapes.
func (d *decoder) str(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagEscaped != 0 || n.End-n.Start <= 2 {
		return d.t.Str(j)
	}
	return unsafe.String(&d.t.Data[n.Start+1], n.End-n.Start-2)
}

// key returns the key of member node j, sharing the tape's bytes when it
// has no escapes.
func (d *decoder) key(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagKeyEscaped != 0 || n.KeyEnd-n.Key <= 2 {
		return d.t.KeyString(j)
	}
	return unsafe.String(&d.t.Data[n.Key+1], n.KeyEnd-n.Key-2)
}

// decodeStruct fills the struct at p, described by plan, from object node
// o. The struct must be zero: every caller passes a new value, a field of
// one, or one it cleared.
//
// p is the address of a value of the plan's type, and each field is
// written at p + its offset as its own Go type (see decodeAt): the same
// store the compiler emits for a field assignment, write barriers
// included, so the garbage collector sees every pointer written.
func (d *decoder) decodeStruct(p unsafe.Pointer, plan *structPlan, o int) {
	t := d.t
	n := int(t.Nodes[o].Len)
	if n == 0 {
		return
	}
	var extra map[string]any
	var seen uint64 // bit i: fields[i] was decoded (i < 64)
	next := 0       // the field of the member expected next (files list members in the fields' order)
	j := t.FirstChild(o)
	for c := 0; c < n; c, j = c+1, t.Next(j) {
		nd := &t.Nodes[j]
		fi := -1
		var key string // the member's key, when escaped
		if nd.Flags&jsontree.FlagKeyEscaped == 0 {
			name := t.Data[nd.Key+1 : nd.KeyEnd-1]
			if next < len(plan.fields) && plan.fields[next].name == string(name) {
				fi = next
			} else if i, ok := plan.fieldNamed(name); ok {
				fi = i
			}
		} else {
			key = d.key(j)
			if i, ok := plan.byName[key]; ok { // an escaped spelling of a known key
				fi = i
			}
		}
		if fi >= 0 {
			f := &plan.fields[fi]
			fp := unsafe.Add(p, f.offset)
			if fi >= 64 || seen&(1<<fi) != 0 {
				clearAt(fp, f.ti) // a repeated key replaces, it does not merge
			}
			seen |= 1 << (fi & 63)
			next = fi + 1
			if d.decodeAt(fp, f.ti, j, !f.optional) {
				if extra != nil {
					delete(extra, f.name)
				}
				continue
			}
			key = f.name // decodeAt left the field zero
		} else if key == "" {
			key = d.key(j)
		}
		if plan.extra < 0 {
			continue // cannot happen for generated structs
		}
		if extra == nil {
			extra = make(map[string]any, min(n-c, 8))
		}
		extra[key] = d.generic(j)
	}
	if len(extra) > 0 {
		*(*map[string]any)(unsafe.Add(p, plan.extraOffset)) = extra
	}
}

// clearAt sets the value of type ti at p to its zero value (a typed
// clear, with the write barriers a pointer store needs).
func clearAt(p unsafe.Pointer, ti *typeInfo) { reflect.NewAt(ti.typ, p).Elem().SetZero() }

// decodeAt decodes node j into the value of type ti.typ at p. required
// says whether a JSON null may be represented by a nil pointer. It reports
// false, leaving the value as it was, if the JSON does not fit the Go
// type.
//
// Every store goes through a pointer of the field's own Go type (or of one
// with the same layout: a string kind through *string, a pointer through
// *unsafe.Pointer), so it is the store the compiler emits for the field.
// The plans' kinds come from reflect (see build), which is what makes
// those pointer types right; TestDecodeSyntheticStruct checks every kind
// at odd offsets against the reflective decoder.
func (d *decoder) decodeAt(p unsafe.Pointer, ti *typeInfo, j int, required bool) bool {
	t := d.t
	n := &t.Nodes[j]
	switch ti.kind {
	case kString:
		if n.Kind != jsontree.String {
			return false
		}
		*(*string)(p) = d.str(j)
	case kInt:
		i, ok := d.int(j)
		if !ok || !storeInt(p, ti.size, i) {
			return false
		}
	case kBool:
		switch n.Kind {
		case jsontree.True:
			*(*bool)(p) = true
		case jsontree.False:
			*(*bool)(p) = false
		default:
			return false
		}
	case kPtr:
		if n.Kind == jsontree.Null {
			if required {
				*(*unsafe.Pointer)(p) = nil
			}
			return required
		}
		return d.pointer(p, ti, j)
	case kSlice:
		return n.Kind == jsontree.Array && d.slice(p, ti, j)
	case kMap:
		return n.Kind == jsontree.Object && d.mapAt(p, ti, j)
	case kStruct:
		if n.Kind != jsontree.Object {
			return false
		}
		d.decodeStruct(p, ti.plan, j)
		d.src.learnOrder(ti, j)
	case kAny:
		g := d.generic(j)
		if g == nil {
			if required {
				*(*any)(p) = nil
			}
			return required
		}
		*(*any)(p) = g
	case kMultiline:
		if !isMultiline(t, j) {
			return false
		}
		*(*MultilineString)(p) = multilineFromRaw(t.Raw(j))
	case kBundle:
		if n.Kind != jsontree.Object {
			return false
		}
		*(*MimeBundle)(p) = d.bundle(j)
	case kCell:
		*(*Cell)(p) = d.cell(j, d.cellVariant(j))
	case kOutput:
		*(*Output)(p) = d.output(j, d.outputVariant(j))
	default:
		return false
	}
	return true
}

// int returns integer node j, if it is one that fits an int64.
func (d *decoder) int(j int) (int64, bool) {
	n := &d.t.Nodes[j]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
		return 0, false
	}
	return parseInt(d.t.Data[n.Start:n.End])
}

// parseInt parses a JSON integer (an optional minus sign and digits, as
// the tape checked), reporting false when it does not fit an int64.
func parseInt(raw []byte) (int64, bool) {
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	if len(raw) > 18 { // may not fit: let strconv decide
		s := string(raw)
		if neg {
			s = "-" + s
		}
		i, err := strconv.ParseInt(s, 10, 64)
		return i, err == nil
	}
	var u int64
	for _, c := range raw {
		u = u*10 + int64(c-'0')
	}
	if neg {
		u = -u
	}
	return u, true
}

// storeInt stores i at p, an integer of size bytes, reporting false when
// it does not fit.
func storeInt(p unsafe.Pointer, size uintptr, i int64) bool {
	switch size {
	case 1:
		if int64(int8(i)) != i {
			return false
		}
		*(*int8)(p) = int8(i)
	case 2:
		if int64(int16(i)) != i {
			return false
		}
		*(*int16)(p) = int16(i)
	case 4:
		if int64(int32(i)) != i {
			return false
		}
		*(*int32)(p) = int32(i)
	default:
		*(*int64)(p) = i
	}
	return true
}

// pointer decodes node j (not null) into the pointer of type ti at p.
func (d *decoder) pointer(p unsafe.Pointer, ti *typeInfo, j int) bool {
	t := d.t
	switch ti.direct {
	case directString:
		if t.Nodes[j].Kind != jsontree.String {
			return false
		}
		s := d.strs.next()
		*s = d.str(j)
		*(**string)(p) = s
	case directInt:
		i, ok := d.int(j)
		if !ok || int64(int(i)) != i {
			return false
		}
		x := d.ints.next()
		*x = int(i)
		*(**int)(p) = x
	case directBool:
		k := t.Nodes[j].Kind
		if k != jsontree.True && k != jsontree.False {
			return false
		}
		b := d.bools.next()
		*b = k == jsontree.True
		*(**bool)(p) = b
	default:
		e := d.spareOf(ti.elem)
		if e == nil {
			e = reflect.New(ti.elem.typ).UnsafePointer()
		}
		if !d.decodeAt(e, ti.elem, j, true) {
			return false
		}
		*(*unsafe.Pointer)(p) = e
	}
	return true
}

// spareOf returns the spare of type ti, taking it (nil when there is
// none, or it was taken). A spare handed out is never handed out again,
// whether or not the value decoded into it is kept: a value that did not
// decode was written only where it does not fit (decodeAt stores nothing
// then), so a spare is either the target of one pointer or zero and
// unreferenced.
func (d *decoder) spareOf(ti *typeInfo) unsafe.Pointer {
	for k := range d.spares {
		if s := &d.spares[k]; s.ti == ti && s.p != nil {
			p := s.p
			s.p = nil
			return p
		}
	}
	return nil
}

// slice decodes array node j into the slice of type ti at p, its length
// the array's.
func (d *decoder) slice(p unsafe.Pointer, ti *typeInfo, j int) bool {
	t := d.t
	n := int(t.Nodes[j].Len)
	switch ti.direct {
	case directStrings:
		s := d.strs.take(n)
		k := t.FirstChild(j)
		for i := range s {
			if t.Nodes[k].Kind != jsontree.String {
				return false
			}
			s[i] = d.str(k)
			k = t.Next(k)
		}
		*(*[]string)(p) = s
	case directCells:
		s := d.cellSlices.take(n)
		d.decodeCells(s, j)
		*(*[]Cell)(p) = s
	case directOutputs:
		s := d.outputSlices.take(n)
		d.decodeOutputs(s, j)
		*(*[]Output)(p) = s
	default:
		s := reflect.MakeSlice(ti.typ, n, n)
		base, size := s.UnsafePointer(), ti.elem.size
		k := t.FirstChild(j)
		for i := range n {
			if !d.decodeAt(unsafe.Add(base, uintptr(i)*size), ti.elem, k, true) {
				return false
			}
			k = t.Next(k)
		}
		reflect.NewAt(ti.typ, p).Elem().Set(s)
	}
	return true
}

// mapAt decodes object node j into the string-keyed map of type ti at p.
// Of repeated keys the last wins.
func (d *decoder) mapAt(p unsafe.Pointer, ti *typeInfo, j int) bool {
	t := d.t
	n := int(t.Nodes[j].Len)
	k := t.FirstChild(j)
	switch ti.direct {
	case directAnyMap:
		m := make(map[string]any, n)
		for range n {
			m[d.key(k)] = d.generic(k)
			k = t.Next(k)
		}
		*(*map[string]any)(p) = m
	case directBundles:
		m := make(map[string]MimeBundle, n)
		for range n {
			if t.Nodes[k].Kind != jsontree.Object {
				return false
			}
			m[d.key(k)] = d.bundle(k)
			k = t.Next(k)
		}
		*(*map[string]MimeBundle)(p) = m
	default:
		m := reflect.MakeMapWithSize(ti.typ, n)
		keyType := ti.typ.Key()
		for range n {
			e := reflect.New(ti.elem.typ)
			if !d.decodeAt(e.UnsafePointer(), ti.elem, k, true) {
				return false
			}
			m.SetMapIndex(reflect.ValueOf(d.key(k)).Convert(keyType), e.Elem())
			k = t.Next(k)
		}
		reflect.NewAt(ti.typ, p).Elem().Set(m)
	}
	return true
}

// isMultiline reports whether node j is a string or an array of strings.
func isMultiline(t *jsontree.Tape, j int) bool {
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
		return err == nil && isMultiline(sub, jsontree.Root)
	}
	k := j + 1
	for range n.Len {
		if t.Nodes[k].Kind != jsontree.String {
			return false
		}
		k = t.Next(k)
	}
	return true
}

func (d *decoder) bundle(j int) MimeBundle {
	t := d.t
	b := d.bundles.next()
	b.raw, b.entries = t.Raw(j), d.entries.take(int(t.Nodes[j].Len))[:0]
	var index map[string]int // for duplicate keys (the last wins), made when needed
	k := t.FirstChild(j)
	for range t.Nodes[j].Len {
		e := mimeEntry{mime: d.key(k)}
		if !mimetype.IsJSON(e.mime) && isMultiline(t, k) {
			e.text = multilineFromRaw(t.Raw(k))
		} else {
			e.json, e.isJSON = t.Raw(k), true
		}
		k = t.Next(k)
		if len(b.entries) < 8 {
			if i := b.indexOf(e.mime); i >= 0 {
				b.entries[i] = e
				continue
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
				continue
			}
			index[e.mime] = len(b.entries)
		}
		b.entries = append(b.entries, e)
	}
	b.reindex()
	return MimeBundle{b: b}
}

// indexOf returns the index of the entry for mime by a scan, or -1.
func (b *bundle) indexOf(mime string) int {
	for i := range b.entries {
		if b.entries[i].mime == mime {
			return i
		}
	}
	return -1
}

// generic returns node j as the value AdditionalProperties keeps: a
// scalar decoded (see [Decode]), an array or object as json.RawMessage,
// its bytes as read, sharing the input (see the package documentation).
// Strings and raw values, most of them, are boxed from blocks (see box).
func (d *decoder) generic(j int) any {
	t := d.t
	switch t.Nodes[j].Kind {
	case jsontree.Array, jsontree.Object:
		n := &t.Nodes[j]
		return box(&d.raws, json.RawMessage(t.Data[n.Start:n.End:n.End]))
	case jsontree.String:
		return box(&d.boxedStrs, d.str(j))
	}
	return genericValue(t, j)
}

func genericValue(t *jsontree.Tape, j int) any {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.Null:
		return nil
	case jsontree.True:
		return true
	case jsontree.False:
		return false
	case jsontree.String:
		return t.Str(j)
	case jsontree.Number:
		return numberValue(t.Raw(j), n.Flags)
	case jsontree.Array:
		a := make([]any, 0, n.Len)
		t.Children(j, func(k int) bool {
			a = append(a, genericValue(t, k))
			return true
		})
		return a
	case jsontree.Object:
		m := make(map[string]any, n.Len)
		t.Children(j, func(k int) bool {
			m[t.KeyString(k)] = genericValue(t, k)
			return true
		})
		return m
	}
	return nil
}

// numberValue is the Go value of a JSON number: int when it is an integer
// that fits, json.Number for larger integers, float64 otherwise.
func numberValue(raw []byte, flags uint8) any {
	if flags&jsontree.FlagInt != 0 {
		if i, err := strconv.ParseInt(string(raw), 10, 0); err == nil {
			return int(i)
		}
		return json.Number(raw)
	}
	switch string(raw) {
	case "NaN":
		return math.NaN()
	case "Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return f
}

// Decode parses JSON text into generic Go values: nil, bool, string, int
// (integers that fit), json.Number (larger integers), float64 (other
// numbers, including NaN and ±Inf), []any and map[string]any, all the way
// down. Duplicate keys: the last one wins. Use it to look inside the
// json.RawMessage values in which metadata this package does not type
// keeps its arrays and objects.
func Decode(data []byte) (any, error) {
	t, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: defaultMaxDepth})
	if err != nil {
		return nil, syntaxError("", data, err)
	}
	return genericValue(t, jsontree.Root), nil
}
