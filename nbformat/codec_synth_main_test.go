package nbformat

// Tests of the generated codec on a synthetic struct: decoding, misfits kept
// byte for byte, and edits written in place.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbstyle"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// The codec of structs a schema change could generate (SynthStruct, whose
// codec internal/cmd/gencodec writes as it writes the generated structs'):
// a member of any kind is decoded, compared, written and converted to
// generic JSON with no handwritten code of its own.

const synthJSON = `{
 "s": "s\u00e9", "i": -1, "f": 0.5, "b": true, "named": "n", "list": ["l"],
 "ps": "p", "pi": 42, "pb": false, "pf": 2.5,
 "pinner": {"flag": true, "name": "pn", "x": [1]}, "inner": {"name": "in", "y": {}},
 "strs": ["a", "b"], "inners": [{"flag": true}, {"name": "i2"}, {}], "ints": [1, -2, 300],
 "floats": [1.5, -0.0], "pstrs": ["x", null], "nested": [["a"], [], ["b", "c"]], "anys": [1, "a", null, {"k": 1}],
 "any": {"k": [1, 2]}, "anyopt": "o", "m": {"a": 1, "b": null, "c": "s", "d": [true]},
 "mi": {"x": 1, "y": -1}, "minner": {"k": {"flag": false, "z": 1}},
 "bundles": {"a.png": {"image/png": "AA==", "text/plain": ["l1\n", "l2"]}},
 "text": ["line\n", "two"], "data": {"application/json": {"a": 1}, "text/html": "<b>"},
 "cell": {"cell_type": "markdown", "source": "m", "metadata": {}},
 "out": {"output_type": "stream", "name": "stdout", "text": "t"},
 "cells": [{"cell_type": "code", "source": "", "execution_count": 3, "metadata": {"tags": ["t"]}, "outputs": [{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}]}, {"cell_type": "raw"}, 5],
 "outs": [{"output_type": "execute_result", "execution_count": null, "data": {}, "metadata": {}}, {"output_type": "nope"}],
 "extra": "e"
}`

// synthDecode decodes data as a SynthStruct, returning the encoder that
// writes it over the tape read.
func synthDecode(t *testing.T, data []byte) (*SynthStruct, *encoder) {
	t.Helper()
	tape, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: 100})
	if err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	src := &source{tape: tape}
	var x SynthStruct
	newDecoder(tape, src).decStruct(&x, jsontree.Root)
	return &x, &encoder{t: tape, src: src, st: &nbstyle.Python, ids: true, decoded: true}
}

// synthWrite writes x as encoder e does, over the original (root) o.
func synthWrite(e *encoder, x codecStruct, o int) ([]byte, error) {
	e.buf = nil
	e.encStruct(x, o, "")
	return e.buf, e.err
}

// synthFresh writes x as a new value (over no original).
func synthFresh(x codecStruct) []byte {
	e := encoder{st: &nbstyle.Python, ids: true}
	e.encStruct(x, -1, "")
	return e.buf
}

func TestSynthDecode(t *testing.T) {
	t.Parallel()
	x, _ := synthDecode(t, []byte(synthJSON))
	got := x
	if got.S != "s\u00e9" || got.I != -1 || got.F != 0.5 || !got.B || got.Named != "n" || len(got.List) != 1 ||
		*got.PS != "p" || *got.PI != 42 || *got.PB || *got.PF != 2.5 || !got.PInner.Flag || *got.PInner.Name != "pn" ||
		*got.Inner.Name != "in" || strings.Join(got.Strs, ",") != "a,b" || len(got.Inners) != 3 || *got.Inners[1].Name != "i2" ||
		fmt.Sprint(got.Ints) != "[1 -2 300]" || len(got.Floats) != 2 || *got.PStrs[0] != "x" || got.PStrs[1] != nil ||
		fmt.Sprint(got.Nested) != "[[a] [] [b c]]" || len(got.Anys) != 4 || got.Anys[2] != nil ||
		got.AnyOpt != "o" || got.M["c"] != "s" || got.MI["y"] != -1 || got.MInner["k"].AdditionalProperties["z"] != 1 ||
		got.Text.String() != "line\ntwo" || got.Cell.Type() != "markdown" || got.Out.Type() != "stream" ||
		len(got.Cells) != 3 || got.Cells[2].Type() != "" || len(got.Outs) != 2 || len(got.Bundles["a.png"].Keys()) != 2 {
		t.Errorf("decoded %+v", got)
	}
	if _, ok := got.AdditionalProperties["extra"]; !ok || len(got.AdditionalProperties) != 1 {
		t.Errorf("AdditionalProperties %v, want extra alone", got.AdditionalProperties)
	}
}

// Every member replaced by every misfit, and repeated: what does not fit
// is kept, and the struct is written back byte for byte.
func TestSynthMisfitsRoundTrip(t *testing.T) {
	t.Parallel()
	data := []byte(synthJSON)
	tape, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, in []byte) {
		x, e := synthDecode(t, in)
		if !e.eqStruct(x, jsontree.Root) {
			t.Errorf("%s: not equal to what it was read from", what)
		}
		out, err := synthWrite(e, x, jsontree.Root)
		if err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: written %s (%v)", what, out, err)
		}
	}
	check("as read", data)
	for j, i := 1, 0; j < len(tape.Nodes); j, i = tape.Next(j), i+1 { // the top-level members
		n := tape.Nodes[j]
		for k, v := range misfits {
			if !testtier.Sample(i + k) {
				continue
			}
			check(fmt.Sprintf("%s = %s", tape.KeyRaw(j), v), splice(data, int(n.Start), int(n.End), v))
			dup := string(data[n.Key:n.End]) + ", " + string(data[n.Key:n.KeyEnd]) + ": " + v
			check(fmt.Sprintf("%s repeated, then %s", tape.KeyRaw(j), v), splice(data, int(n.Key), int(n.End), dup))
		}
	}
}

// Each member changed is written over the original, changing only that
// member, and reads back as the new value.
func TestSynthEdits(t *testing.T) {
	t.Parallel()
	s, n, f, b := "new", 7, 1.25, true
	edits := map[string]func(x *SynthStruct){
		"s":      func(x *SynthStruct) { x.S = "t\n" },
		"i":      func(x *SynthStruct) { x.I = 9 },
		"f":      func(x *SynthStruct) { x.F = -3.5e100 },
		"b":      func(x *SynthStruct) { x.B = false },
		"named":  func(x *SynthStruct) { x.Named = "m" },
		"list":   func(x *SynthStruct) { x.List = SynthList{"a", "b"} },
		"ps":     func(x *SynthStruct) { x.PS = &s },
		"pi":     func(x *SynthStruct) { x.PI = &n },
		"pb":     func(x *SynthStruct) { x.PB = &b },
		"pf":     func(x *SynthStruct) { x.PF = &f },
		"pinner": func(x *SynthStruct) { x.PInner = &SynthInner{Name: &s} },
		"inner":  func(x *SynthStruct) { x.Inner.Flag = true },
		"strs":   func(x *SynthStruct) { x.Strs = append(x.Strs, "c") },
		"inners": func(x *SynthStruct) { x.Inners = x.Inners[:1] },
		"ints":   func(x *SynthStruct) { x.Ints = []int{5} },
		"floats": func(x *SynthStruct) { x.Floats = []float64{0.1} },
		"pstrs":  func(x *SynthStruct) { x.PStrs = []*string{&s} },
		"nested": func(x *SynthStruct) { x.Nested = [][]string{{"z"}} },
		"anys":   func(x *SynthStruct) { x.Anys = []any{true} },
		"any":    func(x *SynthStruct) { x.Any = map[string]any{"k": "v"} },
		"anyopt": func(x *SynthStruct) { x.AnyOpt = nil },
		"m":      func(x *SynthStruct) { x.M = map[string]any{"a": 2} },
		"mi":     func(x *SynthStruct) { x.MI = map[string]int{"x": 1, "w": 3} },
		"minner": func(x *SynthStruct) { x.MInner = map[string]SynthInner{"k": {Flag: true}} },
		"bundles": func(x *SynthStruct) {
			x.Bundles = map[string]MimeBundle{"b.txt": newMimeBundle("text/plain", "t")}
		},
		"text":  func(x *SynthStruct) { x.Text = Text("a\nb") },
		"data":  func(x *SynthStruct) { x.Data = newMimeBundle("text/plain", "d") },
		"cell":  func(x *SynthStruct) { x.Cell = NewRawCell("r") },
		"out":   func(x *SynthStruct) { x.Out = NewStream("stderr", "e") },
		"cells": func(x *SynthStruct) { x.Cells = x.Cells[1:] },
		"outs":  func(x *SynthStruct) { x.Outs = nil },
	}
	data := []byte(synthJSON)
	tape, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for key, edit := range edits {
		x, e := synthDecode(t, data)
		edit(x)
		if e.eqStruct(x, jsontree.Root) {
			t.Errorf("%s: edited, still equal", key)
		}
		out, err := synthWrite(e, x, jsontree.Root)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		j := tape.Lookup(jsontree.Root, key)
		n := tape.Nodes[j]
		// Outside the member's bytes (and the separator before it, for
		// a member removed), nothing changed.
		if !bytes.HasPrefix(out, data[:tape.Nodes[j-1].End]) && !bytes.HasPrefix(out, data[:n.Key]) {
			t.Errorf("%s: bytes before it changed:\n%s", key, out)
		}
		if !bytes.HasSuffix(out, data[n.End:]) {
			t.Errorf("%s: bytes after it changed:\n%s", key, out)
		}
		y, _ := synthDecode(t, out)
		want, _ := Decode(synthFresh(x))
		got, _ := Decode(synthFresh(y))
		wj, _ := encodeCompact(joinTexts(want))
		gj, _ := encodeCompact(joinTexts(got))
		if !jsonEqual(wj, gj) {
			t.Errorf("%s: reads back as\n%s\nwant\n%s", key, gj, wj)
		}
	}
}

// joinTexts returns generic JSON v with every array of strings (a
// multiline text in either form) and raw JSON value decoded and joined,
// so that texts compare by content.
func joinTexts(v any) any {
	switch x := v.(type) {
	case json.RawMessage:
		g, _ := Decode(x)
		return joinTexts(g)
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = joinTexts(e)
		}
		return out
	case []any:
		var b strings.Builder
		out := make([]any, len(x))
		all := len(x) > 0
		for i, e := range x {
			out[i] = joinTexts(e)
			s, ok := e.(string)
			all = all && ok
			b.WriteString(s)
		}
		if all {
			return b.String()
		}
		return out
	}
	return v
}
