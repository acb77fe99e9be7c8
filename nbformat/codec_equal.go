package nbformat

// Comparing a generated struct with the object node it would be written
// over (eqStruct): member by member, as the original's members come. Equal
// values are written by copying the original's bytes; a notebook is
// unedited when its Document equals its root node.

import (
	"math/bits"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// lazySave is the tape an encoder reads while it reads the expansion of a
// lazy node (see open).
type lazySave struct {
	t   *jsontree.Tape
	src *source
	on  bool
}

// open returns node j ready for its children to be read: j, or, when it is
// lazy, the root of its expansion, which is the encoder's tape until close
// (inside it there are no cells or outputs of the source to match). ok is
// false when the expansion fails.
func (e *encoder) open(j int) (int, lazySave, bool) {
	if !e.t.Lazy(j) {
		return j, lazySave{}, true
	}
	sub, err := e.t.Expand(j)
	if err != nil {
		return -1, lazySave{}, false
	}
	s := lazySave{e.t, e.src, true}
	e.t, e.src = sub, nil
	return jsontree.Root, s, true
}

// close ends what open began.
func (e *encoder) close(s lazySave) {
	if s.on {
		e.t, e.src = s.t, s.src
	}
}

// eqStruct reports whether struct x would be written as JSON equal to
// node o: every member of the original is written, as a field or a value
// kept in AdditionalProperties, with an equal value, and nothing else.
//
// It reads the original's members in one pass, as they come; an object
// with a repeated key (the last one counts, as in Python) or an escaped
// key, met on the way or behind a difference, is compared again by
// eqStructUnique, and so is a struct of more than 64 fields.
func (e *encoder) eqStruct(x codecStruct, o int) bool {
	if o < 0 || e.t == nil {
		return false
	}
	if !e.t.Lazy(o) {
		return e.eqObject(x, o)
	}
	return e.eqLazyStruct(x, o)
}

// eqLazyStruct is eqStruct over lazy node o (out of line: eqStruct's
// frame, on the stack at every level of the comparison, stays small).
//
//go:noinline
func (e *encoder) eqLazyStruct(x codecStruct, o int) bool {
	o, s, ok := e.open(o)
	if !ok {
		return false
	}
	eq := e.eqObject(x, o)
	e.close(s)
	return eq
}

// eqObject is eqStruct over node o of the encoder's tape, which is not
// lazy.
func (e *encoder) eqObject(x codecStruct, o int) bool {
	t := e.t
	if t.Nodes[o].Kind != jsontree.Object {
		return false
	}
	c := x.codec()
	if len(c.fields) > 64 {
		return e.eqStructUnique(x, o)
	}
	set, zero := x.masks()
	over, lacking := e.writtenMasks(x, c, set, zero)
	extra := *x.extra()
	extrasMatched := 0
	// The keys of the first members matched by a kept value and no field
	// (a field's key is seen twice by has), by their offsets.
	var extraKeys [4]int32
	nExtraKeys := 0
	var has uint64 // fields whose key the original has
	// (The tape's nodes and bytes, which nothing changes while it is
	// compared, held apart: the calls below would have them loaded anew.)
	nodes, data := t.Nodes, t.Data
	n := int(nodes[o].Len)
	j := o + 1
	for k := 0; k < n; k, j = k+1, int(nodes[j].Skip) {
		nd := &nodes[j]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			return e.eqStructUnique(x, o)
		}
		kb := data[nd.Key+1 : nd.KeyEnd-1]
		fi := x.fieldOf(kb)
		if fi >= 0 {
			bit := uint64(1) << fi
			if has&bit != 0 {
				return e.eqStructUnique(x, o) // a repeated key
			}
			has |= bit
			if extra == nil || zero&bit == 0 { // (a field set replaces a kept value)
				if over&bit == 0 || !x.equalField(e, fi, j) {
					return e.differs(x, o)
				}
				continue
			}
		}
		if v, inExtra := extra[string(kb)]; inExtra {
			if !eqAny(e, v, j) {
				return e.differs(x, o)
			}
			if fi < 0 {
				if repeatedKey(t, extraKeys[:min(nExtraKeys, len(extraKeys))], kb) {
					return e.eqStructUnique(x, o)
				}
				if nExtraKeys < len(extraKeys) {
					extraKeys[nExtraKeys] = nd.Key
				}
				nExtraKeys++
			}
			extrasMatched++
			continue
		}
		if fi < 0 || over&(1<<fi) == 0 || !x.equalField(e, fi, j) {
			return e.differs(x, o)
		}
	}
	// Every kept value matched (each key once, below) is written: when
	// they are all of extra, so is no other.
	if len(extra) != extrasMatched && keptExtras(c, extra, zero) != extrasMatched {
		return e.differs(x, o)
	}
	if nExtraKeys > len(extraKeys) && !simpleKeys(t, o) {
		// A repeated key of extra was counted each time: the count may
		// hide a kept value the original lacks.
		return e.eqStructUnique(x, o)
	}
	// Nothing else is written: no field the original lacks, but those
	// written as the kept value of their key (counted above).
	for rest := lacking &^ has; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros64(rest)
		if _, inExtra := extra[c.fields[i].name]; !inExtra || zero&(1<<i) == 0 {
			return e.differs(x, o)
		}
	}
	return true
}

// writtenMasks returns, by bit, the fields of struct x (its set and zero
// masks) that are written over an original object that has their key
// (over) and that lacks it (lacking), as present decides.
func (e *encoder) writtenMasks(x codecStruct, c *structCodec, set, zero uint64) (over, lacking uint64) {
	all := ^uint64(0)
	if n := len(c.fields); n < 64 {
		all = 1<<n - 1
	}
	req := all &^ c.optional &^ c.typeTags
	base := c.typeTags | c.optional&set | req&^zero
	if e.decoded && !e.fillsStruct(x) {
		// A zero required member the original lacks stays out.
		return base | req&zero, base
	}
	z := req & zero
	if !e.ids {
		z &^= c.cellIDs
	}
	return base | z | req&zero&^c.ids, base | z
}

// keptExtras counts the values of extra (x's AdditionalProperties) that
// are written: those whose key no set field has. It looks up the keys of
// the set fields (a few) rather than walk the map.
func keptExtras(c *structCodec, extra map[string]any, zero uint64) int {
	set := ^zero
	if n := len(c.fields); n < 64 {
		set &= 1<<n - 1
	}
	kept := len(extra)
	for ; set != 0; set &= set - 1 {
		if _, in := extra[c.fields[bits.TrailingZeros64(set)].name]; in {
			kept--
		}
	}
	return kept
}

// repeatedKey reports whether key (unescaped, as every key before it in
// its object) is the key of one of the members starting at the offsets
// keys.
func repeatedKey(t *jsontree.Tape, keys []int32, key []byte) bool {
	for _, k := range keys {
		at := t.Data[k+1:]
		if len(at) > len(key) && at[len(key)] == '"' && string(at[:len(key)]) == string(key) {
			return true
		}
	}
	return false
}

// differs is eqStruct's answer for object o, whose members as read in one
// pass differ from x: false, unless o has a repeated or escaped key (then
// eqStructUnique decides).
func (e *encoder) differs(x codecStruct, o int) bool {
	if simpleKeys(e.t, o) {
		return false
	}
	return e.eqStructUnique(x, o)
}

// simpleKeys reports whether object o has neither an escaped key nor a
// repeated one (up to 16 members; a larger object is not vouched for).
func simpleKeys(t *jsontree.Tape, o int) bool {
	n := int(t.Nodes[o].Len)
	if n > 16 {
		return false
	}
	var keys [16][]byte
	j := o + 1
	for k := 0; k < n; k, j = k+1, int(t.Nodes[j].Skip) {
		nd := &t.Nodes[j]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			return false
		}
		keys[k] = t.Data[nd.Key:nd.KeyEnd]
		for i := range k {
			if string(keys[i]) == string(keys[k]) {
				return false
			}
		}
	}
	return true
}

// eqStructUnique is eqStruct over the members of o that count (the last
// of a repeated key), their keys unescaped.
func (e *encoder) eqStructUnique(x codecStruct, o int) bool {
	t := e.t
	extra := *x.extra()
	extrasMatched := 0
	var has uint64
	ms, base := e.members(o)
	defer func() { e.stack = e.stack[:base] }()
	for _, j := range ms {
		n := &t.Nodes[j]
		var v any
		var inExtra bool
		var fi int
		if n.Flags&jsontree.FlagKeyEscaped == 0 {
			kb := t.Data[n.Key+1 : n.KeyEnd-1]
			if extra != nil {
				v, inExtra = extra[string(kb)]
			}
			fi = x.fieldOf(kb)
		} else {
			key := t.KeyString(j)
			v, inExtra = extra[key]
			fi = x.fieldNamed(key)
		}
		if fi >= 0 && fi < 64 {
			has |= 1 << fi
		}
		if inExtra && fi >= 0 && !x.fieldZero(fi) {
			inExtra = false // the field was set: it replaces the kept value
		}
		if inExtra {
			if !eqAny(e, v, j) {
				return false
			}
			extrasMatched++
			continue
		}
		if fi < 0 || !e.present(x, fi, true, true) || !x.equalField(e, fi, j) {
			return false
		}
	}
	return e.onlyMatched(x, o, extra, extrasMatched, has)
}

// onlyMatched reports, every member of original object o having matched a
// field of x written or one of its kept values (extrasMatched of them;
// has: the fields matched, by bit), whether nothing else is written:
// neither a field the original lacks nor a kept value it lacks.
func (e *encoder) onlyMatched(x codecStruct, o int, extra map[string]any, extrasMatched int, has uint64) bool {
	if len(extra) > 0 {
		kept := 0
		for k := range extra {
			if !shadowedIn(x, k) {
				kept++
			}
		}
		if kept != extrasMatched {
			return false
		}
	}
	fields := x.codec().fields
	for i := range fields {
		if i < 64 && has&(1<<i) != 0 {
			continue // matched by a member
		}
		if len(extra) > 0 {
			if _, inExtra := extra[fields[i].name]; inExtra && x.fieldZero(i) {
				continue // written as the kept value, counted in extrasMatched
			}
		}
		origHas := false
		if i >= 64 {
			if origHas = e.t.Lookup(o, fields[i].name) >= 0; origHas {
				continue // matched by a member
			}
		}
		if e.present(x, i, true, origHas) {
			return false
		}
	}
	return true
}

// shadowedIn reports whether the kept value AdditionalProperties[key] (a
// member whose JSON did not fit its field) is replaced by the field, which
// was set since: a field holding its zero value leaves the kept value in
// place.
func shadowedIn(x codecStruct, key string) bool {
	fi := x.fieldNamed(key)
	return fi >= 0 && !x.fieldZero(fi)
}

// present reports whether field i of x is written. hasOrig says whether x
// is written over an original object, origHas whether that object has the
// field's key.
func (e *encoder) present(x codecStruct, i int, hasOrig, origHas bool) bool {
	f := &x.codec().fields[i]
	if f.typeTag {
		return true // (written as the variant's type when empty)
	}
	if f.optional {
		return x.fieldPresent(i)
	}
	// Required: always written, except that a required member missing from
	// an invalid file stays missing while it holds its zero value (in
	// values decoded from that file), and an empty cell id is not written
	// before nbformat 4.5. (A member the original has is written whatever
	// its value, but for the id: no need to test a struct for zero.)
	if origHas && f.name != "id" {
		return true
	}
	if x.fieldZero(i) {
		if hasOrig && e.decoded && !e.fillsStruct(x) {
			return origHas
		}
		if f.cellID && !e.ids {
			return false
		}
	}
	return true
}

// fillsStruct reports whether x is a struct whose missing required
// members are written (see fillMissing).
func (e *encoder) fillsStruct(x codecStruct) bool {
	return len(e.filledStructs) > 0 && e.filledStructs[x]
}
