package jsontree

// The members of an object that count: of repeated keys the last one, as
// in Python's json module.

import "bytes"

// UniqueMembers returns the members of object o, dropping any whose key
// occurs again later (the last one wins, as in Python).
func (t *Tape) UniqueMembers(o int) []int {
	return t.AppendUniqueMembers(make([]int, 0, t.Nodes[o].Len), o)
}

// AppendUniqueMembers appends t.UniqueMembers(o) to dst.
func (t *Tape) AppendUniqueMembers(dst []int, o int) []int {
	if t.Lazy(o) {
		t.ChildList(o) // panics with the tape's *LazyError, as every reader of children does
	}
	base := len(dst)
	n := t.Nodes[o]
	for j, c := o+1, int32(0); c < n.Len; c++ {
		dst = append(dst, j)
		j = int(t.Nodes[j].Skip)
	}
	ms := dst[base:]
	if len(ms) < 2 {
		return dst
	}
	if len(ms) <= 16 {
		dup := false
		for i := range ms {
			ki := t.KeyRaw(ms[i])
			for j := i + 1; j < len(ms); j++ {
				if bytes.Equal(ki, t.KeyRaw(ms[j])) {
					dup = true
				}
			}
		}
		if !dup && !anyEscapedKey(t, ms) {
			return dst
		}
	}
	last := make(map[string]int, len(ms))
	for i, j := range ms {
		last[t.KeyString(j)] = i
	}
	if len(last) == len(ms) {
		return dst
	}
	out := dst[:base]
	for i, j := range ms {
		if last[t.KeyString(j)] == i {
			out = append(out, j)
		}
	}
	return out
}

func anyEscapedKey(t *Tape, ms []int) bool {
	for _, j := range ms {
		if t.Nodes[j].Flags&FlagKeyEscaped != 0 {
			return true
		}
	}
	return false
}
