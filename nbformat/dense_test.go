package nbformat_test

// Tests of notebooks dense in small values: linear memory and work, raw
// metadata kept as bytes, MaxValues and canonical output.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// The defaults UnmarshalOptions documents for MaxDepth and MaxValues ("0
// means …").
const (
	documentedMaxDepth  = 10000
	documentedMaxValues = 1 << 26
)

// denseNotebook returns a notebook whose bulk is one value made of n
// small values (nbtest.Dense, as internal/cmd/benchgen -dense writes them).
func denseNotebook(kind string, n int) []byte { return nbtest.Dense(kind, n) }

// allocations returns the bytes and the number of allocations f makes.
func allocations(f func()) (bytes, count uint64) {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, b.Mallocs - a.Mallocs
}

// Memory on files dense in small values: reading (Unmarshal + Validate) and
// writing (Marshal, unedited and after editing a cell) allocate a small
// multiple of the file, the same multiple at every size (linear), with a
// number of allocations that does not grow with the values. Before lazy
// generic JSON, reading {"x":[0,0,…]} allocated about 40 bytes per byte of
// file (a 28-byte tape node and a 16-byte interface per 2-byte value).
func TestDenseValuesScale(t *testing.T) {
	sizes := []int{1 << 17, 1 << 18, 1 << 19, 1 << 20}
	if !testtier.Full() {
		sizes = sizes[:3]
	}
	// The first read of a process builds what every read shares.
	if nb, err := nbformat.Unmarshal(denseNotebook("meta", 1)); err != nil || nbformat.Validate(nb) != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"meta", "cell", "output", "objects", "wide", "deep", "source", "text"} {
		t.Run(kind, func(t *testing.T) {
			var prevRead, prevWrite uint64
			for _, n := range sizes {
				fixed := uint64(1 << 20)
				if kind == "deep" {
					// Nesting stays within MaxDepth; the parser's stack of open
					// containers (tens of bytes a level) is then bounded by it.
					n /= 128
					fixed = 4 << 20
				}
				data := denseNotebook(kind, n)
				var nb *nbformat.Notebook
				var err error
				readB, readN := allocations(func() {
					if nb, err = nbformat.Unmarshal(data); err == nil {
						err = nbformat.Validate(nb)
					}
				})
				if err != nil {
					t.Fatalf("%d values: %v", n, err)
				}
				var out []byte
				writeB, writeN := allocations(func() {
					if kind == "source" {
						nb.Cells[0].(*nbformat.CodeCell).ExecutionCount = new(int)
					} else {
						nb.Cells[0].(*nbformat.CodeCell).Source.Set("edited")
					}
					out, err = nbformat.Marshal(nb)
				})
				if err != nil {
					t.Fatal(err)
				}
				want := strings.Replace(string(data), `"source":"x"`, `"source":"edited"`, 1)
				if kind == "source" {
					want = strings.Replace(string(data), `"execution_count":1,"id"`, `"execution_count":0,"id"`, 1)
				}
				if string(out) != want {
					t.Fatalf("%d values: the edit changed more than it should", n)
				}
				size := uint64(len(data))
				t.Logf("%d values, %d bytes: read %.2f B/B (%d allocs), write %.2f B/B (%d allocs)",
					n, size, float64(readB)/float64(size), readN, float64(writeB)/float64(size), writeN)
				// Unmarshal copies the input once; the tape of a few nodes and
				// the typed values add a constant.
				if readB > 2*size+fixed || readN > 2000 {
					t.Errorf("%d values: reading allocated %d bytes in %d allocations for a %d-byte file", n, readB, readN, size)
				}
				if writeB > 3*size+fixed || writeN > 2000 {
					t.Errorf("%d values: writing allocated %d bytes in %d allocations for a %d-byte file", n, writeB, writeN, size)
				}
				if kind != "deep" && prevRead > 0 && (float64(readB)/float64(prevRead) > 2.6 || float64(writeB)/float64(prevWrite) > 2.6) {
					t.Errorf("%d values: doubling the size multiplied reading by %.2f and writing by %.2f",
						n, float64(readB)/float64(prevRead), float64(writeB)/float64(prevWrite))
				}
				prevRead, prevWrite = readB, writeB
			}
		})
	}
}

// Work grows linearly with the depth of nesting and the length of arrays
// and objects (no interior is parsed again or copied per level or per
// element): reading, validating, editing a cell, writing and converting
// the metadata to generic JSON at n and k·n values (k = 8; k = 4 for
// nesting, bounded by MaxDepth) allocate, in bytes and in number of
// allocations, and hand the parser (jsontree.Scanned: every Parse and
// Expand) at most halfway between k and k² times as much, all counted
// exactly (no clock: other work on the machine cannot stretch them; the
// test it replaces compared processor times). Measured: bytes ×3.8–8.2,
// allocations ×1.0–1.1, bytes parsed ×3.9–8.7 (the wide object's keys grow
// longer). A variant of Validate that parses each lazy value's
// containers again at every level and the whole value every 4,096
// elements gave ×58–62 parsed, ×69–97 allocated and failed. Work that
// neither parses nor allocates (a rescan inside one parse, say) is not
// counted here.
func TestDenseValuesLinearWork(t *testing.T) {
	testtier.Long(t)
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	once := func(data []byte) (bytes, count, scanned uint64) {
		before := jsontree.Scanned()
		bytes, count = allocations(func() {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if err := nbformat.Validate(nb); err != nil {
				t.Fatal(err)
			}
			nb.Cells[0].(*nbformat.CodeCell).Source.Set("edited")
			if _, err := nbformat.Marshal(nb); err != nil {
				t.Fatal(err)
			}
			if _, err := nbmap.ToMap(&nb.Metadata); err != nil {
				t.Fatal(err)
			}
		})
		return bytes, count, uint64(jsontree.Scanned() - before)
	}
	once(denseNotebook("meta", 1)) // what every read shares, built once
	for _, c := range []struct {
		kind string
		n, k int
	}{{"deep", (documentedMaxDepth - 2) / 4, 4}, {"meta", 1 << 18, 8}, {"wide", 1 << 16, 8}, {"objects", 1 << 16, 8}, {"cell", 1 << 18, 8}, {"output", 1 << 18, 8}} {
		smallB, smallN, smallS := once(denseNotebook(c.kind, c.n))
		largeB, largeN, largeS := once(denseNotebook(c.kind, c.k*c.n))
		linear, quadratic := float64(c.k), float64(c.k*c.k)
		bound := (linear + quadratic) / 2
		rb, rn, rs := float64(largeB)/float64(smallB), float64(largeN)/float64(smallN), float64(largeS)/float64(smallS)
		t.Logf("%s: %d values: %d bytes in %d allocations, %d parsed; %d values: %d bytes in %d allocations, %d parsed (×%.1f, ×%.1f, ×%.1f)",
			c.kind, c.n, smallB, smallN, smallS, c.k*c.n, largeB, largeN, largeS, rb, rn, rs)
		if rb > bound || rn > bound || rs > bound {
			t.Errorf("%s: %d times the values allocated %.1f times the bytes in %.1f times the allocations and parsed %.1f times the bytes (linear: %.0f, quadratic: %.0f; at most %.1f)",
				c.kind, c.k, rb, rn, rs, linear, quadratic, bound)
		}
	}
}

// Metadata the schema leaves open is kept as its bytes: arrays and objects
// are json.RawMessage (scalars decoded), written back as they were, and a
// value replaced by an equal one (decoded, or respaced) changes nothing.
func TestRawMetadata(t *testing.T) {
	t.Parallel()
	data := []byte("{\n \"cells\": [],\n \"metadata\": {\n  \"a\": [1, {\"b\": \"é\"}],\n  \"n\": 2,\n  \"o\": {\"z\": 1, \"y\": [NaN]}\n },\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	md := nb.Metadata.AdditionalProperties
	if raw, ok := md["a"].(json.RawMessage); !ok || string(raw) != `[1, {"b": "é"}]` {
		t.Fatalf(`metadata "a" = %T %s, want the json.RawMessage of its bytes`, md["a"], md["a"])
	}
	if md["n"] != 2 {
		t.Errorf(`metadata "n" = %T %v, want int 2`, md["n"], md["n"])
	}
	same := func(what string) {
		t.Helper()
		if !unchanged(nb, t, data) {
			t.Errorf("%s: Marshal changed the notebook", what)
		}
	}
	g, err := nbformat.Decode(md["o"].(json.RawMessage))
	if err != nil {
		t.Fatal(err)
	}
	md["o"] = g // a decoded, equal value
	same("decoded value")
	md["a"] = json.RawMessage(`[1,{"b":"\u00e9"}]`) // equal, spelled and spaced otherwise
	same("respelled value")
	md["a"] = []any{1, map[string]any{"b": "é"}, 3}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(data), `[1, {"b": "é"}]`, `[1, {"b": "é"}, 3]`, 1)
	if string(out) != want {
		t.Errorf("edited metadata: got\n%s\nwant\n%s", out, want)
	}
	md["a"] = json.RawMessage(`[1, oops]`)
	if _, err := nbformat.Marshal(nb); err == nil {
		t.Error("Marshal of invalid raw JSON: no error")
	}
	// ToMap, FromMap and Encode keep raw values.
	md["a"] = json.RawMessage(`[1, {"b": "é"}]`)
	m, err := nbmap.ToMap(&nb.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m["o"].(map[string]any); !ok { // stored decoded above
		t.Errorf("ToMap o: %T", m["o"])
	}
	if raw, ok := m["a"].(json.RawMessage); !ok || string(raw) != `[1, {"b": "é"}]` {
		t.Errorf("ToMap a: %T %s", m["a"], m["a"])
	}
	var back nbformat.NotebookMetadata
	if err := nbmap.FromMap(m, &back); err != nil {
		t.Fatal(err)
	}
	if raw, ok := back.AdditionalProperties["a"].(json.RawMessage); !ok || string(raw) != `[1,{"b":"é"}]` {
		t.Errorf("FromMap a: %T %s", back.AdditionalProperties["a"], back.AdditionalProperties["a"])
	}
	enc, err := nbjson.Encode(map[string]any{"a": json.RawMessage("[ 1 , \"x y\" ]")})
	if err != nil || string(enc) != `{"a":[1,"x y"]}` {
		t.Errorf("Encode: %s, %v", enc, err)
	}
}

func unchanged(nb *nbformat.Notebook, t *testing.T, want []byte) bool {
	t.Helper()
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return string(out) == string(want) && !nb.Edited()
}

// MaxValues counts every value, those inside lazy metadata too, and
// refuses the first one past the limit with its line and column.
func TestMaxValues(t *testing.T) {
	t.Parallel()
	data := []byte("{\"nbformat\": 4, \"nbformat_minor\": 5, \"cells\": [],\n \"metadata\": {\"x\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}")
	// 1 root + 2 numbers + cells + metadata + x = 6 values before the zeros.
	if _, err := (nbformat.UnmarshalOptions{MaxValues: 16}).Unmarshal(data); err != nil {
		t.Errorf("16 values with MaxValues 16: %v", err)
	}
	_, err := nbformat.UnmarshalOptions{MaxValues: 15}.Unmarshal(data)
	var se *nbformat.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, nbformat.ErrLimit) || se.Line != 2 || se.Column != 48 || !strings.Contains(err.Error(), "more than 15 JSON values") {
		t.Errorf("16 values with MaxValues 15: %v (%+v)", err, se)
	}
	if !testtier.Full() {
		return
	}
	// The default applies without options.
	big := denseNotebook("meta", documentedMaxValues)
	if _, err := nbformat.Unmarshal(big); !errors.As(err, &se) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d JSON values", documentedMaxValues)) {
		t.Errorf("%d values: %v", documentedMaxValues+10, err)
	}
}

// BenchmarkDense: reading and writing notebooks dense in small values.
func BenchmarkDense(b *testing.B) {
	for _, kind := range []string{"meta", "output", "objects"} {
		data := denseNotebook(kind, 1<<20)
		b.Run(kind+"/read", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				nb, err := nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(data)
				if err != nil {
					b.Fatal(err)
				}
				if err := nbformat.Validate(nb); err != nil {
					b.Fatal(err)
				}
			}
		})
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		nb.Cells[0].(*nbformat.CodeCell).Source.Set("edited")
		b.Run(kind+"/write", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := nbformat.Marshal(nb); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Canonical output of notebooks with flat arrays in open places (streamed
// from their bytes, see MarshalOptions) equals Python's bytes, numbers,
// escapes and Python's refusals (big integers, lone surrogates) included,
// and allocates a small multiple of the file on dense ones.
func TestDenseCanonical(t *testing.T) {
	cases := map[string]string{
		"flat.ipynb":      `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [0, -0, 1.50, 1E5, 1e400, NaN, -Infinity, true, null, "a\u00e9\/\u2028", "é", "\ud83e\udd16", 123456789012345678901234567890], "y": [], "z": [[1, 2], {"b": [3], "a": "\u0041"}]}, "cells": [{"cell_type": "code", "id": "a", "metadata": {"m": [1, 2]}, "source": ["x\n", "y"], "outputs": [{"output_type": "display_data", "data": {"application/json": [1, "two"], "text/plain": ["a\n", "b"]}, "metadata": {"image/png": {"w": [1]}}}], "execution_count": null}]}`,
		"bigint.ipynb":    `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [1, ` + strings.Repeat("9", 4301) + `]}, "cells": []}`,
		"surrogate.ipynb": `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": ["ok", "\ud800"]}, "cells": []}`,
		"dense.ipynb":     string(denseNotebook("meta", 1000)),
		"output.ipynb":    string(denseNotebook("output", 1000)),
		"objects.ipynb":   string(denseNotebook("objects", 100)),
	}
	py := pythonNbformat(t)
	dir, want := t.TempDir(), t.TempDir()
	for name, s := range cases {
		if err := writeFile(filepath.Join(dir, name), s); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(py, referenceScript(t, "nbformat_canonical.py"), dir, want).CombinedOutput()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	says := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if st, name, ok := strings.Cut(line, " "); ok {
			says[name] = st
		}
	}
	for name, s := range cases {
		nb, err := nbformat.Unmarshal([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		got, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		switch says[name] {
		case "same":
			if err != nil || string(got) != s {
				t.Errorf("%s: %v; Python writes it unchanged", name, err)
			}
		case "skip-error":
			if !errors.Is(err, nbformat.ErrNotCanonical) {
				t.Errorf("%s: %v; Python cannot write it", name, err)
			}
		default:
			w, rerr := os.ReadFile(filepath.Join(want, name))
			if rerr != nil {
				t.Fatalf("%s: Python says %q: %v", name, says[name], rerr)
			}
			if err != nil || string(got) != string(w) {
				t.Errorf("%s: %v, canonical bytes differ from Python's %s", name, err, firstDiff(w, got))
			}
		}
	}
	for _, p := range []struct{ name, ptr string }{{"bigint.ipynb", "/metadata/x/1"}, {"surrogate.ipynb", "/metadata/x/1"}} {
		nb, _ := nbformat.Unmarshal([]byte(cases[p.name]))
		_, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		var fe *nbformat.FormatError
		if !errors.As(err, &fe) || string(fe.Pointer) != p.ptr {
			t.Errorf("%s: %v, want the pointer %s", p.name, err, p.ptr)
		}
	}
	// Memory: the dense value is streamed, never one node per value.
	data := denseNotebook("meta", 1<<20)
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	b, _ := allocations(func() { got, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("canonical: %d bytes written, %.2f bytes allocated per byte written", len(got), float64(b)/float64(len(got)))
	// The output buffer grows by appends (about 5 times its final size in
	// all); a node per value would add 28 bytes a value (4.5 a byte here).
	if b > 6*uint64(len(got))+1<<20 {
		t.Errorf("canonical output of %d bytes allocated %d bytes", len(got), b)
	}
}

// A byte-order mark Heal removed stays removed on the lazily read path of
// canonical output too.
func TestDenseCanonicalAfterHealedBOM(t *testing.T) {
	t.Parallel()
	data := append([]byte("\xef\xbb\xbf"), denseNotebook("meta", 100)...)
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (nbformat.MarshalOptions{Canonical: true}).Marshal(nb); !errors.Is(err, nbformat.ErrNotCanonical) {
		t.Fatalf("with the mark: %v, want ErrNotCanonical", err)
	}
	if _, err := nbformat.Heal(nb); err != nil {
		t.Fatal(err)
	}
	out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil || strings.HasPrefix(string(out), "\xef\xbb\xbf") || !strings.HasPrefix(string(out), "{\n") {
		t.Fatalf("after Heal: %v, %.20q", err, out)
	}
}
