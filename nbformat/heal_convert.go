package nbformat

// Heal's rebuilt cells and outputs: those of unknown or wrong types made
// anew from their JSON (rebuilt by internal/nbrebuild).

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbrebuild"
)

// A pendingCell is a cell Heal rebuilt as JSON, decoded at the end of the
// pass (all at once).
type pendingCell struct {
	i    int
	json []byte
}

// A pendingOutput is an output rebuilt as JSON: output index of cell's
// outputs, or, when index is -1, the cell's only output.
type pendingOutput struct {
	cell, index int
	json        []byte
}

// unknownCell schedules an unrecognized cell to become the cell it
// resembles.
func (h *healer) unknownCell(i int, u *UnknownCell) {
	raw, typ := nbrebuild.CellJSON(h.t, h.cellNodeOf(i))
	h.newCells = append(h.newCells, pendingCell{i: i, json: raw})
	h.note(Pointer("/cells").appendIndex(i), "cell of unrecognized type %q made a %s cell", givenType(h.t, h.cellNodeOf(i), "cell_type", func() string { return string(u.Type()) }), typ)
}

// givenType is the string member key of object node n, as
// UnknownCell.Type and UnknownOutput.Type (typ) read it from the value's
// JSON; found in the tape, where typ would read the JSON up to its end
// (through every value of an output's data) to find its last occurrence.
// Only a plain string (valid UTF-8, no escapes) is taken from the tape;
// others are typ's.
func givenType(t *jsontree.Tape, n int, key string, typ func() string) string {
	if t.Nodes[n].Kind == jsontree.Object {
		if k := t.Lookup(n, key); k >= 0 && t.Nodes[k].Kind == jsontree.String && t.Nodes[k].Flags&jsontree.FlagEscaped == 0 {
			if raw := t.Raw(k); utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1])
			}
		}
	}
	return typ()
}

// flushCells decodes the cells and outputs rebuilt this pass, in one
// document, and puts them in place.
func (h *healer) flushCells() {
	if len(h.newCells) == 0 && len(h.newOutputs) == 0 {
		return
	}
	const head = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`
	const outputsCell = `{"cell_type": "code", "metadata": {}, "source": "", "execution_count": null, "outputs": [`
	// The document is made in a buffer of its size (the values rebuilt
	// are as large as the file's outputs: growing it would copy them over
	// and over).
	size := len(head) + len(outputsCell) + 8
	for _, pc := range h.newCells {
		size += len(pc.json) + 1
	}
	for _, po := range h.newOutputs {
		size += len(po.json) + 1
	}
	doc := append(make([]byte, 0, size), head...)
	for k, pc := range h.newCells {
		if k > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, pc.json...)
	}
	if len(h.newOutputs) > 0 {
		if len(h.newCells) > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, outputsCell...)
		for k, po := range h.newOutputs {
			if k > 0 {
				doc = append(doc, ',')
			}
			doc = append(doc, po.json...)
		}
		doc = append(doc, "]}"...)
	}
	doc = append(doc, "]}"...)
	opts := UnmarshalOptions{MaxBytes: int64(len(doc)) + 1, MaxCells: len(h.newCells) + 1, MaxDepth: 2 * defaultMaxDepth}
	// (The values are taken into the notebook healed: read without a
	// snapshot, as the upgrade's cells are; see unmarshalParts.)
	got, err := opts.unmarshalParts(doc)
	if err != nil {
		// Cannot happen: doc is made of values of a tape. Keep the JSON
		// as text rather than lose it.
		for _, pc := range h.newCells {
			h.nb.Cells[pc.i] = &RawCell{CellType: CellTypeRaw, Source: Text(string(pc.json))}
		}
		for _, po := range h.newOutputs {
			h.putOutput(po, NewDisplayData(newMimeBundle("text/plain", string(po.json))))
		}
		return
	}
	for k, pc := range h.newCells {
		h.nb.Cells[pc.i] = got.Cells[k]
	}
	if len(h.newOutputs) > 0 {
		outs := got.Cells[len(h.newCells)].(*CodeCell).Outputs
		for k, po := range h.newOutputs {
			h.putOutput(po, outs[k])
		}
	}
}

func (h *healer) putOutput(po pendingOutput, o Output) {
	code, ok := h.nb.Cells[po.cell].(*CodeCell)
	if !ok {
		return
	}
	if po.index < 0 {
		code.Outputs = []Output{o}
		return
	}
	code.Outputs[po.index] = o
}

// intOf is the integer a generic JSON value spells, as countOf.
func intOf(x any) (int, bool) {
	switch x := x.(type) {
	case int:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x), true
		}
	case json.Number:
		if i, err := strconv.Atoi(string(x)); err == nil {
			return i, true
		}
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return i, true
		}
	case nil, bool, []any, map[string]any:
	default:
		// Another representation of a JSON value: through its text.
		if raw, err := encodeCompact(x); err == nil {
			if g, err := Decode(raw); err == nil {
				switch g.(type) {
				case int, float64, json.Number, string:
					return intOf(g)
				}
			}
		}
	}
	return 0, false
}

// jsonText is the compact JSON text of a generic value.
func jsonText(x any) string {
	b, err := encodeCompact(x)
	if err != nil {
		return "?"
	}
	return string(b)
}
