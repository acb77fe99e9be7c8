package nbformat

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// The oracle of these tests is the reflective walk (encoder.equal), which
// decided "unedited" before the snapshot did (and still decides whenever
// the snapshot finds a difference): the snapshot may say "different" where
// the walk says "equal" (slow, not wrong), never "unedited" where the walk
// says "edited".

// walkSaysUnedited is the reflective walk's answer.
func walkSaysUnedited(nb *Notebook) bool {
	e := nb.newEncoder()
	v := reflectDocument(nb)
	return e.equal(v, infoOf(v.Type()), jsontree.Root)
}

// snapSaysUnedited is the snapshot's answer.
func snapSaysUnedited(nb *Notebook) bool {
	return len(nb.filled) == 0 && nb.src.snap.matches(&nb.Document)
}

// snapshotInputs returns notebooks of many writers and odd shapes: the
// module's testdata, the fuzz seeds kept in testdata/fuzz, hand-made odd
// files, and the shared corpus (a part of it with -short).
func snapshotInputs(t *testing.T) map[string][]byte {
	in := testdataNotebooks(t)
	for _, dir := range []string{"FuzzUnmarshal", "FuzzLazyVerdicts", "FuzzHeal", "FuzzValidate"} {
		seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", dir, "*"))
		for _, p := range seeds {
			if data, ok := fuzzSeed(t, p); ok {
				in[dir+"/"+filepath.Base(p)] = data
			}
		}
	}
	for i, s := range []string{
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`,
		// Duplicate keys, escaped keys and strings (decoded into strings
		// of their own, not the input's), odd numbers.
		`{"nbformat":4,"nbformat_minor":4,"metadata":{"k\u0065y":"v\n","key":[1,2],"a":1e400,"b":-0,"c":NaN,"d":{"x":null}},` +
			`"cells":[{"cell_type":"code","id":"a\u0062","metadata":{"tags":["t\u0031","t2"],"collapsed":true,"x\u0079":"\u00e9"},"source":"s","execution_count":7,` +
			`"outputs":[{"output_type":"error","ename":"E\u001b","evalue":"v","traceback":["\u001b[0m","b"]},` +
			`{"output_type":"display_data","data":{"text/plain":["a\n","b"],"image/png":"iVBO","application/json":{"a":[1]}},"metadata":{"isolated":true,"m\u0065":{"w":1}}}]},` +
			`{"cell_type":"markdown","metadata":{},"source":["x"],"attachments":{"a.png":{"image/png":"iVBO"}}},` +
			`{"cell_type":"weird","x":1},{"cell_type":"raw","metadata":{"format":"text/x"},"source":""}],"nbformat":4}`,
		"\xef\xbb\xbf{\"nbformat\": 4, \"nbformat_minor\": 2, \"metadata\": {\"a\": NaN, \"a\": [1e400, -0]}, \"cells\": [{\"cell_type\": \"code\", \"source\": [], \"outputs\": [{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": \"x\"}, {\"output_type\": \"mystery\"}]}]}",
		`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "x"}, "worksheets": [{"cells": [{"cell_type": "heading", "level": 1, "source": "T"}], "metadata": {}}]}`,
		`{"nbformat": 4, "metadata": {"kernelspec": {"name": "p", "display_name": "P", "extra": 1}, "authors": [{"name": "a", "x": 2}]}, "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": "", "execution_count": "not a number"}]}`,
	} {
		in["odd"+strconv.Itoa(i)] = []byte(s)
	}
	n := 0
	for e, data := range corpus.Files(t) {
		if !testtier.Full() && n >= 60 {
			break
		}
		n++
		in["corpus/"+e.Path] = data
	}
	return in
}

// fuzzSeed reads a []byte seed of a fuzz corpus file.
func fuzzSeed(t *testing.T, path string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n[]byte(")
	if !ok {
		return nil, false
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimSpace(rest), ")"))
	if err != nil {
		return nil, false
	}
	return []byte(s), true
}

// TestSnapshotAgreesWithWalk checks that every notebook read is recorded
// and matches its snapshot, and that the walk finds it unedited (what the
// snapshot's "unedited" rests on: the notebook as decoded is written as
// the bytes read).
func TestSnapshotAgreesWithWalk(t *testing.T) {
	read := 0
	for name, data := range snapshotInputs(t) {
		nb, err := UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			continue
		}
		read++
		if !nb.src.snap.ok {
			t.Errorf("%s: no snapshot", name)
			continue
		}
		if !snapSaysUnedited(nb) {
			t.Errorf("%s: the notebook just read does not match its snapshot", name)
		}
		if !walkSaysUnedited(nb) {
			t.Errorf("%s: the walk finds the notebook just read edited", name)
		}
		if nb.Edited() != (nb.dropBOM && nb.src.tape.BOM) {
			t.Errorf("%s: Edited() = %v", name, nb.Edited())
		}
	}
	if read < 10 {
		t.Fatalf("only %d inputs read", read)
	}
}

// TestSnapshotMutations changes notebooks of every kind in every kind of
// place the walk can reach (see mutations) and checks the snapshot
// against the walk: never "unedited" where the walk says "edited", a
// difference found for every change of value, a match where the mutation
// keeps the memory the same; and that Edited, Marshal and Validate give
// what the walk says they give.
func TestSnapshotMutations(t *testing.T) {
	applied := make([]int, len(mutations))
	for name, data := range snapshotInputs(t) {
		if _, err := Unmarshal(data); err != nil {
			continue
		}
		for mi, m := range mutations {
			r := rand.New(rand.NewPCG(uint64(mi), uint64(len(data))))
			nb, _ := Unmarshal(data)
			if !m.apply(nb, r) {
				continue
			}
			applied[mi]++
			checkMutated(t, name+": "+m.name, nb, data, m)
		}
	}
	for mi, m := range mutations {
		if applied[mi] == 0 {
			t.Errorf("%s: applied to no notebook", m.name)
		}
	}
}

// FuzzSnapshotMutations applies every mutation to any notebook the input
// reads as (the checks of TestSnapshotMutations). Interesting inputs are
// kept in testdata/fuzz/FuzzSnapshotMutations.
func FuzzSnapshotMutations(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := UnmarshalOptions{MaxDepth: 100}
		nb, err := opts.Unmarshal(data)
		if err != nil {
			return
		}
		if !snapSaysUnedited(nb) || !walkSaysUnedited(nb) {
			t.Fatalf("the notebook just read is not unedited (snapshot %v, walk %v)", snapSaysUnedited(nb), walkSaysUnedited(nb))
		}
		for mi, m := range mutations {
			nb, _ := opts.Unmarshal(data)
			if m.apply(nb, rand.New(rand.NewPCG(uint64(mi), uint64(len(data))))) {
				checkMutated(t, m.name, nb, data, m)
			}
		}
	})
}

// checkMutated checks nb, read from data and changed by m.
func checkMutated(t testing.TB, what string, nb *Notebook, data []byte, m mutation) {
	t.Helper()
	walk, snap := walkSaysUnedited(nb), snapSaysUnedited(nb)
	switch {
	case snap && !walk:
		t.Errorf("%s: the snapshot says unedited, the walk edited", what)
	case m.change == 1 && (walk || snap):
		t.Errorf("%s: a change of value not seen (walk %v, snapshot %v)", what, walk, snap)
	case m.change == 0 && !walk:
		t.Errorf("%s: the walk finds a change that keeps the value", what)
	case m.keep && !snap:
		t.Errorf("%s: the snapshot finds a change that keeps the memory", what)
	}
	bom := nb.dropBOM && nb.src.tape.BOM
	if nb.Edited() != (!walk || bom) {
		t.Errorf("%s: Edited() = %v, the walk says unedited = %v", what, nb.Edited(), walk)
	}
	out, err := Marshal(nb)
	if walk && (err != nil || !bytes.Equal(out, data)) {
		t.Errorf("%s: unedited, but Marshal does not give the bytes read (%v)", what, err)
	}
	if tape, err := nb.tape(); err == nil && (tape == nb.src.tape) != walk {
		t.Errorf("%s: Validate reads the source's tape: %v, the walk says unedited = %v", what, tape == nb.src.tape, walk)
	}
}

// TestSnapshotOfCopies checks copies of a notebook: a copy of the
// Notebook value shares the source and the values, and so matches; the
// copy convert's readCopy makes (cells in a slice of their own) too.
func TestSnapshotOfCopies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	cp := *nb
	cp.Cells = slices.Clone(nb.Cells)
	if !snapSaysUnedited(&cp) || cp.Edited() {
		t.Errorf("a copy of a notebook just read: snapshot %v, Edited %v", snapSaysUnedited(&cp), cp.Edited())
	}
	cp.Cells[0] = NewCodeCell("x")
	if snapSaysUnedited(&cp) || !cp.Edited() || nb.Edited() {
		t.Errorf("a copy changed: snapshot %v, Edited %v (the original: %v)", snapSaysUnedited(&cp), cp.Edited(), nb.Edited())
	}
}

// TestSnapshotAfterCollection replaces decoded values by others, lets the
// collector free what was replaced, and allocates many values of the
// same size (which may land where the replaced ones were) to put in their
// place: the snapshot must still never say unedited where the walk says
// edited. Strings that are not the input's (unescaped ones, here a cell
// id, a metadata value and a key) are compared by their address; the
// snapshot keeps them alive, so none of the new strings can be where
// they were.
func TestSnapshotAfterCollection(t *testing.T) {
	data := []byte(`{"nbformat":4,"nbformat_minor":5,"metadata":{"k\u0065y":"v\n","n":12},` +
		`"cells":[{"cell_type":"code","id":"a\u0062","metadata":{"x\u0079":"\u00e9\u00e9"},"source":"s","execution_count":7,"outputs":[]}]}`)
	n := 20000
	if !testtier.Full() {
		n = 2000
	}
	fresh := func() (*Notebook, *CodeCell) {
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if !snapSaysUnedited(nb) || !walkSaysUnedited(nb) {
			t.Fatal("the notebook just read is not unedited")
		}
		return nb, nb.Cells[0].(*CodeCell)
	}
	check := func(what string, nb *Notebook) {
		t.Helper()
		if snapSaysUnedited(nb) && !walkSaysUnedited(nb) {
			t.Fatalf("%s: the snapshot says unedited, the walk edited", what)
		}
	}
	addr := func(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

	// A string of its own (the id, unescaped): replaced, collected, and
	// strings of its length put in its place.
	nb, c := fresh()
	old := addr(string(c.ID))
	if inInputOf(nb, old) {
		t.Fatal("the unescaped id is the input's")
	}
	c.ID = "zz"
	runtime.GC()
	runtime.GC()
	for i := range n {
		s := string([]byte{'a' + byte(i%26), 'a' + byte(i/26%26)})
		c.ID = CellID(s)
		check("id "+s, nb)
		if addr(s) == old {
			t.Fatalf("a new string is where the id replaced was (%d strings in)", i)
		}
	}

	// A metadata value that is a string of its own, and a key.
	nb, _ = fresh()
	m := nb.Metadata.AdditionalProperties
	m["key"] = "w\n"
	delete(m, "n")
	runtime.GC()
	for i := range n {
		s := string([]byte{'v', byte(i % 256)})
		m["key"] = s
		k := string([]byte{'k', 'e', 'y' - byte(i%2)})
		m[k] = 12
		check("metadata", nb)
		delete(m, k)
	}

	// A pointer: replaced, collected, and pointers to other numbers (and
	// to the same number) put in its place.
	nb, c = fresh()
	c.ExecutionCount = new(int)
	runtime.GC()
	runtime.GC()
	for i := range n {
		x := new(int)
		*x = i % 10
		c.ExecutionCount = x
		check("execution count "+strconv.Itoa(*x), nb)
	}

	// The cells' array: replaced, collected, and arrays of one cell put
	// in its place.
	nb, c = fresh()
	nb.Cells = []Cell{NewCodeCell("x")}
	runtime.GC()
	runtime.GC()
	for i := range n {
		cells := make([]Cell, 1)
		if i%2 == 0 {
			cells[0] = c
		} else {
			cells[0] = NewCodeCell("y")
		}
		nb.Cells = cells
		check("cells", nb)
	}
}

// inInputOf reports whether address a is in the bytes nb was read from.
func inInputOf(nb *Notebook, a uintptr) bool {
	in := nb.src.snap.input
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(in)))
	return a >= lo && a < lo+uintptr(len(in))
}

// TestSnapshotNotUsedWhenFilled checks a notebook whose memory is as read
// but that Heal has made write differently: a struct lacking a required
// member is filled (see fillMissing), so the notebook is edited though
// its memory matches the snapshot, and the walk decides.
func TestSnapshotNotUsedWhenFilled(t *testing.T) {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "x", "execution_count": null}]}`)
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if nb.Edited() || !nb.src.snap.matches(&nb.Document) {
		t.Fatal("the notebook just read is edited")
	}
	nb.fillMissing(locateProblems(nb.src.tape))
	if len(nb.filled) == 0 {
		t.Fatal("nothing to fill")
	}
	if !nb.src.snap.matches(&nb.Document) {
		t.Fatal("filling changed the notebook's memory")
	}
	if !nb.Edited() || walkSaysUnedited(nb) {
		t.Errorf("a filled notebook: Edited %v, the walk says unedited %v", nb.Edited(), walkSaysUnedited(nb))
	}
	out, err := Marshal(nb)
	if err != nil || !bytes.Contains(out, []byte(`"outputs": []`)) {
		t.Errorf("the missing outputs are not written: %v\n%s", err, out)
	}
}

// TestSnapshotOfLargeNotebook checks a snapshot past the scratch buffer:
// in several chunks, one of them holding an array larger than a chunk
// (the cells' interface words), whose end a change is found in.
func TestSnapshotOfLargeNotebook(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`)
	n := snapChunk/16 + 1000
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"cell_type": "markdown", "id": "c%d", "metadata": {"k": %d}, "source": "%d"}`, i, i, i)
	}
	b.WriteString("]}")
	data := []byte(b.String())
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	s := &nb.src.snap
	if !s.ok || len(s.more) < 2 || s.size < 2*snapChunk {
		t.Fatalf("a snapshot of %d bytes in %d chunks", s.size, 1+len(s.more))
	}
	if !snapSaysUnedited(nb) || nb.Edited() {
		t.Fatal("the notebook just read is edited")
	}
	for _, i := range []int{0, n / 2, n - 1} {
		m := nb.Cells[i].(*MarkdownCell).Metadata.AdditionalProperties
		v := m["k"]
		m["k"] = -1
		if snapSaysUnedited(nb) || !nb.Edited() {
			t.Errorf("cell %d changed: not seen", i)
		}
		m["k"] = i // an equal value in a box of its own: the walk decides
		if nb.Edited() {
			t.Errorf("cell %d set to the value it had: edited", i)
		}
		m["k"] = v
		if !snapSaysUnedited(nb) {
			t.Errorf("cell %d changed back: the snapshot does not match", i)
		}
	}
	nb.Cells = nb.Cells[:n-1]
	if snapSaysUnedited(nb) || !nb.Edited() {
		t.Error("the last cell removed: not seen")
	}
}
