package jsontree

// Tests of ParseBlock: ParseShaped's tape in one block, which outlives
// collections, and parses with and without pooled scratch.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/zerocopy"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// ParseBlock views the end of a []Node as bytes: sound only while a Node
// holds no pointers (the block is then memory the collector does not
// scan, and bytes written there hide nothing from it).
func TestNodeHoldsNoPointers(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Node]()
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			t.Errorf("Node.%s is a %s: a Node must hold no pointers (see ParseBlock)", f.Name, f.Type)
		}
	}
	if int(typ.Size()) != nodeSize {
		t.Errorf("nodeSize %d, Node is %d bytes", nodeSize, typ.Size())
	}
}

// blockInputs returns the module's testdata notebooks, the corpus's small
// notebooks (when present) and inputs with a byte-order mark, white space
// around the value, a scalar root, and errors.
func blockInputs(t *testing.T) [][]byte {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata notebooks: %v", err)
	}
	var inputs [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	small, medium := corpusFiles(t)
	inputs = append(inputs, small...)
	if len(medium) > 0 {
		inputs = append(inputs, medium[0])
	}
	big, _ := cellsDoc(1000) // past blockCopyMax: copied on its own
	inputs = append(inputs, big)
	for _, s := range []string{
		"\xEF\xBB\xBF{\"keep\": [1, {\"keep\": \"x\"}], \"x\": {\"a\": [1]}}", "  \n[[1], {\"keep\": 2}]\n\n", `"x"`, `1`,
		`{"a": [1, 2,]}`, `{"a": "\u00e9\u0000"}`, `[`, ``, "\xEF\xBB\xBF", `{"a" 1}`, `[1, 2] 3`,
	} {
		inputs = append(inputs, []byte(s))
	}
	return inputs
}

// at returns the address of a slice's array, as a number (compared only).
func at[T any](s []T) uintptr { return reflect.ValueOf(s).Pointer() }

// within reports whether the n bytes at p lie in the n2 bytes at p2.
func within(p uintptr, n int, p2 uintptr, n2 int) bool {
	return p >= p2 && p+uintptr(n) <= p2+uintptr(n2)
}

// overlap reports whether two byte ranges share a byte.
func overlap(a uintptr, n int, b uintptr, n2 int) bool {
	return n > 0 && n2 > 0 && a < b+uintptr(n2) && b < a+uintptr(n)
}

// ParseBlock gives ParseShaped's tape (nodes, byte-order mark, lazy nodes
// and their style) or error, with and without a copy, with spare bytes of
// any size: zero, apart from the nodes and the data (filling them changes
// neither), and, with Copy, the data a copy the input's later changes do
// not reach.
func TestParseBlockIsParseShaped(t *testing.T) {
	t.Parallel()
	shapes := map[string]*Shape{"All": All, "nil": nil, "test": testShape(), "flat": {Flat: true, Elem: &Shape{Flat: true}}}
	spares := map[string]func(int) int{
		"none":  nil,
		"zero":  func(int) int { return 0 },
		"odd":   func(n int) int { return 26*n + 3 },
		"large": func(n int) int { return 100<<10 + n },
	}
	for _, input := range blockInputs(t) {
		for sname, shape := range shapes {
			want, werr := ParseShaped(input, Limits{MaxDepth: 100}, shape)
			for _, copyData := range []bool{false, true} {
				for pname, spare := range spares {
					name := fmt.Sprintf("%q shape %s copy %v spare %s", clip(input), sname, copyData, pname)
					data := bytes.Clone(input)
					tp, room, err := ParseBlock(data, Limits{MaxDepth: 100}, shape, Block{Copy: copyData, Spare: spare})
					if fmt.Sprintf("%#v", err) != fmt.Sprintf("%#v", werr) {
						t.Fatalf("%s: error %#v, ParseShaped's %#v", name, err, werr)
					}
					if err != nil {
						if tp != nil || room != nil {
							t.Fatalf("%s: a tape or spare bytes with an error", name)
						}
						continue
					}
					checkBlock(t, name, tp, want, room, data, input, copyData, spare)
				}
			}
		}
	}
}

func checkBlock(t *testing.T, name string, tp, want *Tape, room, data, input []byte, copyData bool, spare func(int) int) {
	t.Helper()
	if !equalNodes(tp.Nodes, want.Nodes) || cap(tp.Nodes) != len(tp.Nodes) || tp.BOM != want.BOM || tp.LazyStyle != want.LazyStyle || tp.lazy != want.lazy {
		t.Fatalf("%s: tape differs from ParseShaped's", name)
	}
	wantSpare := 0
	if spare != nil {
		wantSpare = spare(len(tp.Nodes))
	}
	if len(room) != wantSpare || cap(room) != wantSpare || bytes.Count(room, []byte{0}) != len(room) {
		t.Fatalf("%s: %d spare bytes of capacity %d (not all zero?), want %d", name, len(room), cap(room), wantSpare)
	}
	if !bytes.Equal(tp.Data, input) {
		t.Fatalf("%s: data differs from the input", name)
	}
	sameArray := len(data) > 0 && &tp.Data[0] == &data[0]
	if sameArray == copyData && len(data) > 0 {
		t.Fatalf("%s: the tape's data is the input's: %v", name, sameArray)
	}
	nodesAt, nodesLen := at(tp.Nodes), len(tp.Nodes)*nodeSize
	roomAt := at(room)
	dataAt := at(tp.Data)
	if overlap(roomAt, len(room), nodesAt, nodesLen) || overlap(roomAt, len(room), dataAt, len(tp.Data)) || overlap(nodesAt, nodesLen, dataAt, len(tp.Data)) {
		t.Fatalf("%s: nodes, spare bytes and data overlap", name)
	}
	if zerocopy.Views && copyData && len(input) <= blockCopyMax && len(input) > 0 && !within(dataAt, len(tp.Data), nodesAt, nodesLen+8+len(room)+len(input)+nodeSize) {
		t.Fatalf("%s: the copy of %d bytes is not in the nodes' block", name, len(input))
	}
	for i := range room {
		room[i] = 0xA5
	}
	if copyData {
		for i := range data {
			data[i] = 'x'
		}
	}
	if !equalNodes(tp.Nodes, want.Nodes) || !bytes.Equal(tp.Data, input) {
		t.Fatalf("%s: filling the spare bytes (or changing the input) changed the tape", name)
	}
}

// The block is one allocation reached by interior pointers only (the
// spare bytes, the copy): each must stay whole while it alone is held,
// through collections that reuse what is free for new values.
func TestParseBlockOutlivesCollections(t *testing.T) {
	input, _ := cellsDoc(20)
	want, err := Parse(input, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	parse := func() (*Tape, []byte) {
		tp, room, err := ParseBlock(bytes.Clone(input), Limits{}, All, Block{Copy: true, Spare: func(n int) int { return 8 * n }})
		if err != nil {
			t.Fatal(err)
		}
		for i := range room {
			room[i] = byte(i)
		}
		return tp, room
	}
	churn := func(size int) {
		for range 3 {
			runtime.GC()
			for range 200 {
				junk := make([]byte, size)
				for i := range junk {
					junk[i] = 0xFF
				}
				runtime.KeepAlive(junk)
			}
		}
	}
	size := len(input) + len(want.Nodes)*nodeSize + 8*len(want.Nodes)
	// Only the spare bytes kept, then only the nodes, then only the copy.
	_, room := parse()
	churn(size)
	for i := range room {
		if room[i] != byte(i) {
			t.Fatalf("spare byte %d changed after collections", i)
		}
	}
	tp, _ := parse()
	nodes := tp.Nodes
	tp = nil
	churn(size)
	if !equalNodes(nodes, want.Nodes) {
		t.Fatal("the nodes changed after collections")
	}
	tp, _ = parse()
	copied := tp.Data
	tp = nil
	churn(size)
	if !bytes.Equal(copied, input) {
		t.Fatal("the copy changed after collections")
	}
	runtime.KeepAlive(tp)
}

// A parse of a small input that finds no pooled scratch (collections
// emptied the pool, and another parse holds lastScratch) allocates about what the input needs: its tape, and a
// first chunk of nodes sized to the input, grown by doubling, not a whole
// chunk of 1024 nodes (28 KiB: 27 times the nodes of a 1 KB notebook).
// Inputs from 1 KB to 32 KB, doubling, of about 40 bytes per node.
func TestParseWithoutPooledScratchSmall(t *testing.T) {
	if testtier.Race {
		t.Skip("-race: sync.Pool drops items at random")
	}
	for size := 1 << 10; size <= 32<<10; size *= 2 {
		var b strings.Builder
		b.WriteString(`{"cells": [`)
		nodes := 2
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteString(",\n  ")
			}
			fmt.Fprintf(&b, `{"cell_type": "code", "metadata": {}, "source": ["x_%d = compute_something(%d)\n", "print(x_%d, 'and its square', x_%d ** 2)"]}`, i, i, i, i)
			nodes += 6
		}
		b.WriteString("]}\n")
		data := []byte(b.String())
		cold, warm := ^uint64(0), ^uint64(0)
		for range 3 {
			runtime.GC()
			runtime.GC()
			lastScratch.Store(nil) // as when another parse holds it
			cold = min(cold, parseAlloc(t, data, nodes))
			warm = min(warm, parseAlloc(t, data, nodes))
		}
		bound := uint64(4*nodes*nodeSize + len(data) + 2<<10)
		t.Logf("%d bytes, %d nodes: %d bytes without the pooled scratch, %d with it", len(data), nodes, cold, warm)
		if cold-warm > bound {
			t.Errorf("%d bytes, %d nodes: a parse without the pooled scratch allocated %d bytes more than with it, want at most %d", len(data), nodes, cold-warm, bound)
		}
	}
}

// A parse of a small input on a heap just collected finds the scratch
// the last one left (lastScratch), and allocates only what it keeps: its
// tape, as when sync.Pool serves it.
func TestScratchKeptAcrossCollections(t *testing.T) {
	if testtier.Race {
		t.Skip("-race: instrumentation allocates")
	}
	for _, cells := range []int{1, 10, 100, 250} {
		data, nodes := cellsDoc(cells)
		tape := roundUp(int(reflect.TypeFor[Tape]().Size())) + roundUp(nodes*nodeSize)
		cold := ^uint64(0)
		for range 3 {
			parseAlloc(t, data, nodes)
			runtime.GC()
			runtime.GC()
			cold = min(cold, parseAlloc(t, data, nodes))
		}
		if cold > uint64(tape) {
			t.Errorf("%d nodes: a parse after two collections allocated %d bytes, want its tape's %d", nodes, cold, tape)
		}
	}
}

// Parses at the same time never share a scratch: each tape is the one a
// parse alone gives, whichever of them holds lastScratch or the pool's.
func TestScratchesOfConcurrentParses(t *testing.T) {
	var docs [][]byte
	var want []*Tape
	for _, cells := range []int{0, 1, 7, 60, 130, 300} {
		data, _ := cellsDoc(cells)
		tp, err := Parse(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		docs, want = append(docs, data), append(want, tp)
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 300 {
				k := (g + i) % len(docs)
				tp, err := Parse(docs[k], Limits{})
				if err == nil && !equalNodes(tp.Nodes, want[k].Nodes) {
					err = fmt.Errorf("goroutine %d, parse %d: the tape of document %d differs", g, i, k)
				}
				if err != nil {
					errs <- err
					return
				}
				if i%50 == 0 {
					runtime.GC()
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzParseBlock: on any input, ParseBlock is ParseShaped (see
// TestParseBlockIsParseShaped), with and without a copy, spare bytes of
// any size.
func FuzzParseBlock(f *testing.F) {
	for _, s := range []string{`{"keep": [1, {"keep": [2]}], "x": {"a": [1]}}`, "\xEF\xBB\xBF[[1], {\"keep\": 2}] ", `{"a": [1, 2,]}`, `"x"`, ``} {
		f.Add([]byte(s), true, uint16(40))
	}
	f.Fuzz(func(t *testing.T, input []byte, copyData bool, perNode uint16) {
		lim := Limits{MaxDepth: 50, MaxNodes: 1000}
		spare := func(n int) int { return int(perNode)*n + int(perNode%7) }
		for _, shape := range []*Shape{All, nil, testShape()} {
			want, werr := ParseShaped(input, lim, shape)
			data := bytes.Clone(input)
			b := Block{Copy: copyData, Spare: spare}
			var dst Tape
			if perNode&1 != 0 { // into a tape of the caller's (Block.Tape)
				b.Tape = &dst
			}
			tp, room, err := ParseBlock(data, lim, shape, b)
			if fmt.Sprintf("%#v", err) != fmt.Sprintf("%#v", werr) {
				t.Fatalf("error %#v, ParseShaped's %#v", err, werr)
			}
			if b.Tape != nil && (err == nil && tp != b.Tape || err != nil && dst.Nodes != nil) {
				t.Fatal("the caller's tape was not the one made, or was written by a failed parse")
			}
			if err == nil {
				checkBlock(t, "fuzz", tp, want, room, data, input, copyData, spare)
			}
		}
	})
}
