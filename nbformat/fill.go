package nbformat

import (
	"errors"
	"reflect"
	"strconv"
	"unsafe"
)

// Writing missing required members: a struct decoded from a file that
// lacks one of its required members is written without it, while the
// member holds its zero value (Unmarshal and Marshal never repair). Heal's
// repair of a missing required member is the explicit step below: it
// records the struct that lacks the member, and from then on the encoder
// writes that struct's required members, a missing one with its empty
// value (an empty source, no outputs, a null execution count, {}
// metadata). Nothing else about the notebook changes how it is written.

// fillMissing records, for each problem of a missing required member in
// found (a validation of nb as it is now), the struct that lacks it.
func (nb *Notebook) fillMissing(found []located) {
	for _, f := range found {
		if !errors.Is(f.err, ErrMissingMember) {
			continue
		}
		v, ok := structAt(reflectDocument(nb), f.err.Pointer)
		if !ok {
			continue
		}
		if nb.filled == nil {
			nb.filled = map[unsafe.Pointer]bool{}
		}
		nb.filled[v.Addr().UnsafePointer()] = true
		nb.noteFilledIn(f.err.Pointer)
	}
}

// noteFilledIn records in filledIn the cell, and the output, that hold the
// place p (in the notebook as it is now), if any.
func (nb *Notebook) noteFilledIn(p Pointer) {
	var toks [4]string
	n := 0
	for tok := range p.Tokens() {
		if n == len(toks) {
			break
		}
		toks[n] = tok
		n++
	}
	if n < 2 || toks[0] != "cells" {
		return
	}
	i, err := strconv.Atoi(toks[1])
	if err != nil || i < 0 || i >= len(nb.Cells) || nb.Cells[i] == nil {
		return
	}
	if nb.filledIn == nil {
		nb.filledIn = map[unsafe.Pointer]bool{}
	}
	c := nb.Cells[i]
	nb.filledIn[valueAddr(c)] = true
	if code, ok := c.(*CodeCell); ok && n == 4 && toks[2] == "outputs" {
		if k, err := strconv.Atoi(toks[3]); err == nil && k >= 0 && k < len(code.Outputs) && code.Outputs[k] != nil {
			nb.filledIn[valueAddr(code.Outputs[k])] = true
		}
	}
}

// valueAddr returns the address of the value in x (a pointer).
func valueAddr(x any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&x)).data }

// fills reports whether the struct v is one whose missing required members
// are written (see fillMissing).
func (e *encoder) fills(v reflect.Value) bool {
	return len(e.filled) > 0 && v.CanAddr() && e.filled[v.Addr().UnsafePointer()]
}

// structAt returns the addressable generated struct that pointer p
// (in the notebook as written) locates below the document v, or the
// nearest one above p's place when p leads into a value that is not one
// (a member, generic JSON). It reports false when p's place is not in the
// typed values at all.
func structAt(v reflect.Value, p Pointer) (reflect.Value, bool) {
	found := v
	for tok := range p.Tokens() {
		switch v.Kind() {
		case reflect.Struct:
			plan := infoOf(v.Type()).plan
			if plan == nil {
				return found, true
			}
			fi, ok := plan.byName[tok]
			if !ok {
				return found, true
			}
			v = v.Field(plan.fields[fi].index)
		case reflect.Slice:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= v.Len() {
				return reflect.Value{}, false
			}
			v = v.Index(i)
		default:
			return found, true
		}
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return found, true
			}
			v = v.Elem()
		}
		if v.Kind() == reflect.Struct && v.CanAddr() && ours(v.Type()) && infoOf(v.Type()).kind == kStruct {
			found = v
		}
	}
	return found, found.CanAddr()
}

// filledStructs returns the structs of nb.filled as codecStructs.
func (nb *Notebook) filledStructs() map[codecStruct]bool {
	if len(nb.filled) == 0 {
		return nil
	}
	m := map[codecStruct]bool{}
	walkStructs(&nb.Document, func(x codecStruct) {
		if nb.filled[addrOf(x)] {
			m[x] = true
		}
	})
	return m
}

// addrOf is the address of the struct x points to.
func addrOf(x codecStruct) unsafe.Pointer { return valueAddr(x) }

// walkStructs calls f with every generated struct below x (and x).
func walkStructs(x codecStruct, f func(codecStruct)) {
	f(x)
	for i, fc := range x.codec().fields {
		if s := x.fieldStruct(i, false); s != nil {
			walkStructs(s, f)
		}
		if fc.typ.kind == kindSlice {
			for k := 0; ; k++ {
				s, ok := x.fieldIndex(i, k)
				if !ok {
					break
				}
				if s != nil {
					walkStructs(s, f)
				}
			}
		}
	}
}
