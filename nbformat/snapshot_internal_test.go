package nbformat

import (
	"bytes"
	"encoding/json"
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
	in := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		in[filepath.Base(p)] = data
	}
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
		if testing.Short() && n >= 60 {
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

// mutation changes a notebook just read in one way. change says what the
// change does to the notebook's value: 1 changes it (the walk must find
// it edited, and the snapshot differ), 0 keeps it (the walk must find it
// unedited; keep says the snapshot must match too), -1 either.
type mutation struct {
	name   string
	change int
	keep   bool
	apply  func(nb *Notebook, r *rand.Rand) bool // false: nothing to change in this notebook
}

func typedCells[T any](nb *Notebook) []T {
	var out []T
	for _, c := range nb.Cells {
		if x, ok := c.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func allOutputs[T any](nb *Notebook) []T {
	var out []T
	for _, c := range typedCells[*CodeCell](nb) {
		for _, o := range c.Outputs {
			if x, ok := o.(T); ok {
				out = append(out, x)
			}
		}
	}
	return out
}

// one picks an element of list (false when empty).
func one[T any](r *rand.Rand, list []T) (T, bool) {
	var zero T
	if len(list) == 0 {
		return zero, false
	}
	return list[r.IntN(len(list))], true
}

// withCell applies f to a random typed cell matching ok.
func withCell[T any](ok func(T) bool, f func(T)) func(*Notebook, *rand.Rand) bool {
	return func(nb *Notebook, r *rand.Rand) bool {
		c, found := one(r, slices.DeleteFunc(typedCells[T](nb), func(c T) bool { return !ok(c) }))
		if found {
			f(c)
		}
		return found
	}
}

// withOutput applies f to a random output of type T matching ok.
func withOutput[T any](ok func(T) bool, f func(T)) func(*Notebook, *rand.Rand) bool {
	return func(nb *Notebook, r *rand.Rand) bool {
		o, found := one(r, slices.DeleteFunc(allOutputs[T](nb), func(o T) bool { return !ok(o) }))
		if found {
			f(o)
		}
		return found
	}
}

func always[T any](T) bool { return true }

// aKey returns a random key of m.
func aKey[V any](r *rand.Rand, m map[string]V) (string, bool) {
	return one(r, slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}))
}

var mutations = []mutation{
	{"nbformat_minor changed", 1, false, func(nb *Notebook, _ *rand.Rand) bool { nb.NbformatMinor++; return true }},
	{"nbformat_minor changed and restored", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		nb.NbformatMinor++
		nb.NbformatMinor--
		return true
	}},
	{"cell id changed", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, slices.DeleteFunc(slices.Clone(nb.Cells), func(c Cell) bool { return CellIDOf(c) == "" }))
		return ok && SetCellID(c, CellIDOf(c)+"x")
	}},
	{"cell id replaced by an equal string", 0, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, slices.DeleteFunc(slices.Clone(nb.Cells), func(c Cell) bool { return CellIDOf(c) == "" }))
		return ok && SetCellID(c, CellID(strings.Clone(string(CellIDOf(c)))))
	}},
	{"execution count changed in place", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) { *c.ExecutionCount++ })},
	{"execution count replaced by an equal one", 0, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) {
		x := *c.ExecutionCount
		c.ExecutionCount = &x
	})},
	{"execution count set to nil", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) { c.ExecutionCount = nil })},
	{"execution count set", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount == nil }, func(c *CodeCell) { c.ExecutionCount = new(int) })},
	{"collapsed set or flipped", 1, false, withCell(always[*CodeCell], func(c *CodeCell) {
		if c.Metadata.Collapsed == nil {
			c.Metadata.Collapsed = new(bool)
		} else {
			*c.Metadata.Collapsed = !*c.Metadata.Collapsed
		}
	})},
	{"kernelspec set or removed", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			nb.Metadata.Kernelspec = &Kernelspec{Name: "k", DisplayName: "K"}
		} else {
			nb.Metadata.Kernelspec = nil
		}
		return true
	}},
	{"kernelspec name changed in place", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			return false
		}
		nb.Metadata.Kernelspec.Name += "x"
		return true
	}},
	{"two cells swapped", -1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) < 2 {
			return false
		}
		i := r.IntN(len(nb.Cells) - 1)
		nb.Cells[i], nb.Cells[i+1] = nb.Cells[i+1], nb.Cells[i]
		return true
	}},
	{"cell replaced by an equal copy", -1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		i := r.IntN(len(nb.Cells))
		nb.Cells[i] = cloneCell(nb.Cells[i])
		return true
	}},
	{"cell replaced by a new one", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells[r.IntN(len(nb.Cells))] = NewMarkdownCell("a new cell")
		return true
	}},
	{"cells truncated", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells = nb.Cells[:len(nb.Cells)-1]
		return true
	}},
	{"cells truncated and extended back", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		n := len(nb.Cells)
		if n == 0 {
			return false
		}
		nb.Cells = nb.Cells[:n-1]
		nb.Cells = nb.Cells[:n]
		return true
	}},
	{"append within capacity over the last cell", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		n := len(nb.Cells)
		if n == 0 {
			return false
		}
		_ = append(nb.Cells[:n-1], Cell(NewMarkdownCell("over")))
		return true
	}},
	{"cells in a slice of their own", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Cells == nil {
			return false
		}
		nb.Cells = append(slices.Clone(nb.Cells), nil)[:len(nb.Cells)]
		return true
	}},
	{"cells set to nil", -1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Cells == nil {
			return false
		}
		nb.Cells = nil
		return true
	}},
	{"outputs emptied", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) { c.Outputs = c.Outputs[:0] })},
	{"output replaced", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) {
		c.Outputs[len(c.Outputs)-1] = NewStream("stdout", "new output\n")
	})},
	{"output appended", 1, false, withCell(always[*CodeCell], func(c *CodeCell) { c.Outputs = append(c.Outputs, NewStream("stdout", "more\n")) })},
	{"tag changed in place", 1, false, withCell(func(c *CodeCell) bool { return len(c.Metadata.Tags) > 0 }, func(c *CodeCell) { c.Metadata.Tags[0] += "x" })},
	{"tag added", 1, false, withCell(always[*MarkdownCell], func(c *MarkdownCell) { c.Metadata.Tags = append(c.Metadata.Tags, "new-tag") })},
	{"source set", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, typedCells[*CodeCell](nb))
		if !ok {
			return false
		}
		c.Source.Set(c.Source.String() + "x")
		return true
	}},
	{"source set to the text it has", 0, true, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, typedCells[*MarkdownCell](nb))
		if !ok {
			return false
		}
		s := SourceOf(c)
		s.Set(s.String())
		setSource(c, s)
		return true
	}},
	{"stream text set", 1, false, withOutput(always[*Stream], func(s *Stream) { s.Text.Set(s.Text.String() + "more") })},
	{"stream name changed", 1, false, withOutput(always[*Stream], func(s *Stream) { s.Name += "x" })},
	{"error name changed", 1, false, withOutput(always[*ErrorOutput], func(e *ErrorOutput) { e.Ename += "x" })},
	{"traceback line changed in place", 1, false, withOutput(func(e *ErrorOutput) bool { return len(e.Traceback) > 0 }, func(e *ErrorOutput) { e.Traceback[0] += "x" })},
	{"traceback truncated", 1, false, withOutput(func(e *ErrorOutput) bool { return len(e.Traceback) > 0 }, func(e *ErrorOutput) { e.Traceback = e.Traceback[:len(e.Traceback)-1] })},
	{"bundle text set", 1, false, withOutput(func(d *DisplayData) bool { return len(textKeys(d.Data)) > 0 }, func(d *DisplayData) {
		k := textKeys(d.Data)[0]
		s, _ := d.Data.Text(k)
		d.Data.SetText(k, s+"x")
	})},
	{"bundle text set to the text it has", 0, true, withOutput(func(d *DisplayData) bool { return len(textKeys(d.Data)) > 0 }, func(d *DisplayData) {
		k := textKeys(d.Data)[0]
		s, _ := d.Data.Text(k)
		d.Data.SetText(k, s)
	})},
	{"bundle entry deleted", 1, false, withOutput(func(d *ExecuteResult) bool { return d.Data.Len() > 0 }, func(d *ExecuteResult) { d.Data.Delete(d.Data.Keys()[0]) })},
	{"output metadata key set", 1, false, withOutput(always[*DisplayData], func(d *DisplayData) {
		if d.Metadata == nil {
			d.Metadata = map[string]any{}
		}
		d.Metadata["snapshot-test"] = true
	})},
	{"output metadata value replaced", 1, false, withOutput(func(d *DisplayData) bool { return len(d.Metadata) > 0 }, func(d *DisplayData) {
		for k := range d.Metadata {
			d.Metadata[k] = "replaced"
		}
	})},
	{"attachment added", 1, false, withCell(always[*MarkdownCell], func(c *MarkdownCell) {
		if c.Attachments == nil {
			c.Attachments = map[string]MimeBundle{}
		}
		c.Attachments["new.png"] = NewMimeBundle("image/png", "iVBO")
	})},
	{"attachment changed in place", 1, false, withCell(func(c *MarkdownCell) bool { return len(c.Attachments) > 0 }, func(c *MarkdownCell) {
		for _, b := range c.Attachments {
			b.SetText("image/png", "changed")
		}
	})},
	{"notebook metadata key added", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.AdditionalProperties == nil {
			nb.Metadata.AdditionalProperties = map[string]any{}
		}
		nb.Metadata.AdditionalProperties["snapshot-test"] = json.RawMessage(`{"a":[1,2]}`)
		return true
	}},
	{"notebook metadata key deleted", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		k, ok := aKey(r, nb.Metadata.AdditionalProperties)
		if ok {
			delete(nb.Metadata.AdditionalProperties, k)
		}
		return ok
	}},
	{"notebook metadata value replaced by an equal one", 0, false, func(nb *Notebook, r *rand.Rand) bool {
		m := nb.Metadata.AdditionalProperties
		k, ok := aKey(r, m)
		if ok {
			switch v := m[k].(type) {
			case json.RawMessage:
				m[k] = append(json.RawMessage(nil), v...)
			case string:
				m[k] = strings.Clone(v)
			}
		}
		return ok
	}},
	{"notebook metadata value replaced", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		k, ok := aKey(r, nb.Metadata.AdditionalProperties)
		if ok {
			nb.Metadata.AdditionalProperties[k] = json.RawMessage(`["snapshot-test"]`)
		}
		return ok
	}},
	{"notebook metadata map replaced by an equal copy", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		m := nb.Metadata.AdditionalProperties
		if m == nil {
			return false
		}
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		nb.Metadata.AdditionalProperties = c
		return true
	}},
	{"cell metadata key set", 1, false, withCell(always[*CodeCell], func(c *CodeCell) {
		if c.Metadata.AdditionalProperties == nil {
			c.Metadata.AdditionalProperties = map[string]any{}
		}
		c.Metadata.AdditionalProperties["snapshot-test"] = 1.5
	})},
	{"cell metadata value set to the value it has", 0, true, withCell(func(c *CodeCell) bool { return len(c.Metadata.AdditionalProperties) > 0 }, func(c *CodeCell) {
		for k, v := range c.Metadata.AdditionalProperties {
			c.Metadata.AdditionalProperties[k] = v
		}
	})},
	{"unknown cell changed in place", 1, false, withCell(func(c *UnknownCell) bool { return bytes.ContainsAny(c.Raw, "abcdefghijklmnopqrstuvwxyz") }, func(c *UnknownCell) {
		i := bytes.IndexAny(c.Raw, "abcdefghijklmnopqrstuvwxyz")
		if c.Raw[i] != 'q' {
			c.Raw[i] = 'q'
		} else {
			c.Raw[i] = 'r'
		}
	})},
}

func textKeys(b MimeBundle) []string {
	var out []string
	for _, k := range b.Keys() {
		if _, ok := b.Text(k); ok {
			out = append(out, k)
		}
	}
	return out
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

// checkMutated checks nb, read from data and changed by m.
func checkMutated(t *testing.T, what string, nb *Notebook, data []byte, m mutation) {
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
	if testing.Short() {
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
