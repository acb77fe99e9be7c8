package convert_test

// Tests that the size an output read tells is json.Marshal's of its generic
// form, and that Summary does not decode outputs.

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// marshalledSize is the reference size of an output: its generic form
// (Output.Map) as json.Marshal writes it; ok false when it cannot.
func marshalledSize(o dialog.Output) (int, bool) {
	m, err := o.Map()
	if err != nil {
		return 0, false
	}
	b, err := json.Marshal(m)
	if err != nil {
		return 0, false
	}
	return len(b), true
}

// readDialog reads a notebook as the ipynb command does (nil when it is
// not read).
func readDialog(data []byte) *dialog.Dialog {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return nil
	}
	d, err := convert.ToDialog(nb, convert.ReadOptions{})
	if err != nil {
		return nil
	}
	return d.Dialog
}

// decodedCopy returns d with every output replaced by an output made in
// memory from its decoded form: Preview then sizes them by encoding them.
func decodedCopy(t *testing.T, d *dialog.Dialog) *dialog.Dialog {
	t.Helper()
	c := *d
	c.Messages = make([]*dialog.Message, len(d.Messages))
	for i, m := range d.Messages {
		cp := *m
		cp.Outputs = nil
		for _, o := range m.Outputs {
			g, err := o.Map()
			if err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
			cp.Outputs = append(cp.Outputs, dialog.NewOutput(g))
		}
		c.Messages[i] = &cp
	}
	return &c
}

// checkSizes fails t where an output read tells a size other than
// json.Marshal's of its generic form (or tells one where json.Marshal
// fails), and returns how many outputs told their size and how many
// there are.
func checkSizes(t *testing.T, where string, d *dialog.Dialog) (sized, all int) {
	t.Helper()
	for i, m := range d.Messages {
		for k, o := range m.Outputs {
			if o.Source() == nil {
				continue // made in memory (a reply the reader builds)
			}
			s := o.Source()
			all++
			n, ok := s.Size()
			if !ok {
				if testing.Verbose() {
					t.Logf("%s: /cells/%d/outputs/%d: not sized without decoding", where, i, k)
				}
				continue
			}
			sized++
			want, wok := marshalledSize(o)
			if !wok || n != want {
				t.Errorf("%s: /cells/%d/outputs/%d: Size %d, json.Marshal of its Map %d (ok %v)", where, i, k, n, want, wok)
			}
		}
	}
	return sized, all
}

// The size an output read tells is that of its generic form as
// json.Marshal writes it, and Summary of a dialog read is what it is with
// every output decoded, on every notebook of the corpus (all versions)
// and on synthetic output-heavy ones; nearly all outputs tell their size.
func TestOutputSizesMatchMarshal(t *testing.T) {
	t.Parallel()
	sized, all, files := 0, 0, 0
	compare := func(where string, data []byte) {
		d := readDialog(data)
		if d == nil {
			return
		}
		files++
		s, a := checkSizes(t, where, d)
		sized, all = sized+s, all+a
		decoded := decodedCopy(t, d)
		for _, w := range []int{0, 40, 120} {
			if got, want := d.Summary(w, 0), decoded.Summary(w, 0); got != want {
				t.Errorf("%s: Summary(%d) differs from Summary of the decoded outputs:\n%s", where, w, nbtest.FirstDiff([]byte(want), []byte(got)))
			}
		}
	}
	for e, data := range corpus.Sample(t) {
		compare(e.Path, data)
	}
	kinds := []nbtest.OutputKind{nbtest.Stream, nbtest.Table, nbtest.Image, nbtest.Error}
	for _, lines := range []bool{false, true} {
		h := nbtest.Heavy{Cells: 20, Seed: 5, Kinds: kinds, Outputs: 7, ImageLines: lines}
		before, beforeAll := sized, all
		compare(fmt.Sprintf("heavy (images as lines %v)", lines), h.Notebook())
		if sized-before != all-beforeAll || all == beforeAll {
			t.Errorf("heavy: %d of %d outputs sized", sized-before, all-beforeAll)
		}
	}
	t.Logf("%d notebooks: %d of %d outputs sized without decoding", files, sized, all)
	if all == 0 || float64(sized) < 0.99*float64(all) {
		t.Errorf("only %d of %d outputs sized without decoding", sized, all)
	}
}

// outputNotebook is a version 4.5 notebook whose one code cell has the
// outputs given as JSON text.
func outputNotebook(outputs string) []byte {
	return []byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {},
 "outputs": [` + outputs + `], "source": "x"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
}

// outputSizeCases are outputs of many shapes (see TestOutputSizeCases).
var outputSizeCases = []struct {
	outputs string
	sized   bool
}{
	{`{"output_type": "stream", "name": "stdout", "text": ["a\n", "b"]}`, true},
	{`{"output_type": "stream", "name": "stdout", "text": "tab\tq\"b\\s\/ <&> \u00e9\u2028\u2029 é ☕ \ud83d\ude00 \ud800 \udc00x \ud800\u0041 \u0001\u001f\u007f\b\f\r"}`, true},
	{`{"output_type": "stream", "name": "stdout", "text": ["line\u2028\n", "<b>&amp;</b>\n", "\u0000"]}`, true},
	{`{"output_type": "stream", "name": "stdout", "text": []}`, true},
	{`{"output_type": "stream", "text": "x"}`, true},
	{`{"output_type": "stream"}`, true},
	{`{"output_type": "stream", "name": null, "text": null}`, true},
	{`{"output_type": "stream", "name": "stdout", "text": 5, "extra": {"a": [1, 2.0, "<"]}, "x2": 1.0, "x3": [1,  2], "x4": true, "x5": false}`, true},
	{`{"output_type": "stream", "name": "stdout", "text": ["a", 1]}`, true},
	{`{"output_type": "stream", "name": 5, "text": "x"}`, true},
	{`{"output_type": "stream", "name": ["x"], "text": "x"}`, true},
	{`{"output_type": "display_data", "data": {"image/png": ["aa\n", "bb"], "text/plain": "x", "application/json": {"a": 1.0, "b": "<\u2028>"},
  "application/vnd.foo+json": [1 , 2], "application/json": 3.0, "text/html": 5, "text/markdown": [], "image/svg+xml": "<svg/>"},
  "metadata": {"a": {"b": 1.0}, "c": 1.0, "d": "\u00e9\/<", "e": 12345678901234567890123, "f": -0, "g": 1e20, "h": [1.0], "i": 1e21, "j": 1e-7,
  "k": 0.000001, "l": -0.0, "m": 1.5e300, "n": 123456789.125, "o": null, "p": "x"}}`, true},
	{`{"output_type": "display_data", "data": {"image/png": ["aa\n", "bb"], "text/plain": "x", "application/json": {"a": 1.0, "b": "<\u2028>"},
  "application/vnd.foo+json": [1 , 2], "application/x": 3.0, "text/html": 5, "text/markdown": [], "image/svg+xml": "<svg/>"},
  "metadata": {"a": {"b": 1.0}, "c": 1.0, "d": "\u00e9\/<", "e": 12345678901234567890123, "f": -0, "g": 1e20, "h": [1.0], "i": 1e21, "j": 1e-7,
  "k": 0.000001, "l": -0.0, "m": 1.5e300, "n": 123456789.125, "o": null, "p": "x", "q": -12, "r": 1E+2}}`, true},
	{`{"output_type": "display_data", "data": {}}`, true},
	{`{"output_type": "display_data", "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": null, "metadata": null}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}, "transient": {"display_id": "abc"}}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": ["a", 1]}, "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": {"a": 1}}, "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": "a", "text/plain": "bb"}, "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": 1, "a": 22}}`, true},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": NaN}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": [Infinity]}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": 1e400}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": [1e400, -0, 1.50]}}`, true},
	{`{"output_type": "display_data", "data": {"application/json": {"a": 1, "a": 2}}, "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": [], "metadata": []}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": null}`, true},
	{`{"output_type": "execute_result"}`, true},
	{`{"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {}, "execution_count": -7}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": 99999999999999999999}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": 1.0}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": "x"}`, true},
	{`{"output_type": "error", "ename": "E", "evalue": "v<", "traceback": ["a\u001b[0m", "b"]}`, true},
	{`{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}`, true},
	{`{"output_type": "error"}`, true},
	{`{"output_type": "error", "ename": null, "evalue": null, "traceback": null}`, true},
	{`{"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["a", 1]}`, true},
	{`{"output_type": "weird", "a": {"b": [1.0, "x", {"c": [1e-7, -0, "\u00e9<"]}], "c": {}}, "text": ["a", "b"], "data": {"text/plain": ["a", 1]}}`, true},
	{`{"output_type": "weird", "a": {"b": 1, "b": 2}}`, false},
	{`{"output_type": 5}`, true},
	{`{"name": "stdout", "text": "x"}`, true},
	{`{"output_type": "stream", "name": "a", "text": "b", "output_type": "error"}`, true},
	{`{"output_type": "stream", "n\u0061me": "a", "text": "b"}`, true},
	{`[1]`, false},
	{`{"output_type": "stream", "name": "stdout", "text": "a"}, {"output_type": "display_data", "data": {}, "metadata": {"x": NaN}}`, false},
}

// Outputs of every shape size as json.Marshal writes their generic form:
// escapes, characters encoding/json escapes, numbers it spells otherwise,
// lines joined, metadata and JSON data kept as bytes, members a reader
// fills in, values of the wrong type; the ones marked sized must tell
// their size, the others may leave it to decoding but never tell another
// number.
func TestOutputSizeCases(t *testing.T) {
	t.Parallel()
	for _, c := range outputSizeCases {
		d := readDialog(outputNotebook(c.outputs))
		if d == nil {
			t.Errorf("%s: not read", c.outputs)
			continue
		}
		sized, all := checkSizes(t, c.outputs, d)
		if c.sized && sized != all {
			t.Errorf("%s: %d of %d outputs sized", c.outputs, sized, all)
		}
	}
}

// FuzzOutputSize: wherever an output read tells its size, it is that of
// its generic form as json.Marshal writes it, and Summary is as with the
// outputs decoded.
func FuzzOutputSize(f *testing.F) {
	for _, c := range outputSizeCases {
		f.Add(c.outputs)
	}
	f.Fuzz(func(t *testing.T, output string) {
		d := readDialog(outputNotebook(output))
		if d == nil {
			return
		}
		checkSizes(t, output, d)
		for _, m := range d.Messages {
			for _, o := range m.Outputs {
				if _, err := o.Map(); err != nil {
					return // decodedCopy needs every output decoded
				}
			}
		}
		if got, want := d.Summary(0, 0), decodedCopy(t, d).Summary(0, 0); got != want {
			t.Errorf("%s: Summary %q, with outputs decoded %q", output, got, want)
		}
	})
}

// undecodedSource is an output read, hiding its Size: Preview decodes it
// to size it, as it did before outputs read told their size.
type undecodedSource struct{ src dialog.OutputSource }

func (u undecodedSource) Type() string                        { return u.src.Type() }
func (u undecodedSource) Decode() (map[string]any, error)     { return u.src.Decode() }
func (u undecodedSource) Same(other dialog.OutputSource) bool { return u.src.Same(other) }
func (u undecodedSource) Size() (int, bool)                   { return 0, false }

// summaryAllocs returns the bytes Summary of d allocates.
func summaryAllocs(d *dialog.Dialog) uint64 {
	d.Summary(0, 0) // warm up
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d.Summary(0, 0)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Summary (and Preview, String) of an output-heavy dialog read from a
// file sizes its outputs without decoding them: it allocates about one
// byte per byte of file (the text of one output at a time, which
// nbformat's accessors copy), at every size, where decoding and encoding
// every output (as Preview did before outputs told their size) allocates
// 5.4. The bound, 1.5 bytes per byte and a third of what decoding
// allocates, fails on the old code.
func TestSummaryDoesNotDecodeOutputs(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, n := range []int{50, 100, 200} {
		data := nbtest.Heavy{Cells: n, Seed: uint64(n), ImageLines: true}.Notebook()
		d := readDialog(data)
		if d == nil {
			t.Fatalf("%d cells: not read", n)
		}
		old := *d
		old.Messages = make([]*dialog.Message, len(d.Messages))
		for i, m := range d.Messages {
			cp := *m
			cp.Outputs = make([]dialog.Output, len(m.Outputs))
			for k, o := range m.Outputs {
				cp.Outputs[k] = dialog.SourcedOutput(undecodedSource{o.Source()})
			}
			old.Messages[i] = &cp
		}
		if d.Summary(0, 0) != old.Summary(0, 0) {
			t.Fatalf("%d cells: Summary differs from Summary with outputs decoded", n)
		}
		got, decoding := summaryAllocs(d), summaryAllocs(&old)
		perByte, oldPerByte := float64(got)/float64(len(data)), float64(decoding)/float64(len(data))
		t.Logf("%d cells, %d bytes: Summary allocates %.2f bytes per byte of file, %.2f decoding the outputs", n, len(data), perByte, oldPerByte)
		if perByte > 1.5 || 3*perByte > oldPerByte {
			t.Errorf("%d cells: Summary allocates %.2f bytes per byte of file (%.2f decoding the outputs): at most 1.5 and a third", n, perByte, oldPerByte)
		}
	}
}
