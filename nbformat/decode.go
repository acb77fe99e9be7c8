package nbformat

// The decoder's leaves: strings and keys (views of the tape when
// unescaped), integers, mime bundles and generic JSON.

import (
	"encoding/json"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/zerocopy"
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
// The structs are decoded by the methods codec_gen.go generates for them
// (see decStruct), so a field added to the schema is decoded with no
// change here; the values of a notebook are allocated in few blocks (see
// slabs).
type decoder struct {
	t   *jsontree.Tape
	src *source
	slabs
	// variants is a stack of the variants of the elements of the arrays
	// of cells or outputs being decoded (see decodeCells).
	variants []variant
	// spares are zero structs of the notebook's block (pointers to them)
	// that spareOf hands out, each once, for the first pointer to their
	// type decoded (see notebookBlock).
	spares [2]any
}

// newDecoder returns a decoder of t's values, recording in src.
func newDecoder(t *jsontree.Tape, src *source) *decoder {
	return &decoder{t: t, src: src}
}

// str returns string node j, sharing the tape's bytes when it has no
// escapes.
func (d *decoder) str(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagEscaped != 0 || n.End-n.Start <= 2 {
		return d.t.Str(j)
	}
	return zerocopy.String(d.t.Data[n.Start+1 : n.End-1])
}

// key returns the key of member node j, sharing the tape's bytes when it
// has no escapes.
func (d *decoder) key(j int) string {
	n := &d.t.Nodes[j]
	if n.Flags&jsontree.FlagKeyEscaped != 0 || n.KeyEnd-n.Key <= 2 {
		return d.t.KeyString(j)
	}
	return zerocopy.String(d.t.Data[n.Key+1 : n.KeyEnd-1])
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

func (d *decoder) bundle(j int) MimeBundle {
	t := d.t
	b := d.bundles.next()
	b.raw, b.entries = t.Raw(j), d.entries.take(int(t.Nodes[j].Len))[:0]
	var index map[string]int // for duplicate keys (the last wins), made when needed
	k := t.FirstChild(j)
	for range t.Nodes[j].Len {
		e := mimeEntry{mime: d.key(k)}
		if !mimetype.IsJSON(e.mime) && t.IsMultiline(k) {
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
func (d *decoder) generic(j int) any {
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
		return jsontree.NumberValue(t.Raw(j), n.Flags)
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
