package convert_test

// Tests of outputs kept as read through the dialog layer: bounded memory,
// decoded when looked at, equality as the decoded outputs'.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// outputHeavy returns a deterministic notebook of n code cells, each with
// a stream, an execute_result with an HTML table and a base64 PNG stored
// as lines (nbtest.Heavy), and a markdown cell before each.
func outputHeavy(n int) []byte {
	return nbtest.Heavy{Cells: n, Seed: uint64(n), ImageLines: true}.Notebook()
}

// dialogMarshalTo writes d to w as ipynb check does: ToNotebook, then
// nbformat's MarshalTo.
func dialogMarshalTo(w io.Writer, d *convert.File) error {
	nb, err := convert.ToNotebook(d, convert.WriteOptions{})
	if err != nil {
		return err
	}
	return nbformat.MarshalOptions{}.MarshalTo(w, nb)
}

// The dialog layer of a round trip (ToDialog and MarshalTo over a
// notebook read, what ipynb check does after reading) keeps outputs as
// they were read: beyond what nbformat itself allocates to heal and write
// the notebook (Heal, MarshalTo), it allocates a few bytes per cell, not
// per byte of output, at every size. Before, it decoded every output into
// generic maps and copied them into its snapshot: 5.3 bytes allocated per
// byte of file (38 kB per code and markdown cell pair); now 0.108–0.111
// (770–800 bytes per pair) from 0.7 to 5.7 MB. The bound, 0.15, is the
// largest measured + 35%.
func TestDialogOutputsLazyScale(t *testing.T) {
	sizes := []int{50, 100, 200, 400}
	if !testtier.Full() {
		sizes = sizes[:3]
	}
	if nb, err := nbformat.Unmarshal(outputHeavy(2)); err == nil { // warm up
		d, _ := convert.ToDialog(nb, convert.ReadOptions{})
		dialogMarshalTo(io.Discard, d)
	}
	var prevAlloc, prevSize uint64
	for _, n := range sizes {
		data := outputHeavy(n)
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		out.Grow(len(data))
		nbAlloc := allocatedBytes(func() {
			cp := *nb
			if _, err = (nbformat.HealOptions{KeepBOM: true}).Heal(&cp); err == nil {
				err = nbformat.MarshalOptions{}.MarshalTo(&out, &cp)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		out.Reset()
		alloc := allocatedBytes(func() {
			d, e := convert.ToDialog(nb, convert.ReadOptions{})
			if err = e; err == nil {
				err = dialogMarshalTo(&out, d)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("%d cells: the dialog round trip changed the notebook", n)
		}
		own := uint64(0)
		if alloc > nbAlloc {
			own = alloc - nbAlloc
		}
		size := uint64(len(data))
		perByte := float64(own) / float64(size)
		t.Logf("%d cells, %d bytes: nbformat's heal and write allocated %d bytes, the dialog layer %d more (%.3f per byte of file, %d per cell)",
			n, size, nbAlloc, own, perByte, own/uint64(2*n))
		if perByte > 0.15 {
			t.Errorf("%d cells: the dialog layer allocated %.3f bytes per byte of file (at most 0.15: outputs are not decoded)", n, perByte)
		}
		if prevAlloc > 0 {
			ratio := float64(own) / float64(prevAlloc)
			if growth := float64(size) / float64(prevSize); ratio > 1.25*growth {
				t.Errorf("%d cells: the file grew %.2fx, the dialog layer's allocations %.2fx", n, growth, ratio)
			}
		}
		prevAlloc, prevSize = own, size
	}
}

// Looking inside an output read decodes it then, as it was read: the
// generic JSON is what the notebook holds (texts joined), equal to the
// output made from that JSON, and a second look gets a map of its own.
func TestOutputDecodedWhenLookedAt(t *testing.T) {
	t.Parallel()
	data := outputHeavy(2)
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := d.Messages[1]
	if m.Kind != dialog.Code || len(m.Outputs) != 3 {
		t.Fatalf("message %v", m)
	}
	for i, want := range []string{"stream", "execute_result", "display_data"} {
		if m.Outputs[i].Type() != want {
			t.Errorf("output %d: type %q, want %q", i, m.Outputs[i].Type(), want)
		}
		if m.Outputs[i].Source() == nil {
			t.Errorf("output %d read from a file has no source", i)
		}
	}
	g, err := m.Outputs[2].Map()
	if err != nil {
		t.Fatal(err)
	}
	png, _ := g["data"].(map[string]any)["image/png"].(string)
	if _, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(png, "\n", "")); err != nil || len(png) < 8000 {
		t.Errorf("image/png decoded as %d bytes of text (%v), want the joined lines", len(png), err)
	}
	if !m.Outputs[2].Equal(dialog.NewOutput(g)) || !dialog.NewOutput(g).Equal(m.Outputs[2]) {
		t.Error("an output read differs from the output made from its Map")
	}
	g["output_type"] = "changed"
	if again, _ := m.Outputs[2].Map(); again["output_type"] != "display_data" {
		t.Error("changing a Map changed the output")
	}
	if m.Outputs[0].Equal(m.Outputs[1]) {
		t.Error("a stream equals an execute_result")
	}
	// The same notebook read twice: its outputs compare equal without
	// being the same values; a changed one differs.
	d2, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range d2.Messages[1].Outputs {
		if !o.Equal(m.Outputs[i]) {
			t.Errorf("output %d read twice differs", i)
		}
	}
	if d2.Messages[1].Outputs[0].Equal(d.Messages[3].Outputs[0]) {
		t.Error("two different streams compare equal")
	}
}

// BenchmarkDialogLayer is ToDialog + MarshalTo over a notebook read, the
// dialog layer of ipynb check, on an output-heavy notebook.
func BenchmarkDialogLayer(b *testing.B) {
	data := outputHeavy(200)
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var out bytes.Buffer
	out.Grow(len(data))
	for b.Loop() {
		out.Reset()
		d, err := convert.ToDialog(nb, convert.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := dialogMarshalTo(&out, d); err != nil {
			b.Fatal(err)
		}
	}
}

// Output.Equal agrees with comparing the decoded outputs (go-cmp, NaN
// equal to NaN, nil equal to empty) on every pair it is asked about: each
// corpus output against itself read again (where OutputSource.Same must
// answer without decoding), against Python nbformat's rewrite of the file
// (other spelling, same values), and against the next output of the file.
// Same is never true where the decoded outputs differ. The reference
// compares JSON values: the decoded outputs with the raw JSON inside them
// (output metadata, JSON data) decoded by encoding/json and every number
// as a float64 (the corpus holds no integer past 2^53 there), by go-cmp.
func TestOutputEqualityMatchesDecoded(t *testing.T) {
	t.Parallel()
	canon := corpus.CanonicalDir(t)
	ref := func(a, b dialog.Output) bool {
		x, errX := a.Map()
		y, errY := b.Map()
		return errX == nil && errY == nil && cmp.Equal(valueOf(x), valueOf(y), cmpopts.EquateNaNs(), cmpopts.EquateEmpty())
	}
	pairs, fast, canonPairs := 0, 0, 0
	check := func(where string, a, b dialog.Output) {
		t.Helper()
		want := ref(a, b)
		if got := a.Equal(b); got != want {
			t.Errorf("%s: Equal %v, the decoded outputs compare %v\n%v\n%v", where, got, want, a, b)
		}
		if sa, sb := a.Source(), b.Source(); sa != nil && sb != nil && sa.Same(sb) {
			fast++
			if !want {
				t.Errorf("%s: Same, but the decoded outputs differ", where)
			}
		}
		pairs++
	}
	for e, data := range corpus.Sample(t) {
		d1, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			continue
		}
		d2, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var dc *convert.File
		if c, err := os.ReadFile(filepath.Join(canon, e.Path)); err == nil {
			dc, _ = convert.Unmarshal(c, convert.ReadOptions{})
		}
		var prev dialog.Output
		for i, m := range d1.Messages {
			for j, o := range m.Outputs {
				where := fmt.Sprintf("%s /cells/%d/outputs/%d", e.Path, i, j)
				twin := d2.Messages[i].Outputs[j]
				before := fast
				check(where+" (read twice)", o, twin)
				if fast == before && o.Source() != nil { // (a prompt's reply is made, not read)
					t.Errorf("%s: read twice, Same does not know the output equal", where)
				}
				if dc != nil && i < len(dc.Messages) && j < len(dc.Messages[i].Outputs) {
					check(where+" (Python's rewrite)", o, dc.Messages[i].Outputs[j])
					canonPairs++
				}
				if prev.Source() != nil {
					check(where+" (the previous output)", prev, o)
				}
				prev = o
			}
		}
	}
	t.Logf("%d pairs compared (%d against Python's rewrites), %d known equal without decoding", pairs, canonPairs, fast)
	if canonPairs == 0 {
		t.Error("no output compared with Python's rewrite")
	}
}

// valueOf is a generic JSON value with its raw JSON decoded by
// encoding/json and its numbers as float64.
func valueOf(v any) any {
	switch x := v.(type) {
	case json.RawMessage:
		var d any
		if json.Unmarshal(x, &d) != nil {
			return string(x)
		}
		return valueOf(d)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = valueOf(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = valueOf(e)
		}
		return out
	case int:
		return float64(x)
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}
