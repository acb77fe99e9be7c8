package nbformat

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// recorded counts the cells and outputs the source's decoder handed out
// (the slots of its blocks that hold a node).
func (s *source) recorded() (cells, outputs int) {
	for _, b := range s.blocks {
		for a := uintptr(0); uintptr(b.base)+a < b.end; a += b.stride {
			if *(*int32)(unsafe.Add(b.base, a+b.nodeOff)) == 0 {
				continue
			}
			switch b.kind {
			case codeVariant, markdownVariant, rawVariant, unknownVariant:
				cells++
			default:
				outputs++
			}
		}
	}
	return cells, outputs
}

// originNotebook is a notebook of cells and outputs of every type, with
// unknown ones enough to fill several blocks.
func originNotebook() []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`)
	outs := `{"output_type": "stream", "name": "stdout", "text": "a\n"},
		{"output_type": "execute_result", "execution_count": 1, "data": {"text/plain": "1"}, "metadata": {}},
		{"output_type": "display_data", "data": {"text/plain": "2"}, "metadata": {}},
		{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}`
	for i := range 12 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "id": "c%d", "metadata": {}, "source": "x", "execution_count": 1, "outputs": [%s, {"output_type": "odd%d"}]},
			{"cell_type": "markdown", "id": "m%d", "metadata": {}, "source": "m"},
			{"cell_type": "raw", "id": "r%d", "metadata": {}, "source": "r"},
			{"cell_type": "odd", "n": %d}`, i, outs, i, i, i, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// Every cell and output read is found at its node, and nothing else is:
// not a cell or output the user made, nor a copy of one by value, nor one
// of another notebook read from the same bytes, nor a value allocated
// after the notebook's cells were dropped and collected.
func TestOriginExact(t *testing.T) {
	data := originNotebook()
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	src, tape := nb.src, nb.src.tape
	if len(src.blocks) < 4 {
		t.Fatalf("%d blocks; the test wants unknown values in several", len(src.blocks))
	}
	var values []any // every cell and output read
	cells := tape.ChildList(tape.Lookup(0, "cells"))
	for i, c := range nb.Cells {
		values = append(values, c)
		if j, ok := src.originOf(c); !ok || int(j) != cells[i] {
			t.Errorf("cell %d (%T): node %d %v, want %d", i, c, j, ok, cells[i])
		}
		cc, isCode := c.(*CodeCell)
		if !isCode {
			continue
		}
		outs := tape.ChildList(tape.Lookup(cells[i], "outputs"))
		for k, o := range cc.Outputs {
			values = append(values, o)
			if j, ok := src.originOf(o); !ok || int(j) != outs[k] {
				t.Errorf("cell %d output %d (%T): node %d %v, want %d", i, k, o, j, ok, outs[k])
			}
		}
	}
	if c, o := src.recorded(); c+o != len(values) {
		t.Errorf("%d cells and outputs recorded, %d read", c+o, len(values))
	}
	notOriginal := func(what string, x any) {
		t.Helper()
		if j, ok := src.originOf(x); ok {
			t.Errorf("%s (%T) taken for the original of node %d", what, x, j)
		}
	}
	for i, x := range values {
		// A copy by value (the same content, another address).
		v := reflect.ValueOf(x)
		cp := reflect.New(v.Elem().Type())
		cp.Elem().Set(v.Elem())
		notOriginal(fmt.Sprintf("a copy of value %d", i), cp.Interface())
	}
	for i, c := range other.Cells {
		notOriginal(fmt.Sprintf("cell %d of another notebook", i), c)
		if cc, ok := c.(*CodeCell); ok {
			for k, o := range cc.Outputs {
				notOriginal(fmt.Sprintf("cell %d output %d of another notebook", i, k), o)
			}
		}
	}
	for _, x := range []any{&CodeCell{}, &MarkdownCell{}, &RawCell{}, &UnknownCell{}, &ExecuteResult{},
		&DisplayData{}, &Stream{}, &ErrorOutput{}, &UnknownOutput{}, (*CodeCell)(nil), nil, "cell"} {
		notOriginal("a new value", x)
	}
	// Values read but now unreachable but for the source: their blocks stay
	// alive, so nothing allocated later can be taken for one of them.
	values, nb.Cells = nil, nil
	runtime.GC()
	for i := range 2000 {
		var x any
		switch i % 5 {
		case 0:
			x = &CodeCell{}
		case 1:
			x = &MarkdownCell{}
		case 2:
			x = &Stream{}
		case 3:
			x = &UnknownCell{}
		default:
			x = &UnknownOutput{}
		}
		notOriginal("a value allocated after a collection", x)
	}
	runtime.KeepAlive(nb)
}
