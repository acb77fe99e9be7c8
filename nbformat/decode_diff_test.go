package nbformat

// Differential tests of the decoder against the reflective oracle, on the
// corpus, mutations of the testdata and fuzzed input.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// Differential tests: the decoder (decode.go) against the reflective
// decoder it replaced (decode_oracle_test.go), on the same tape. The
// values must be deep-equal, strings and raw JSON must share the input
// exactly where the oracle's do, and the cells, outputs and first objects
// recorded must be the same nodes.

// exactOptions compares decoded values exactly: MultilineString and
// MimeBundle field by field (not by their text, as their Equal methods
// do), floats by their bits, and strings and byte slices by their content
// and by whether (and where) they share data, the tape's bytes.
func exactOptions(data []byte) cmp.Options {
	sameStr := func(a, b string) bool {
		return a == b && zerocopy.StringOffset(a, data) == zerocopy.StringOffset(b, data)
	}
	sameBytes := func(a, b []byte) bool {
		return bytes.Equal(a, b) && (a == nil) == (b == nil) && zerocopy.Offset(a, data) == zerocopy.Offset(b, data) && cap(a) == cap(b)
	}
	sameText := func(a, b MultilineString) bool {
		return sameBytes(a.raw, b.raw) && sameStr(a.text, b.text) && a.form == b.form &&
			(a.lines == nil) == (b.lines == nil) && slices.Equal(a.lines, b.lines)
	}
	return cmp.Options{
		// (The provenance of cells and outputs, which the oracle does not
		// record, is compared by diffSources.)
		ignoreProvenance,
		cmp.Comparer(sameStr),
		cmp.Comparer(func(a, b json.RawMessage) bool { return sameBytes(a, b) }),
		cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }),
		cmp.Comparer(sameText),
		cmp.Comparer(func(a, b MimeBundle) bool {
			if a.b == nil || b.b == nil {
				return a.b == b.b
			}
			x, y := a.b, b.b
			if !sameBytes(x.raw, y.raw) || x.dirty != y.dirty || len(x.entries) != len(y.entries) ||
				(x.index == nil) != (y.index == nil) || !mapsEqual(x.index, y.index) {
				return false
			}
			for i := range x.entries {
				e, f := x.entries[i], y.entries[i]
				if !sameStr(e.mime, f.mime) || !sameText(e.text, f.text) || !sameBytes(e.json, f.json) || e.isJSON != f.isJSON {
					return false
				}
			}
			return true
		}),
	}
}

// ignoreProvenance leaves out of a comparison the provenance of cells and
// outputs (see nodeRef).
var ignoreProvenance = cmpopts.IgnoreUnexported(CodeCell{}, MarkdownCell{}, RawCell{}, UnknownCell{}, ExecuteResult{}, DisplayData{}, Stream{}, ErrorOutput{}, UnknownOutput{})

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// trimOrder drops the trailing zeros of a source's order (its length is
// not part of what it records).
func trimOrder(o []int32) []int32 {
	for len(o) > 0 && o[len(o)-1] == 0 {
		o = o[:len(o)-1]
	}
	return o
}

// diffDecoders unmarshals data and decodes its tape again with the
// oracle, returning the differences ("" when the same, or when data does
// not unmarshal).
func diffDecoders(data []byte) string {
	nb, err := UnmarshalOptions{MaxDepth: 200}.Unmarshal(data)
	if err != nil {
		return ""
	}
	t := nb.src.tape
	var doc Document
	osrc := oracleDecode(t, jsontree.Root, &doc)
	if d := cmp.Diff(doc, nb.Document, exactOptions(t.Data)); d != "" {
		return "values (-reflective +new):\n" + d
	}
	return diffSources(osrc, nb.src, doc.Cells, nb.Cells)
}

// diffSources compares what the two decoders recorded of the cells
// (ocells and ncells, decoded from the same nodes) and their outputs: the
// node each was read from (the oracle's by value, the decoder's in its
// provenance), and the first object of each struct.
func diffSources(o *oracleSource, n *source, ocells, ncells []Cell) string {
	for i := range ocells {
		oj, ok1 := o.cells[ocells[i]]
		nj, ok2 := originIn(n, ncells[i])
		if int(oj) != nj || ok1 != ok2 {
			return fmt.Sprintf("cell %d: node %d %v, the oracle's %d %v", i, nj, ok2, oj, ok1)
		}
		oc, _ := ocells[i].(*CodeCell)
		nc, _ := ncells[i].(*CodeCell)
		if oc == nil {
			continue
		}
		for k := range oc.Outputs {
			oj, ok1 := o.outputs[oc.Outputs[k]]
			nj, ok2 := originIn(n, nc.Outputs[k])
			if int(oj) != nj || ok1 != ok2 {
				return fmt.Sprintf("cell %d output %d: node %d %v, the oracle's %d %v", i, k, nj, ok2, oj, ok1)
			}
		}
	}
	if a, b := trimOrder(o.order), trimOrder(n.order); !slices.Equal(a, b) {
		return fmt.Sprintf("first objects %v, the oracle's %v", b, a)
	}
	return ""
}

// TestDecodeMatchesReflectiveCorpus compares the decoders on every corpus
// notebook.
func TestDecodeMatchesReflectiveCorpus(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		if d := diffDecoders(data); d != "" {
			t.Errorf("%s: %s", e.Path, d)
		}
		n++
	}
	t.Logf("%d notebooks", n)
}

// testdataNotebooks returns the module's testdata notebooks.
func testdataNotebooks(t testing.TB) map[string][]byte {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if len(paths) == 0 {
		t.Fatal("no testdata notebooks")
	}
	files := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = data
	}
	return files
}

// misfits are JSON values of every kind, to put where the schema expects
// something else: each fits some fields and not others.
var misfits = []string{
	`null`, `true`, `false`, `0`, `-7`, `1.5`, `1e3`, `NaN`, `9223372036854775808`, `-9223372036854775809`,
	`128`, `40000`, `3000000000`, `""`, `"x"`, `"\u00e9\n"`, `"code"`, `"stream"`,
	`[]`, `["a", "b\n"]`, `[1]`, `[null]`, `[{}]`, `[{"output_type": "stream", "name": "stdout", "text": "x"}]`,
	`{}`, `{"a": 1}`, `{"text/plain": "x", "application/json": {"a": 1}}`, `{"cell_type": "markdown", "source": []}`,
}

// TestDecodeMatchesReflectiveMutations puts each misfit in place of each
// member of the testdata notebooks, spells its key with an escape, and
// repeats it with a misfit after it, comparing the decoders each time.
func TestDecodeMatchesReflectiveMutations(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	step := 1
	if testing.Short() {
		step = 5
	}
	runs := 0
	for name, data := range testdataNotebooks(t) {
		tape, err := jsontree.Parse(data, jsontree.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var members []int
		for j := range tape.Nodes {
			if tape.Nodes[j].Key >= 0 {
				members = append(members, j)
			}
		}
		for m := 0; m < len(members); m += step {
			j := members[m]
			n := tape.Nodes[j]
			check := func(what string, mutated []byte) {
				runs++
				if d := diffDecoders(mutated); d != "" {
					t.Errorf("%s, member %s %s: %s", name, tape.KeyRaw(j), what, d)
				}
			}
			for _, v := range misfits {
				check("= "+v, splice(data, int(n.Start), int(n.End), v))
				dup := string(data[n.Key:n.End]) + ", " + string(data[n.Key:n.KeyEnd]) + ": " + v
				check("repeated, then "+v, splice(data, int(n.Key), int(n.End), dup))
			}
			if n.KeyEnd-n.Key > 2 {
				key := data[n.Key+1 : n.KeyEnd-1]
				esc := fmt.Sprintf(`"\u%04x%s"`, key[0], key[1:])
				check("spelled "+esc, splice(data, int(n.Key), int(n.KeyEnd), esc))
			}
		}
	}
	t.Logf("%d mutated notebooks", runs)
}

// splice returns data with data[i:j] replaced by s.
func splice(data []byte, i, j int, s string) []byte {
	out := append([]byte{}, data[:i]...)
	out = append(out, s...)
	return append(out, data[j:]...)
}

// FuzzDecodeMatchesReflective compares the decoders on any input.
func FuzzDecodeMatchesReflective(f *testing.F) {
	for _, data := range testdataNotebooks(f) {
		f.Add(data)
	}
	for _, s := range []string{
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`,
		`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":1,"execution_count":null,"source":["a","b"],"outputs":[{"output_type":"stream","text":"x"},{"output_type":"execute_result","execution_count":2,"data":{"text/plain":["1"]},"metadata":{}}],"outputs":[]}]}`,
		`{"nbformat":4,"cells":[{"cell_type":"markdown","attachments":{"a.png":{"image/png":"AA=="}},"metadata":{"tags":["x"],"jupyter":{"source_hidden":true}}},{"cell_type":"raw","metadata":{"format":"text/x"}},{"cell_type":"heading"},7]}`,
		`{"nbformat":4,"metadata":{"kernelspec":{"name":"p","display_name":"P"},"language_info":{"name":"python","codemirror_mode":{"name":"ipython","version":3}},"authors":[{"name":"a"},{"name":1}],"orig_nbformat":3}}`,
		`{"nbformat":4,"cells":[{"cell_type":"code","metadata":{"execution":{"iopub.status.busy":"2024"},"collapsed":false,"scrolled":"auto","name":"n"},"outputs":[{"output_type":"error","ename":"E","evalue":"v","traceback":["t"]},{"output_type":"display_data","data":{},"metadata":{"a":null}},{"output_type":"x"}]}]}`,
		"{\"nbformat\": 4, \"n\\u0062format_minor\": 2, \"metadata\": {\"a\": NaN, \"a\": [1e400, -0]}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := diffDecoders(data); d != "" {
			t.Fatal(d)
		}
	})
}
