package main

// Parts of a side made when asked, read from its pieces (ours' text and its own lines) without making the side whole.

import (
	"fmt"
	"sort"
)

// sideParts returns a function reading the n bytes at offset off of the
// text s.make(ours) gives, from s's pieces, for a merge asking for parts
// of base again (see internal/mergeparts); nil unless s is made when
// asked (a side holding its text gives it whole, once).
func sideParts(s, ours *side) func(off, n int64) ([]byte, error) {
	if !s.lazy {
		return nil
	}
	starts := make([]int64, len(s.pieces)) // of each piece in the text
	var at int64
	for i, p := range s.pieces {
		starts[i] = at
		at += int64(p.end - p.start)
	}
	size := at
	return func(off, n int64) ([]byte, error) {
		if !s.lazy || off < 0 || n < 0 || off+n > size {
			return nil, fmt.Errorf("base's part %d+%d is not in its text of %d bytes", off, n, size)
		}
		out := make([]byte, 0, n)
		for i := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1; int64(len(out)) < n; i++ {
			p := s.pieces[i]
			from := s.own
			if p.ours {
				from = ours.text
			}
			lo := int64(p.start) + max(0, off-starts[i])
			hi := min(int64(p.end), lo+n-int64(len(out)))
			out = append(out, from[lo:hi]...)
		}
		return out, nil
	}
}
