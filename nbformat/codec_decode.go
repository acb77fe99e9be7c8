package nbformat

// Decoding a generated struct from an object node, and the decoders of
// its members' types that codec_gen.go calls (dec* functions: node j into
// a value, false when the JSON does not fit the Go type; req says whether
// a JSON null may stand for a nil value).

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// decStruct fills the struct x, which must be zero, from object node o.
// A member whose JSON does not fit its field is kept, as generic JSON, in
// AdditionalProperties, and so are the members of keys no field has; of
// repeated keys the last one wins.
func (d *decoder) decStruct(x codecStruct, o int) {
	t := d.t
	c := x.codec()
	n := int(t.Nodes[o].Len)
	if n > 0 {
		var extra map[string]any
		var seen uint64 // bit i: fields[i] was decoded (i < 64)
		j := t.FirstChild(o)
		for k := 0; k < n; k, j = k+1, t.Next(j) {
			nd := &t.Nodes[j]
			fi := -1
			if nd.Flags&jsontree.FlagKeyEscaped == 0 {
				fi = x.fieldOf(t.Data[nd.Key+1 : nd.KeyEnd-1])
			} else {
				fi = d.escapedField(x, j)
			}
			if fi >= 0 {
				if fi >= 64 || seen&(1<<fi) != 0 {
					x.clearField(fi) // a repeated key replaces, it does not merge
				}
				seen |= 1 << (fi & 63)
				if x.decodeField(d, fi, j) {
					if extra != nil {
						delete(extra, c.fields[fi].name)
					}
					continue
				}
			}
			extra = d.keep(extra, c, fi, j, n-k)
		}
		if len(extra) > 0 {
			*x.extra() = extra
		}
	}
	d.src.learnOrder(c.id, o)
}

// escapedField returns the field of x whose key member j (its key
// escaped) has, or -1 (out of line, as keep is).
//
//go:noinline
func (d *decoder) escapedField(x codecStruct, j int) int {
	return x.fieldOf([]byte(d.key(j))) // an escaped spelling of a known key
}

// keep adds member j (of field fi, which it did not fit, or of no field:
// fi < 0) to extra, the AdditionalProperties being decoded (made for the
// left members of the object when nil), and returns it. (Out of line:
// decStruct's frame is on the stack at every level of the document.)
//
//go:noinline
func (d *decoder) keep(extra map[string]any, c *structCodec, fi, j, left int) map[string]any {
	var key string
	if fi >= 0 {
		key = c.fields[fi].name // decodeField left the field zero
	} else {
		key = d.key(j)
	}
	if extra == nil {
		extra = make(map[string]any, min(left, 8))
	}
	extra[key] = d.generic(j)
	return extra
}

// isObject reports whether node j is an object (codec_gen.go asks before
// decoding a struct).
func (d *decoder) isObject(j int) bool { return d.t.Nodes[j].Kind == jsontree.Object }

func decString(d *decoder, j int, _ bool) (string, bool) {
	if d.t.Nodes[j].Kind != jsontree.String {
		return "", false
	}
	return d.str(j), true
}

func decInt(d *decoder, j int, _ bool) (int, bool) {
	i, ok := d.int(j)
	if !ok || int64(int(i)) != i {
		return 0, false
	}
	return int(i), true
}

func decFloat64(d *decoder, j int, _ bool) (float64, bool) {
	n := &d.t.Nodes[j]
	if n.Kind != jsontree.Number {
		return 0, false
	}
	f, ok := jsontree.NumberValue(d.t.Raw(j), n.Flags).(float64)
	if !ok {
		return 0, false // an integer: kept as it is spelled
	}
	return f, true
}

func decBool(d *decoder, j int, _ bool) (bool, bool) {
	switch d.t.Nodes[j].Kind {
	case jsontree.True:
		return true, true
	case jsontree.False:
		return false, true
	}
	return false, false
}

func decAny(d *decoder, j int, req bool) (any, bool) {
	g := d.generic(j)
	if g == nil {
		return nil, req
	}
	return g, true
}

func decMultilineString(d *decoder, j int, _ bool) (MultilineString, bool) {
	if !d.t.IsMultiline(j) {
		return MultilineString{}, false
	}
	return multilineFromRaw(d.t.Raw(j)), true
}

func decMimeBundle(d *decoder, j int, _ bool) (MimeBundle, bool) {
	if d.t.Nodes[j].Kind != jsontree.Object {
		return MimeBundle{}, false
	}
	return d.bundle(j), true
}

func decCell(d *decoder, j int, _ bool) (Cell, bool) { return d.cell(j, d.cellVariant(j)), true }

func decOutput(d *decoder, j int, _ bool) (Output, bool) {
	return d.output(j, d.outputVariant(j)), true
}

func decSliceString(d *decoder, j int, _ bool) ([]string, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Array {
		return nil, false
	}
	s := d.strs.take(int(t.Nodes[j].Len))
	k := t.FirstChild(j)
	for i := range s {
		if t.Nodes[k].Kind != jsontree.String {
			return nil, false
		}
		s[i] = d.str(k)
		k = t.Next(k)
	}
	return s, true
}

func decSliceCell(d *decoder, j int, _ bool) ([]Cell, bool) {
	if d.t.Nodes[j].Kind != jsontree.Array {
		return nil, false
	}
	s := d.cellSlices.take(int(d.t.Nodes[j].Len))
	d.decodeCells(s, j)
	return s, true
}

func decSliceOutput(d *decoder, j int, _ bool) ([]Output, bool) {
	if d.t.Nodes[j].Kind != jsontree.Array {
		return nil, false
	}
	s := d.outputSlices.take(int(d.t.Nodes[j].Len))
	d.decodeOutputs(s, j)
	return s, true
}

func decMapAny(d *decoder, j int, _ bool) (map[string]any, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return nil, false
	}
	n := int(t.Nodes[j].Len)
	m := make(map[string]any, n)
	k := t.FirstChild(j)
	for range n {
		m[d.key(k)] = d.generic(k)
		k = t.Next(k)
	}
	return m, true
}

func decMapMimeBundle(d *decoder, j int, _ bool) (map[string]MimeBundle, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return nil, false
	}
	n := int(t.Nodes[j].Len)
	m := make(map[string]MimeBundle, n)
	k := t.FirstChild(j)
	for range n {
		if t.Nodes[k].Kind != jsontree.Object {
			return nil, false
		}
		m[d.key(k)] = d.bundle(k)
		k = t.Next(k)
	}
	return m, true
}

func decPtrString(d *decoder, j int, req bool) (*string, bool) {
	switch d.t.Nodes[j].Kind {
	case jsontree.Null:
		return nil, req
	case jsontree.String:
		s := d.strs.next()
		*s = d.str(j)
		return s, true
	}
	return nil, false
}

func decPtrInt(d *decoder, j int, req bool) (*int, bool) {
	if d.t.Nodes[j].Kind == jsontree.Null {
		return nil, req
	}
	i, ok := decInt(d, j, true)
	if !ok {
		return nil, false
	}
	x := d.ints.next()
	*x = i
	return x, true
}

func decPtrBool(d *decoder, j int, req bool) (*bool, bool) {
	switch d.t.Nodes[j].Kind {
	case jsontree.Null:
		return nil, req
	case jsontree.True, jsontree.False:
		b := d.bools.next()
		*b = d.t.Nodes[j].Kind == jsontree.True
		return b, true
	}
	return nil, false
}

// structPtr is the constraint of the generic helpers over generated
// structs: P is *T, and a codecStruct.
type structPtr[T any] interface {
	*T
	codecStruct
}

func decPtr[T any](d *decoder, j int, req bool, dec func(*decoder, int, bool) (T, bool)) (*T, bool) {
	if d.t.Nodes[j].Kind == jsontree.Null {
		return nil, req
	}
	v, ok := dec(d, j, true)
	if !ok {
		return nil, false
	}
	return &v, true
}

func decPtrStruct[T any, P structPtr[T]](d *decoder, j int, req bool) (P, bool) {
	switch d.t.Nodes[j].Kind {
	case jsontree.Null:
		return nil, req
	case jsontree.Object:
		p := spareOf[T, P](d)
		d.decStruct(p, j)
		return p, true
	}
	return nil, false
}

// spareOf returns the decoder's spare T (see notebookBlock), taking it,
// or a new one. A spare is handed out once, whether or not what is decoded
// into it is kept.
func spareOf[T any, P structPtr[T]](d *decoder) P {
	for k, s := range d.spares {
		if p, ok := s.(P); ok {
			d.spares[k] = nil
			return p
		}
	}
	return new(T)
}

func decSlice[T any](d *decoder, j int, dec func(*decoder, int, bool) (T, bool)) ([]T, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Array {
		return nil, false
	}
	s := make([]T, t.Nodes[j].Len)
	k := t.FirstChild(j)
	for i := range s {
		v, ok := dec(d, k, true)
		if !ok {
			return nil, false
		}
		s[i] = v
		k = t.Next(k)
	}
	return s, true
}

func decSliceStruct[T any, P structPtr[T]](d *decoder, j int) ([]T, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Array {
		return nil, false
	}
	s := make([]T, t.Nodes[j].Len)
	k := t.FirstChild(j)
	for i := range s {
		if t.Nodes[k].Kind != jsontree.Object {
			return nil, false
		}
		d.decStruct(P(&s[i]), k)
		k = t.Next(k)
	}
	return s, true
}

func decMap[T any](d *decoder, j int, dec func(*decoder, int, bool) (T, bool)) (map[string]T, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return nil, false
	}
	n := int(t.Nodes[j].Len)
	m := make(map[string]T, n)
	k := t.FirstChild(j)
	for range n {
		v, ok := dec(d, k, true)
		if !ok {
			return nil, false
		}
		m[d.key(k)] = v
		k = t.Next(k)
	}
	return m, true
}

func decMapStruct[T any, P structPtr[T]](d *decoder, j int) (map[string]T, bool) {
	t := d.t
	if t.Nodes[j].Kind != jsontree.Object {
		return nil, false
	}
	n := int(t.Nodes[j].Len)
	m := make(map[string]T, n)
	k := t.FirstChild(j)
	for range n {
		if t.Nodes[k].Kind != jsontree.Object {
			return nil, false
		}
		var x T
		d.decStruct(P(&x), k)
		m[d.key(k)] = x
		k = t.Next(k)
	}
	return m, true
}
