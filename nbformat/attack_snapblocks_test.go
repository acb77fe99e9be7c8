package nbformat

// Tests of edits of notebooks whose values live in the snapshot's blocks
// (single edits, sequences, reflective and fuzzed ones): each edit is written.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Hostile edits against the unedited check by blocks (snapblock.go,
// snaploose.go): every way a caller can change a notebook after
// Unmarshal, alone and in random sequences, on notebooks of every version
// and of sizes on both sides of the threshold where the snapshot falls
// back to the walk from the Document. The oracles never come from the
// snapshot: the reflective walk (walkSaysUnedited) must agree whenever the
// snapshot says "unedited"; Marshal must write what the encoder writes
// with the unedited path bypassed (nb.encode); and, where the notebook as
// read passes it, what encoding/json reads from Marshal's output must be
// what it reads from the same Document written as a notebook built in
// memory (no source at all: no snapshot, no walk, no originals).

// TestSnapBlocksSingleEdits applies each edit alone, with several seeds,
// to every input.
func TestSnapBlocksSingleEdits(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	applied := make([]int, len(blockEdits))
	seeds := 3
	if !testtier.Full() {
		seeds = 1
	}
	for name, data := range snapBlocksInputs(t) {
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		sem := oraclesFor(base, data)
		for ei, e := range blockEdits {
			for seed := range seeds {
				nb, _ := Unmarshal(data)
				if !e.apply(nb, rand.New(rand.NewPCG(uint64(ei), uint64(seed)))) {
					break
				}
				applied[ei]++
				checkBlockEdit(t, name+": "+e.name, nb, data, sem)
			}
		}
	}
	for ei, e := range blockEdits {
		if applied[ei] == 0 {
			t.Errorf("%s: applied to no notebook", e.name)
		}
	}
}

// applySequence applies edits chosen by ops to nb, checking after each.
func applySequence(t testing.TB, name string, nb *Notebook, data []byte, ops []byte, sem snapOracles) {
	r := rand.New(rand.NewPCG(uint64(len(ops)), uint64(len(data))))
	var done []string
	for _, op := range ops {
		if op >= 224 { // a site found by reflection
			sites := reflectSites(reflect.ValueOf(&nb.Document).Elem(), nil, 400, 0)
			sites = slices.DeleteFunc(sites, func(v reflect.Value) bool {
				a := v.UnsafeAddr()
				return a == reflect.ValueOf(&nb.Nbformat).Pointer() || a == reflect.ValueOf(&nb.NbformatMinor).Pointer()
			})
			if len(sites) == 0 {
				continue
			}
			site := sites[(int(op)*7919+r.IntN(len(sites)))%len(sites)]
			if !reflectEdit(site, r) {
				continue
			}
			done = append(done, "reflect "+site.Type().String())
			checkBlockEdit(t, name+": "+strings.Join(done, " / "), nb, data, sem)
			if t.Failed() {
				return
			}
			continue
		}
		e := blockEdits[int(op)%len(blockEdits)]
		if !e.apply(nb, r) {
			continue
		}
		done = append(done, e.name)
		checkBlockEdit(t, name+": "+strings.Join(done, " / "), nb, data, sem)
		if t.Failed() {
			return
		}
	}
}

// TestSnapBlocksEditSequences applies random sequences of edits.
func TestSnapBlocksEditSequences(t *testing.T) {
	t.Parallel()
	inputs := snapBlocksInputs(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range inputs {
			if !yield(k) {
				return
			}
		}
	})
	r := rand.New(rand.NewPCG(7, 13))
	rounds := 12
	if !testtier.Full() {
		rounds = 4
	}
	for _, name := range names {
		data := inputs[name]
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		sem := oraclesFor(base, data)
		for range rounds {
			ops := make([]byte, 1+r.IntN(6))
			for i := range ops {
				ops[i] = byte(r.IntN(256))
			}
			nb, _ := Unmarshal(data)
			applySequence(t, name, nb, data, ops, sem)
		}
	}
}

// TestSnapBlocksTwoNotebooks shares values between two notebooks read
// from the same bytes, then edits one through the other.
func TestSnapBlocksTwoNotebooks(t *testing.T) {
	testtier.Long(t)
	for name, data := range map[string][]byte{"v4.5": versionNotebook(5), "v4.4": versionNotebook(4), "blocks": blockNotebook(12)} {
		for i, share := range []func(a, b *Notebook){
			func(a, b *Notebook) { a.Cells[0] = b.Cells[0] },
			func(a, b *Notebook) { a.Cells = b.Cells },
			func(a, b *Notebook) { a.Cells = b.Cells[:len(b.Cells):len(b.Cells)] },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).Outputs = b.Cells[0].(*CodeCell).Outputs },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).Metadata.Tags = b.Cells[0].(*CodeCell).Metadata.Tags },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).ExecutionCount = b.Cells[0].(*CodeCell).ExecutionCount },
			func(a, b *Notebook) { a.Metadata = b.Metadata },
			func(a, b *Notebook) { a.Document = b.Document },
			func(a, b *Notebook) { *a = *b }, // one source, one snapshot, the same values
			func(a, b *Notebook) { *a = *b; a.Cells = slices.Clone(b.Cells) },
		} {
			for j, edit := range []func(b *Notebook){
				func(b *Notebook) {},
				func(b *Notebook) { b.Cells[0].(*CodeCell).Source.Set("edited through b") },
				func(b *Notebook) { *b.Cells[0].(*CodeCell).ExecutionCount = 77 },
				func(b *Notebook) { b.Cells[0].(*CodeCell).Outputs[0] = NewStream("stdout", "b") },
				func(b *Notebook) { b.Cells[0].(*CodeCell).Metadata.Tags[0] = "b" },
				func(b *Notebook) { b.Cells[0] = NewCodeCell("b") },
				func(b *Notebook) {
					if b.Metadata.Kernelspec != nil {
						b.Metadata.Kernelspec.Name = "b"
					}
				},
			} {
				a, b := mustReadInternal(t, data), mustReadInternal(t, data)
				share(a, b)
				runtime.GC()
				edit(b)
				what := fmt.Sprintf("%s: share %d, edit %d", name, i, j)
				o := oraclesFor(mustReadInternal(t, data), data)
				checkBlockEdit(t, what+" (a)", a, data, o)
				checkBlockEdit(t, what+" (b)", b, data, o)
			}
		}
	}
}

func mustReadInternal(t testing.TB, data []byte) *Notebook {
	t.Helper()
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// emptyCellsNotebook returns n nearly empty cells (markdown, code, raw in
// turn): the snapshot's blocks outweigh the file past a few hundred.
func emptyCellsNotebook(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 3 {
		case 0:
			b.WriteString(`{"cell_type":"markdown","metadata":{},"source":""}`)
		case 1:
			fmt.Fprintf(&b, `{"cell_type":"code","execution_count":%d,"metadata":{"tags":["t"]},"outputs":[],"source":"x"}`, i)
		default:
			b.WriteString(`{"cell_type":"raw","metadata":{},"source":"r"}`)
		}
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// FuzzSnapBlocksEdits applies sequences of edits (ops) to one of the
// made notebooks (which) or to the fuzzed bytes themselves.
func FuzzSnapBlocksEdits(f *testing.F) {
	made := [][]byte{versionNotebook(5), versionNotebook(3), blockNotebook(5), emptyCellsNotebook(300), emptyCellsNotebook(400)}
	for i := range made {
		f.Add(uint8(i), []byte{0, 5, 9, 20, 33}, []byte(nil))
		f.Add(uint8(i), []byte{230, 240, 250, 1}, []byte(nil))
	}
	f.Add(uint8(255), []byte{1, 2, 3, 4}, versionNotebook(2))
	f.Fuzz(func(t *testing.T, which uint8, ops []byte, data []byte) {
		if len(ops) > 16 {
			ops = ops[:16]
		}
		if int(which) < len(made) {
			data = made[which]
		}
		nb, err := UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		sem := oraclesFor(nb, data)
		applySequence(t, "fuzz", nb, data, ops, sem)
	})
}

// TestSnapBlocksAfterUpgradeAndHeal applies each edit to notebooks read
// then upgraded (version 3 and 4.0-4.4 to 4.5) or healed: what they
// change is no longer as read, and an edit after must still be written.
func TestSnapBlocksAfterUpgradeAndHeal(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{"v3": snapBlocksInputsV3, "v4.2": versionNotebook(2), "v4.4": versionNotebook(4), "v4.5": versionNotebook(5)}
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "v3.ipynb")); err == nil {
		inputs["v3.ipynb"] = data
	}
	for name, data := range inputs {
		for _, prep := range []struct {
			name string
			f    func(*Notebook) error
		}{
			{"upgraded", Upgrade},
			{"healed", func(nb *Notebook) error { _, err := Heal(nb); return err }},
		} {
			base := mustReadInternal(t, data)
			if err := prep.f(base); err != nil {
				if errors.Is(err, ErrUnsupportedVersion) {
					continue // Heal of version 3
				}
				t.Fatalf("%s %s: %v", name, prep.name, err)
			}
			written, err := Marshal(base)
			if err != nil {
				t.Fatalf("%s %s: %v", name, prep.name, err)
			}
			o := snapOracles{json: semanticOK(base, written)}
			mem := &Notebook{Document: base.Document}
			c := attackCanonical(base)
			o.canon = !strings.HasPrefix(c, "error: ") && c == attackCanonical(mem)
			o.valid = problemsOf(base) == problemsOf(mem)
			for ei, e := range blockEdits {
				nb := mustReadInternal(t, data)
				if err := prep.f(nb); err != nil {
					t.Fatal(err)
				}
				if e.apply(nb, rand.New(rand.NewPCG(uint64(ei), 1))) {
					checkBlockEdit(t, name+" "+prep.name+": "+e.name, nb, data, o)
				}
			}
		}
	}
}

// TestSnapBlocksInputChangedAfterRead changes the bytes given to
// Unmarshal after it returns (it copies them: small inputs into the
// tape's block, beside the snapshot's record, larger ones on their own):
// Marshal of the notebook must still write the bytes as they were read.
func TestSnapBlocksInputChangedAfterRead(t *testing.T) {
	for _, n := range []int{1, 40, 400} {
		want := blockNotebook(n)
		data := bytes.Clone(want)
		nb := mustReadInternal(t, data)
		for i := range data {
			if data[i] == '1' {
				data[i] = '7'
			}
		}
		runtime.GC()
		if out := mustMarshalInternal(t, nb); !bytes.Equal(out, want) {
			t.Errorf("%d cells (%d bytes): the input changed after Unmarshal changed what Marshal writes", n, len(want))
		}
		if nb.Edited() {
			t.Errorf("%d cells: Edited after the input changed", n)
		}
	}
}

func mustMarshalInternal(t testing.TB, nb *Notebook) []byte {
	t.Helper()
	out, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reflectSites returns the settable values reachable from v through
// exported fields, slice elements, pointers and interfaces (map values
// are not addressable: the map itself is the site), at most limit.
func reflectSites(v reflect.Value, out []reflect.Value, limit int, depth int) []reflect.Value {
	if len(out) >= limit || depth > 12 {
		return out
	}
	if v.CanSet() {
		out = append(out, v)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = reflectSites(v.Elem(), out, limit, depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = reflectSites(v.Field(i), out, limit, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			return out
		}
		for i := range min(v.Len(), 8) {
			out = reflectSites(v.Index(i), out, limit, depth+1)
		}
	}
	return out
}

// reflectEdit changes, or rewrites with an equal value, the site v.
func reflectEdit(v reflect.Value, r *rand.Rand) bool {
	keep := r.IntN(2) == 0 // an equal value in other memory, or a change
	switch v.Kind() {
	case reflect.String:
		if keep {
			v.SetString(strings.Clone(v.String()))
		} else {
			v.SetString(v.String() + "~")
		}
	case reflect.Int:
		if !keep {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Bool:
		if !keep {
			v.SetBool(!v.Bool())
		}
	case reflect.Pointer:
		if v.IsNil() {
			if keep {
				return false
			}
			v.Set(reflect.New(v.Type().Elem()))
			return true
		}
		if keep {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(v.Elem())
			v.Set(p)
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		n := v.Len()
		switch {
		case keep && n > 0:
			old := reflect.ValueOf(v.Interface()) // the old header, not addressable
			c := reflect.MakeSlice(v.Type(), n, n)
			reflect.Copy(c, v)
			v.Set(c)
			if r.IntN(2) == 0 {
				old.Index(0).Set(reflect.Zero(v.Type().Elem())) // the old array only
			}
		case n >= 2:
			i, j := r.IntN(n), r.IntN(n)
			a, b := reflect.New(v.Type().Elem()).Elem(), reflect.New(v.Type().Elem()).Elem()
			a.Set(v.Index(i))
			b.Set(v.Index(j))
			v.Index(i).Set(b)
			v.Index(j).Set(a)
		case n == 1:
			v.Set(v.Slice(0, 0))
		default:
			return false
		}
	case reflect.Map:
		if v.IsNil() || v.Len() == 0 {
			return false
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		k := keys[r.IntN(len(keys))]
		if keep {
			if r.IntN(2) == 0 {
				x := v.MapIndex(k)
				v.SetMapIndex(k, reflect.Value{})
				v.SetMapIndex(k, x)
			} else {
				m := reflect.MakeMapWithSize(v.Type(), v.Len())
				it := v.MapRange()
				for it.Next() {
					m.SetMapIndex(it.Key(), it.Value())
				}
				old := reflect.ValueOf(v.Interface())
				v.Set(m)
				old.SetMapIndex(k, reflect.Value{}) // the old map only
			}
		} else {
			v.SetMapIndex(k, reflect.Value{})
		}
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		x := v.Elem()
		if keep {
			c := reflect.New(x.Type()).Elem()
			c.Set(x)
			v.Set(c) // boxed again
		} else if x.Kind() == reflect.Pointer {
			v.Set(reflect.Zero(v.Type()))
		} else {
			v.Set(reflect.ValueOf("changed"))
		}
	default:
		return false
	}
	return true
}

// TestSnapBlocksReflectiveEdits edits random sites of every kind found
// by reflection (every exported field at any depth), by a change or by an
// equal value in other memory, a few at a time.
func TestSnapBlocksReflectiveEdits(t *testing.T) {
	testtier.Long(t)
	rounds := 25
	if !testtier.Full() {
		rounds = 12
	}
	inputs := snapBlocksInputs(t)
	names := slices.Sorted(maps.Keys(inputs))
	for ni, name := range names {
		data := inputs[name]
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		o := oraclesFor(base, data)
		r := rand.New(rand.NewPCG(uint64(ni), 99))
		for round := range rounds {
			nb := mustReadInternal(t, data)
			var done []string
			for range 1 + r.IntN(3) {
				sites := reflectSites(reflect.ValueOf(&nb.Document).Elem(), nil, 400, 0)
				// Not the version (4.4 to 4.5 adds cell ids, which a
				// notebook built in memory derives otherwise).
				sites = slices.DeleteFunc(sites, func(v reflect.Value) bool {
					a := v.UnsafeAddr()
					return a == reflect.ValueOf(&nb.Nbformat).Pointer() || a == reflect.ValueOf(&nb.NbformatMinor).Pointer()
				})
				if len(sites) == 0 {
					break
				}
				s := sites[r.IntN(len(sites))]
				if reflectEdit(s, r) {
					done = append(done, s.Type().String())
				}
			}
			if r.IntN(4) == 0 {
				runtime.GC()
			}
			checkBlockEdit(t, fmt.Sprintf("%s round %d: %v", name, round, done), nb, data, o)
		}
	}
}
