package main

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// splitConflicts and splitConflictsOwned give what the one-pass split
// that copied every side gave (splitConflictsCopying, kept as the
// oracle): the same sides, texts and line runs, labels and errors; the
// owned split leaves ours' text in the input's place, and makes theirs'
// and the base's when asked, from it.
func FuzzSplitConflictsOwned(f *testing.F) {
	f.Add([]byte("a\n<<<<<<< x\nb\n||||||| y\nc\n=======\nd\n>>>>>>> z\ne"))
	f.Add([]byte("a\n<<<<<<< x\nb\n||||||| y\nc\n=======\nd\n>>>>>>> z\ne\n<<<<<<< x\nf\n=======\n>>>>>>> z\n"))
	f.Add([]byte("<<<<<<<<< x\r\nb\r\n=========\r\n>>>>>>>>> z\r\n"))
	f.Add([]byte("{\n=======\n}\n"))
	f.Add([]byte("{\n}\n"))
	f.Add(conflictedText(300))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := splitConflictsCopying(bytes.Clone(data))
		got, err := splitConflicts(bytes.Clone(data))
		in := bytes.Clone(data)
		owned, ownedErr := splitConflictsOwned(in)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || fmt.Sprint(ownedErr) != fmt.Sprint(wantErr) {
			t.Fatalf("errors %v and %v, want %v", err, ownedErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		for _, cs := range []*conflictSides{got, owned} {
			if cs.hunks != want.hunks || cs.markerSize != want.markerSize || cs.oursLabel != want.oursLabel ||
				cs.baseLabel != want.baseLabel || cs.theirsLabel != want.theirsLabel {
				t.Fatalf("split %+v, want %+v", cs, want)
			}
			for i, s := range []side{cs.ours, cs.theirs, cs.base} {
				w := []side{want.ours, want.theirs, want.base}[i]
				text := s.text
				if s.lazy {
					text = s.take(&cs.ours) // (the owned split's theirs and base)
				}
				if !bytes.Equal(text, w.text) || (text == nil) != (w.text == nil) {
					t.Fatalf("side %d: %q, want %q", i, text, w.text)
				}
				if want.hunks > 0 && (s.n != w.n || !slices.Equal(s.runs, w.runs)) {
					t.Fatalf("side %d: %d lines %v, want %d %v", i, s.n, s.runs, w.n, w.runs)
				}
			}
		}
		if owned.hunks > 0 && len(owned.ours.text) > 0 && &owned.ours.text[0] != &in[0] {
			t.Fatal("the owned split's ours is not in the input's place")
		}
		if owned.hunks == 0 && !bytes.Equal(in, data) {
			t.Fatal("the owned split changed an input without markers")
		}
	})
}

// splitConflictsCopying is splitConflicts as it was: one pass, every side
// copied into a text of the input's size.
func splitConflictsCopying(data []byte) (*conflictSides, error) {
	cs := &conflictSides{}
	const (
		outside = iota
		inOurs
		inBase
		inTheirs
	)
	state, opened := outside, 0
	allBase := true
	// Each side is at most the input: one allocation each.
	for _, s := range []*side{&cs.ours, &cs.theirs} {
		s.text = make([]byte, 0, len(data))
	}
	// The base side is made only while every conflict so far has a base
	// section (it is let go at the first that has none).
	base := side{text: make([]byte, 0, len(data))}
	n := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		n++
		kind, size, label := markerKind(line, cs.markerSize)
		switch {
		case kind == '<' && state == outside:
			if cs.markerSize == 0 {
				cs.markerSize = size
				cs.oursLabel = label
			}
			state, opened = inOurs, n
			cs.hunks++
			continue
		case kind == '|' && state == inOurs:
			if cs.hunks == 1 {
				cs.baseLabel = label
			}
			state = inBase
			continue
		case kind == '=' && (state == inOurs || state == inBase):
			if state == inOurs {
				allBase = false
				base = side{}
			}
			state = inTheirs
			continue
		case kind == '>' && state == inTheirs:
			if cs.hunks == 1 {
				cs.theirsLabel = label
			}
			state = outside
			continue
		case kind != 0:
			what := map[byte]string{'<': "opening", '|': "base", '=': "separator", '>': "closing"}[kind]
			where := map[int]string{outside: "outside a conflict", inOurs: "in ours' part", inBase: "in the base's part", inTheirs: "in theirs' part"}[state]
			return nil, &markerError{Line: n, Msg: fmt.Sprintf("conflict %s marker %s (conflict opened at line %d)", what, where, opened)}
		}
		switch state {
		case outside:
			cs.ours.add(line, n)
			cs.theirs.add(line, n)
			if allBase {
				base.add(line, n)
			}
		case inOurs:
			cs.ours.add(line, n)
		case inBase:
			if allBase {
				base.add(line, n)
			}
		case inTheirs:
			cs.theirs.add(line, n)
		}
	}
	if state != outside {
		return nil, &markerError{Line: n, Msg: fmt.Sprintf("the conflict opened at line %d is not closed at the end of the file", opened)}
	}
	if cs.hunks > 0 && allBase {
		cs.base = base
	}
	return cs, nil
}
