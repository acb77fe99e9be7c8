package nbformat

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Tests of the hazards of the decoder's unsafe code: stores at the plans'
// offsets (decodeAt), values handed out from blocks (slab), interfaces
// assembled around them (box), and the garbage collector's view of all
// three.

// synthInner and synthStruct stand for structs a schema change could
// generate: every kind of field the plans know, at offsets a misplaced
// store would hit (small fields between larger ones).
type synthInner struct {
	Flag                 bool                   `json:"flag"`
	Name                 *string                `json:"name,omitempty"`
	AdditionalProperties map[string]interface{} `json:"-"`
}

type synthStruct struct {
	B1      bool                  `json:"b1"`
	I8      int8                  `json:"i8"`
	S       string                `json:"s"`
	B2      bool                  `json:"b2"`
	I16     int16                 `json:"i16"`
	B3      bool                  `json:"b3"`
	I32     int32                 `json:"i32"`
	I64     int64                 `json:"i64"`
	I       int                   `json:"i"`
	U       uint                  `json:"u"`
	F       float64               `json:"f"`
	Named   CellID                `json:"named"`
	PS      *string               `json:"ps,omitempty"`
	PI      *int                  `json:"pi"`
	PB      *bool                 `json:"pb,omitempty"`
	PI32    *int32                `json:"pi32"`
	PInner  *synthInner           `json:"pinner,omitempty"`
	Inner   synthInner            `json:"inner"`
	Strs    []string              `json:"strs"`
	Inners  []synthInner          `json:"inners"`
	Ints    []int16               `json:"ints"`
	PStrs   []*string             `json:"pstrs"`
	Nested  [][]string            `json:"nested"`
	Any     any                   `json:"any"`
	AnyOpt  any                   `json:"anyopt,omitempty"`
	M       map[string]any        `json:"m"`
	MI      map[string]int8       `json:"mi"`
	MNamed  map[CellID]string     `json:"mnamed"`
	Bundles map[string]MimeBundle `json:"bundles"`
	Text    MultilineString       `json:"text"`
	Data    MimeBundle            `json:"data"`
	Cell    Cell                  `json:"cell"`
	Out     Output                `json:"out"`
	Cells   []Cell                `json:"cells"`
	Outs    []Output              `json:"outs"`
	Num     json.Number           `json:"num"`
	Raw     json.RawMessage       `json:"raw"`
	Tail    bool                  `json:"tail"`

	AdditionalProperties map[string]interface{} `json:"-"`
}

const synthJSON = `{
 "b1": true, "i8": -128, "s": "s\u00e9", "b2": false, "i16": 32767, "b3": true,
 "i32": -2147483648, "i64": 9223372036854775807, "i": -1, "u": 1, "f": 0.5,
 "named": "n", "ps": "p", "pi": 42, "pb": false, "pi32": 7,
 "pinner": {"flag": true, "name": "pn", "x": [1]}, "inner": {"name": "in", "y": {}},
 "strs": ["a", "b"], "inners": [{"flag": true}, {"name": "i2"}, {}], "ints": [1, -2, 300],
 "pstrs": ["x", "y"], "nested": [["a"], [], ["b", "c"]],
 "any": {"k": [1, 2]}, "anyopt": "o", "m": {"a": 1, "b": null, "c": "s", "d": [true]},
 "mi": {"x": 1, "y": -1}, "mnamed": {"id1": "v"},
 "bundles": {"a.png": {"image/png": "AA==", "text/plain": ["l1\n", "l2"]}},
 "text": ["line\n", "two"], "data": {"application/json": {"a": 1}, "text/html": "<b>"},
 "cell": {"cell_type": "markdown", "source": "m", "metadata": {}},
 "out": {"output_type": "stream", "name": "stdout", "text": "t"},
 "cells": [{"cell_type": "code", "source": "", "execution_count": 3, "metadata": {"tags": ["t"]}, "outputs": [{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}]}, {"cell_type": "raw"}, 5],
 "outs": [{"output_type": "execute_result", "execution_count": null, "data": {}, "metadata": {}}, {"output_type": "nope"}],
 "num": 1, "raw": {"r": 1}, "tail": true, "extra": "e"
}`

// decodePlan decodes object node o of t into the struct ptr points to
// with the decoder of decode.go.
func decodePlan(t *jsontree.Tape, o int, ptr any) *source {
	src := &source{tape: t}
	v := reflect.ValueOf(ptr)
	ti := infoOf(v.Elem().Type())
	newDecoder(t, src).decodeStruct(v.UnsafePointer(), ti.plan, o)
	src.learnOrder(ti, o)
	return src
}

// diffSynthetic decodes data as a T with both decoders and returns their
// differences ("" when the same).
func diffSynthetic[T any](t *testing.T, data []byte) (string, *T) {
	t.Helper()
	tape, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: 100})
	if err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	var want, got T
	osrc := oracleDecode(tape, jsontree.Root, &want)
	src := decodePlan(tape, jsontree.Root, &got)
	if d := cmp.Diff(want, got, exactOptions(tape.Data)); d != "" {
		return "values (-reflective +new):\n" + d, &got
	}
	if cells, outputs := src.recorded(); len(osrc.cells) != cells || len(osrc.outputs) != outputs {
		return fmt.Sprintf("recorded %d cells, %d outputs; the oracle %d, %d", cells, outputs, len(osrc.cells), len(osrc.outputs)), &got
	}
	if a, b := trimOrder(osrc.order), trimOrder(src.order); !cmp.Equal(a, b) {
		return fmt.Sprintf("first objects %v, the oracle's %v (-oracle +ours):\n%s", b, a, cmp.Diff(a, b)), &got
	}
	return "", &got
}

// TestDecodeSyntheticStruct decodes a struct the schema does not have,
// with every kind of field, as the reflective decoder does: a field added
// to the generated structs needs no change to the decoder. Each member is
// then replaced by each misfit, and repeated.
func TestDecodeSyntheticStruct(t *testing.T) {
	data := []byte(synthJSON)
	d, got := diffSynthetic[synthStruct](t, data)
	if d != "" {
		t.Fatal(d)
	}
	// What the JSON says, spelled out (the oracle agrees, but this is what
	// the fields must hold whatever decodes them).
	if !got.B1 || got.I8 != -128 || got.S != "s\u00e9" || got.B2 || got.I16 != 32767 || !got.B3 ||
		got.I32 != -2147483648 || got.I64 != 9223372036854775807 || got.I != -1 || got.Named != "n" ||
		*got.PS != "p" || *got.PI != 42 || *got.PB || *got.PI32 != 7 || !got.PInner.Flag || *got.PInner.Name != "pn" ||
		*got.Inner.Name != "in" || strings.Join(got.Strs, ",") != "a,b" || len(got.Inners) != 3 || *got.Inners[1].Name != "i2" ||
		fmt.Sprint(got.Ints) != "[1 -2 300]" || *got.PStrs[1] != "y" || fmt.Sprint(got.Nested) != "[[a] [] [b c]]" ||
		got.AnyOpt != "o" || got.M["c"] != "s" || got.MI["y"] != -1 || got.MNamed["id1"] != "v" ||
		got.Text.String() != "line\ntwo" || got.Cell.Type() != "markdown" || got.Out.Type() != "stream" ||
		len(got.Cells) != 3 || got.Cells[2].Type() != "" || len(got.Outs) != 2 || !got.Tail {
		t.Errorf("decoded %+v", got)
	}
	// Kinds the decoder does not fill go to AdditionalProperties, as JSON.
	for _, k := range []string{"u", "f", "num", "raw", "extra"} {
		if _, ok := got.AdditionalProperties[k]; !ok {
			t.Errorf("%s not kept in AdditionalProperties: %v", k, got.AdditionalProperties)
		}
	}
	tape, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for j := 1; j < len(tape.Nodes); j = tape.Next(j) { // the top-level members
		n := tape.Nodes[j]
		for _, v := range append(misfits, `-129`, `32768`, `-2147483649`, `[1, "a"]`, `{"a": "b"}`) {
			if d, _ := diffSynthetic[synthStruct](t, splice(data, int(n.Start), int(n.End), v)); d != "" {
				t.Errorf("member %s = %s: %s", tape.KeyRaw(j), v, d)
			}
			dup := string(data[n.Key:n.End]) + ", " + string(data[n.Key:n.KeyEnd]) + ": " + v
			if d, _ := diffSynthetic[synthStruct](t, splice(data, int(n.Key), int(n.End), dup)); d != "" {
				t.Errorf("member %s repeated, then %s: %s", tape.KeyRaw(j), v, d)
			}
		}
	}
}

// TestDecodeWideStruct decodes a struct of more fields than decodeStruct
// tracks in its bit set (64), with repeated keys on both sides of that
// bound.
func TestDecodeWideStruct(t *testing.T) {
	var fields []reflect.StructField
	for i := range 70 {
		typ := reflect.TypeFor[string]()
		if i%3 == 1 {
			typ = reflect.TypeFor[[]string]()
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: typ, Tag: reflect.StructTag(fmt.Sprintf(`json:"f%d"`, i))})
	}
	fields = append(fields, reflect.StructField{Name: extraField, Type: genericMapType, Tag: `json:"-"`})
	typ := reflect.StructOf(fields)
	for _, doc := range []string{
		`{"f0": "a", "f69": "b", "f1": ["x"], "f67": ["y"], "f66": "c"}`,
		`{"f66": "a", "f66": 5, "f3": "b", "f3": 6, "f67": ["a"], "f67": ["b", "c"]}`,
		`{"f66": 5, "f66": "a", "f3": 6, "f3": "b", "f67": [1], "f67": []}`,
		`{"f68": "a", "f68": "b", "f68": null, "f70": 1, "f64": "x", "f63": "y", "f65": "z"}`,
	} {
		tape, err := jsontree.Parse([]byte(doc), jsontree.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want, got := reflect.New(typ), reflect.New(typ)
		oracleDecode(tape, jsontree.Root, want.Interface())
		decodePlan(tape, jsontree.Root, got.Interface())
		if d := cmp.Diff(want.Interface(), got.Interface(), exactOptions(tape.Data)); d != "" {
			t.Errorf("%s (-reflective +new):\n%s", doc, d)
		}
	}
}

// TestBoxIsAny checks that a value boxed from a block is, to Go code, the
// value any(x) gives, and stays so across garbage collections while
// nothing but the interfaces refers to the blocks.
func TestBoxIsAny(t *testing.T) {
	var strs slab[string]
	var raws slab[json.RawMessage]
	var boxed []any
	for i := range 3000 {
		s := fmt.Sprintf("value %d", i)
		boxed = append(boxed, box(&strs, s), box(&raws, json.RawMessage(s)))
	}
	strs, raws = slab[string]{}, slab[json.RawMessage]{} // the interfaces alone keep the blocks
	for range 3 {
		runtime.GC()
	}
	junk := make([][]byte, 0, 1000) // reuse of freed memory would show below
	for range 1000 {
		junk = append(junk, []byte(strings.Repeat("#", 48)))
	}
	for i := range 3000 {
		s := fmt.Sprintf("value %d", i)
		bs, br := boxed[2*i], boxed[2*i+1]
		if bs != any(s) || reflect.TypeOf(bs) != reflect.TypeFor[string]() || fmt.Sprint(bs) != s {
			t.Fatalf("boxed string %d: %#v", i, bs)
		}
		switch x := br.(type) {
		case json.RawMessage:
			if string(x) != s {
				t.Fatalf("boxed raw %d: %q", i, x)
			}
		default:
			t.Fatalf("boxed raw %d has type %T", i, br)
		}
		if v := reflect.ValueOf(br); v.Type() != reflect.TypeFor[json.RawMessage]() || v.CanAddr() || string(v.Bytes()) != s {
			t.Fatalf("boxed raw %d through reflect: %v", i, v)
		}
		if m := map[any]int{any(s): 1}; m[bs] != 1 {
			t.Fatalf("boxed string %d is not the same map key as any(s)", i)
		}
	}
	runtime.KeepAlive(junk)
}

// TestSlab checks the blocks' hand-out: zero values, each once, and
// slices whose appends never reach a neighbour's values.
func TestSlab(t *testing.T) {
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
	if d := cmp.Diff(want, keep); d != "" || *keep.ExecutionCount != 25 || keep.Outputs[0].(*Stream).Text.String() != "out 25" {
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
		if d, _ := diffSynthetic[synthStruct](t, []byte(synthJSON)); d != "" {
			t.Fatal(d)
		}
	}
}
