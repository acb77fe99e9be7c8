package nbformat

// Tests of the decoder's blocks: values handed out from them (slab), and
// the garbage collector's view of them.

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSlab checks the blocks' hand-out: zero values, each once, and
// slices whose appends never reach a neighbour's values.
func TestSlab(t *testing.T) {
	t.Parallel()
	var s slab[int]
	seen := map[*int]bool{}
	for i := range 1000 {
		p := s.next()
		if *p != 0 || seen[p] {
			t.Fatalf("value %d: %d, handed out before: %v", i, *p, seen[p])
		}
		seen[p] = true
		*p = i + 1
	}
	s.reserve(10)
	a, b := s.take(3), s.take(4)
	if len(a) != 3 || cap(a) != 3 || len(b) != 4 || cap(b) != 4 {
		t.Fatalf("take: len/cap %d/%d, %d/%d", len(a), cap(a), len(b), cap(b))
	}
	a = append(a, 99)
	if b[0] != 0 || a[3] != 99 {
		t.Fatalf("appending to one slice wrote into the next: %v %v", a, b)
	}
	if e := s.take(0); e == nil || len(e) != 0 {
		t.Fatalf("take(0) = %#v, want an empty slice that is not nil", e)
	}
}

// TestDecodedCellOutlivesNotebook keeps one cell of a notebook (its block
// holds the notebook's other code cells) and drops the rest: after
// garbage collections and new allocations, the cell still holds what was
// decoded.
func TestDecodedCellOutlivesNotebook(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`)
	for i := range 50 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"cell_type": "code", "id": "c%d", "source": ["x = %d\n"], "execution_count": %d, "metadata": {"collapsed": true, "k%d": "v"}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "out %d"}]}`, i, i, i, i, i)
	}
	sb.WriteString("]}")
	data := []byte(sb.String())
	keep := func() *CodeCell {
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		return nb.Cells[25].(*CodeCell)
	}()
	for range 3 {
		runtime.GC()
	}
	junk := make([][]byte, 0, 10000)
	for range 10000 {
		junk = append(junk, []byte(strings.Repeat("#", 64)))
	}
	nb, err := Unmarshal(data) // the same cell, decoded afresh
	if err != nil {
		t.Fatal(err)
	}
	want := nb.Cells[25].(*CodeCell)
	if d := cmp.Diff(want, keep, ignoreProvenance, cmp.Comparer(func(a, b MultilineString) bool { return a.String() == b.String() }), cmp.Comparer(func(a, b MimeBundle) bool { return len(a.Keys()) == len(b.Keys()) })); d != "" || *keep.ExecutionCount != 25 || keep.Outputs[0].(*Stream).Text.String() != "out 25" {
		t.Errorf("kept cell changed (-fresh +kept):\n%s", d)
	}
	runtime.KeepAlive(junk)
}

// TestDecodeUnderGCCheckmark runs the differential checks while the
// garbage collector runs all the time, with GODEBUG=gccheckmark=1 (after
// each cycle the runtime marks again, the world stopped, and crashes if
// the concurrent mark missed a reachable object): a block freed while a
// decoded value still points into it, or memory reused under a value,
// crashes the child or shows as a difference from the reflective decoder.
func TestDecodeUnderGCCheckmark(t *testing.T) {
	if os.Getenv("NBFORMAT_GC_CHILD") == "" {
		if testing.Short() {
			t.Skip("runs a child process (-short)")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestDecodeUnderGCCheckmark$", "-test.v")
		cmd.Env = append(os.Environ(), "NBFORMAT_GC_CHILD=1", "GODEBUG=gccheckmark=1", "GOGC=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestDecodeUnderGCCheckmark") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	files := testdataNotebooks(t)
	done := make(chan bool)
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer close(done)
	for range 20 {
		for name, data := range files {
			if d := diffDecoders(data); d != "" {
				t.Fatalf("%s: %s", name, d)
			}
		}
	}
}
