package jsontree

import (
	"fmt"
	"sync"
	"testing"
)

// A shape's member lookup answers as its Members map does, for members
// and for other keys (a prefix, an extension, one byte changed anywhere,
// the empty key), whether the keys get a perfect hash or not (keys that
// differ only in bytes the hash does not look at fall back to the map).
func TestMemberLookup(t *testing.T) {
	t.Parallel()
	sets := [][]string{
		nil,
		{""},
		{"cell_type", "execution_count", "id", "metadata", "outputs", "source", "attachments"},
		{"aXbcd", "aYbcd", "aZbcd"}, // the same first, middle and last bytes
	}
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("key%d", i))
	}
	sets = append(sets, many)
	for _, keys := range sets {
		s := &Shape{Members: map[string]*Shape{}}
		for _, k := range keys {
			s.Members[k] = &Shape{}
		}
		probes := []string{"", "x", "cell", "cell_typ", "cell_types", "Cell_type", "aWbcd", "key300", "key-1"}
		for _, k := range keys {
			probes = append(probes, k, k+"x", "x"+k)
			for i := range len(k) {
				b := []byte(k)
				b[i] ^= 1
				probes = append(probes, string(b))
			}
		}
		for _, k := range probes {
			got, ok := s.lookup(k)
			want, wok := s.Members[k]
			if got != want || ok != wok {
				t.Errorf("keys %q: lookup(%q) = %p, %v; map %p, %v", keys[:min(len(keys), 5)], k, got, ok, want, wok)
			}
		}
	}
	if x := newMemberIndex(map[string]*Shape{"aXbcd": nil, "aYbcd": nil}); x.slots != nil {
		t.Errorf("keys with the same hash under every seed got a table")
	}
}

// Concurrent parses with one shape, used for the first time, agree (the
// index built at first use is shared; go test -race checks the access).
func TestMemberLookupConcurrent(t *testing.T) {
	t.Parallel()
	s := testShape()
	data := []byte(`{"keep": [{"keep": 1, "x": [2]}], "other": {"a": 1}}`)
	want, err := ParseShaped(data, Limits{}, testShape())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := ParseShaped(data, Limits{}, s)
			if err != nil || !equalNodes(got.Nodes, want.Nodes) {
				t.Errorf("concurrent parse: %v, %+v", err, got)
			}
		})
	}
	wg.Wait()
}

// The notebook-like keys get a table: the lookup does not fall back to
// the map.
func TestMemberIndexBuilt(t *testing.T) {
	t.Parallel()
	m := map[string]*Shape{}
	for _, k := range []string{"cell_type", "execution_count", "id", "metadata", "outputs", "source", "attachments", "nbformat", "nbformat_minor", "cells", "name", "text", "data", "output_type", "ename", "evalue", "traceback"} {
		m[k] = &Shape{}
	}
	if x := newMemberIndex(m); x.slots == nil {
		t.Errorf("no table for %d keys", len(m))
	}
}
