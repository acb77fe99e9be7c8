package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
)

// decodedSize is the reference size of a message's outputs: each output
// decoded (Output.Map) and written by encoding/json, as a list (0 when
// one cannot be), as dialog.Message.Preview counts them.
func decodedSize(outs []dialog.Output) int {
	total := 1
	for _, o := range outs {
		m, err := o.Map()
		if err != nil {
			return 0
		}
		b, err := json.Marshal(m)
		if err != nil {
			return 0
		}
		total += len(b) + 1
	}
	return total
}

// readForShow reads data as show does.
func readForShow(t testing.TB, data []byte) *dialog.Dialog {
	t.Helper()
	nb, err := unmarshalOwned(data)
	if err != nil {
		return nil
	}
	d, err := convert.Options{}.ToDialog(nb)
	if err != nil || nb.Nbformat != 4 {
		return nil
	}
	return d
}

// checkSizes fails t where a size from bytes differs from the decoded
// size, and returns how many messages with outputs were sized from bytes
// and how many in all.
func checkSizes(t *testing.T, where string, data []byte, d *dialog.Dialog) (sized, all int) {
	t.Helper()
	sizes := outputSizes(data, d.Messages)
	for i, m := range d.Messages {
		if m.Kind != dialog.Code || len(m.Outputs) == 0 {
			if sizes[i] >= 0 {
				t.Errorf("%s: message %d without outputs sized %d", where, i, sizes[i])
			}
			continue
		}
		all++
		if sizes[i] < 0 {
			if testing.Verbose() {
				t.Logf("%s: /cells/%d: outputs not sized from their bytes", where, i)
			}
			continue
		}
		sized++
		if want := decodedSize(m.Outputs); sizes[i] != want {
			t.Errorf("%s: /cells/%d/outputs: %d bytes from the bytes read, %d decoded", where, i, sizes[i], want)
		}
	}
	return sized, all
}

// The sizes show gives outputs from their bytes are the sizes of their
// decoded forms as encoding/json writes them, and show prints what
// Summary prints from the decoded outputs, on every notebook of the
// corpus and on synthetic output-heavy ones; nearly all outputs are sized
// from their bytes.
func TestOutputSizesMatchPreview(t *testing.T) {
	sized, all, files := 0, 0, 0
	compare := func(where string, data []byte) {
		d := readForShow(t, data)
		if d == nil {
			return
		}
		files++
		s, a := checkSizes(t, where, data, d)
		sized, all = sized+s, all+a
		shown := sizedForShow(d, data)
		for _, w := range []int{0, 40, 120} {
			if got, want := shown.Summary(w, 0), d.Summary(w, 0); got != want {
				t.Errorf("%s: show --width %d differs from Summary of the decoded outputs:\n%s", where, w, nbtest.FirstDiff([]byte(want), []byte(got)))
			}
		}
	}
	for e, data := range corpus.Files(t) {
		compare(e.Path, data)
	}
	kinds := []nbtest.OutputKind{nbtest.Stream, nbtest.Table, nbtest.Image, nbtest.Error}
	for _, lines := range []bool{false, true} {
		h := nbtest.Heavy{Cells: 20, Seed: 5, Kinds: kinds, Outputs: 7, ImageLines: lines}
		data := h.Notebook()
		before := sized
		compare(fmt.Sprintf("heavy (images as lines %v)", lines), data)
		if sized-before != 20 {
			t.Errorf("heavy: %d of 20 code messages sized from bytes", sized-before)
		}
	}
	t.Logf("%d notebooks of version 4: %d of %d code messages with outputs sized from their bytes", files, sized, all)
	if all == 0 || float64(sized) < 0.95*float64(all) {
		t.Errorf("only %d of %d code messages with outputs sized from their bytes", sized, all)
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
	{`{"output_type": "stream", "name": "stdout", "text": ["a", 1]}`, false},
	{`{"output_type": "stream", "name": 5, "text": "x"}`, false},
	{`{"output_type": "stream", "name": ["x"], "text": "x"}`, false},
	{`{"output_type": "display_data", "data": {"image/png": ["aa\n", "bb"], "text/plain": "x", "application/json": {"a": 1.0, "b": "<\u2028>"},
  "application/vnd.foo+json": [1 , 2], "application/json": 3.0, "text/html": 5, "text/markdown": [], "image/svg+xml": "<svg/>"},
  "metadata": {"a": {"b": 1.0}, "c": 1.0, "d": "\u00e9\/<", "e": 12345678901234567890123, "f": -0, "g": 1e20, "h": [1.0], "i": 1e21, "j": 1e-7,
  "k": 0.000001, "l": -0.0, "m": 1.5e300, "n": 123456789.125, "o": null, "p": "x"}}`, false},
	{`{"output_type": "display_data", "data": {"image/png": ["aa\n", "bb"], "text/plain": "x", "application/json": {"a": 1.0, "b": "<\u2028>"},
  "application/vnd.foo+json": [1 , 2], "application/x": 3.0, "text/html": 5, "text/markdown": [], "image/svg+xml": "<svg/>"},
  "metadata": {"a": {"b": 1.0}, "c": 1.0, "d": "\u00e9\/<", "e": 12345678901234567890123, "f": -0, "g": 1e20, "h": [1.0], "i": 1e21, "j": 1e-7,
  "k": 0.000001, "l": -0.0, "m": 1.5e300, "n": 123456789.125, "o": null, "p": "x", "q": -12, "r": 1E+2}}`, true},
	{`{"output_type": "display_data", "data": {}}`, true},
	{`{"output_type": "display_data", "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": null, "metadata": null}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}, "transient": {"display_id": "abc"}}`, true},
	{`{"output_type": "display_data", "data": {"text/plain": ["a", 1]}, "metadata": {}}`, false},
	{`{"output_type": "display_data", "data": {"text/plain": {"a": 1}}, "metadata": {}}`, false},
	{`{"output_type": "display_data", "data": {"text/plain": "a", "text/plain": "bb"}, "metadata": {}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": 1, "a": 22}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": NaN}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": [Infinity]}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": 1e400}}`, false},
	{`{"output_type": "display_data", "data": {}, "metadata": {"a": [1e400, -0, 1.50]}}`, true},
	{`{"output_type": "display_data", "data": {"application/json": {"a": 1, "a": 2}}, "metadata": {}}`, true},
	{`{"output_type": "display_data", "data": [], "metadata": []}`, false},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": null}`, true},
	{`{"output_type": "execute_result"}`, true},
	{`{"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {}, "execution_count": -7}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": 99999999999999999999}`, true},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": 1.0}`, false},
	{`{"output_type": "execute_result", "data": {}, "metadata": {}, "execution_count": "x"}`, false},
	{`{"output_type": "error", "ename": "E", "evalue": "v<", "traceback": ["a\u001b[0m", "b"]}`, true},
	{`{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}`, true},
	{`{"output_type": "error"}`, true},
	{`{"output_type": "error", "ename": null, "evalue": null, "traceback": null}`, false},
	{`{"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["a", 1]}`, false},
	{`{"output_type": "weird", "a": {"b": [1.0, "x", {"c": [1e-7, -0, "\u00e9<"]}], "c": {}}, "text": ["a", "b"], "data": {"text/plain": ["a", 1]}}`, true},
	{`{"output_type": "weird", "a": {"b": 1, "b": 2}}`, false},
	{`{"output_type": 5}`, true},
	{`{"name": "stdout", "text": "x"}`, true},
	{`{"output_type": "stream", "name": "a", "text": "b", "output_type": "error"}`, false},
	{`{"output_type": "stream", "n\u0061me": "a", "text": "b"}`, false},
	{`[1]`, false},
	{`{"output_type": "stream", "name": "stdout", "text": "a"}, {"output_type": "display_data", "data": {}, "metadata": {"x": NaN}}`, false},
}

// Outputs of every shape size as decoded: escapes, characters
// encoding/json escapes, numbers it spells otherwise, lines joined,
// metadata and JSON data kept as bytes, members a reader fills in; the
// ones marked sized must be sized from their bytes, the others may fall
// back to decoding but never give another number.
func TestOutputSizeCases(t *testing.T) {
	for _, c := range outputSizeCases {
		data := outputNotebook(c.outputs)
		d := readForShow(t, data)
		if d == nil {
			t.Errorf("%s: not read", c.outputs)
			continue
		}
		sized, _ := checkSizes(t, c.outputs, data, d)
		if c.sized && sized != 1 {
			t.Errorf("%s: not sized from its bytes", c.outputs)
		}
	}
}

// FuzzOutputSize: wherever an output is sized from its bytes, the size is
// that of its decoded form.
func FuzzOutputSize(f *testing.F) {
	for _, c := range outputSizeCases {
		f.Add(c.outputs)
	}
	f.Fuzz(func(t *testing.T, output string) {
		data := outputNotebook(output)
		d := readForShow(t, data)
		if d == nil {
			return
		}
		checkSizes(t, output, data, d)
		if shown := sizedForShow(d, data); shown.Summary(0, 0) != d.Summary(0, 0) {
			t.Errorf("%s: show differs from Summary", output)
		}
	})
}
