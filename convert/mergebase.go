package convert

// Base reduced before a merge reads theirs: its outputs and metadata that ours holds byte for byte are ours', its other outputs theirs' where theirs holds them.

import (
	"bytes"
	"crypto/sha256"
	"hash/maphash"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

// A merge compares base's outputs with the sides' and never writes them
// (a base output reaches the result only decoded, through a value merge
// or a conflict's base version), so an output of base that ours' file
// holds byte for byte need not be kept twice: reducedBase writes base's
// text with such outputs replaced by a placeholder output, the merge reads
// that text instead of base's (its own bytes, which the caller may then
// let go before theirs is read), and shareOursOutputs makes each
// placeholder read the output of ours it stands for. Base's message then
// holds, for that output, ours' output read: the same bytes read in the
// same context (a code cell's outputs, the same nbformat version), so the
// same value, compared and decoded as base's own would be. So with the
// notebook metadata, when it is ours' bytes.
//
// An output of base that ours does not hold (ours re-ran its cell) is
// replaced by a placeholder too, its bytes kept only as their SHA-256
// digest: once theirs is read, sharePending makes the placeholder read the
// output of theirs whose bytes have that digest. Where theirs holds no
// such output (both sides re-ran the cell), the merge needs base's own:
// it reads each from base alone when it looks at it (see lazyBase), or
// base again whole where the caller gives no parts (see MergeTo).

// reduceBaseFrom is the least size of base that MergeTo reduces: below
// it, the three inputs are read at once (on as many cores as there are),
// as Merge reads them.
var reduceBaseFrom = 1 << 20

// placeholderOutput stands for an output of base that ours holds.
const placeholderOutput = `{"output_type":"stream","name":"stdout","text":""}`

// sharedOutput is an output of base replaced by a placeholder: output out
// of base's cell cell, held by ours' cell oursCell as output oursOut.
type sharedOutput struct{ cell, out, oursCell, oursOut int }

// pendingOutput is an output of base replaced by a placeholder that ours
// does not hold: output out of base's cell cell, the size bytes at offset
// off of base, whose SHA-256 digest is sum; look is what the merge
// keeps of a large one (nil: none).
type pendingOutput struct {
	cell, out, off, size int
	sum                  [sha256.Size]byte
	look                 *outputLook
}

// reduction is what reducedBase replaced in base's text.
type reduction struct {
	outputs []sharedOutput
	pending []pendingOutput
	meta    bool   // the notebook metadata, ours' bytes, by {}
	minor   string // base's nbformat_minor, as written
}

// reducedBase returns base's text with each output of a code cell that
// ours' file holds byte for byte in a code cell (where both are version
// 4 notebooks of the same minor version) replaced by placeholderOutput,
// and its notebook metadata, when it is ours' bytes, by {} (values of
// minReduced bytes or more); and what it replaced. The text is nil where nothing is replaced (or either text is
// not one JSON object with cells so). An output holding "is_ai_res"
// (which may make it a prompt's reply, part of its message's text) is
// kept.
func reducedBase(base, ours []byte) ([]byte, reduction) {
	b, okB := spansOf(base)
	o, okO := spansOf(ours)
	if !okB || !okO || b.major != "4" || o.major != "4" || b.minor != o.minor {
		return nil, reduction{}
	}
	type piece struct {
		span [2]int
		with string
	}
	var pieces []piece
	outputs, pending, spans := reducedOutputs(base, ours, b.cells, o.cells)
	for _, sp := range spans {
		pieces = append(pieces, piece{sp, placeholderOutput})
	}
	meta := b.meta[1]-b.meta[0] >= minReduced && bytes.Equal(base[b.meta[0]:b.meta[1]], ours[o.meta[0]:o.meta[1]])
	if meta {
		pieces = append(pieces, piece{b.meta, "{}"})
		slices.SortFunc(pieces, func(a, b piece) int { return a.span[0] - b.span[0] })
	}
	if len(pieces) == 0 {
		return nil, reduction{}
	}
	n := len(base)
	for _, p := range pieces {
		n -= p.span[1] - p.span[0] - len(p.with)
	}
	text := make([]byte, 0, n)
	last := 0
	for _, p := range pieces {
		text = append(append(text, base[last:p.span[0]]...), p.with...)
		last = p.span[1]
	}
	return append(text, base[last:]...), reduction{outputs: outputs, pending: pending, meta: meta, minor: b.minor}
}

// minReduced is the least size of a value reducedBase replaces: a smaller
// one is not worth its look-up.
const minReduced = 256

// reducedOutputs is reducedBase's work on outputs: the outputs of base
// ours holds (where each text's code cells' outputs are: see spansOf),
// those it does not, and where all of them are in base.
func reducedOutputs(base, ours []byte, baseOuts, oursOuts [][][2]int) ([]sharedOutput, []pendingOutput, [][2]int) {
	seed := maphash.MakeSeed()
	type at struct{ cell, out int }
	held := map[uint64][]at{}
	for i, outs := range oursOuts {
		for j, sp := range outs {
			if sp[1]-sp[0] >= minReduced {
				h := maphash.Bytes(seed, ours[sp[0]:sp[1]])
				held[h] = append(held[h], at{i, j})
			}
		}
	}
	var shared []sharedOutput
	var pending []pendingOutput
	var spans [][2]int
	for i, outs := range baseOuts {
	outputs:
		for j, sp := range outs {
			raw := base[sp[0]:sp[1]]
			if len(raw) < minReduced || bytes.Contains(raw, []byte("is_ai_res")) {
				continue
			}
			spans = append(spans, sp)
			for _, a := range held[maphash.Bytes(seed, raw)] {
				if o := oursOuts[a.cell][a.out]; bytes.Equal(ours[o[0]:o[1]], raw) {
					shared = append(shared, sharedOutput{i, j, a.cell, a.out})
					continue outputs
				}
			}
			var look *outputLook
			if len(raw) >= bigText {
				look = lookOfRaw(raw)
			}
			pending = append(pending, pendingOutput{i, j, sp[0], len(raw), sha256.Sum256(raw), look})
		}
	}
	return shared, pending, spans
}

// notebookSpans is where a notebook's text holds what reducedBase
// replaces: the outputs of each cell (none for a cell that is not a code
// cell, or whose outputs are not objects) and the notebook metadata
// (offsets into the text; meta is empty without it), with its nbformat
// and nbformat_minor as written. Each is the member a reader takes (a
// key's last occurrence).
type notebookSpans struct {
	cells        [][][2]int
	meta         [2]int
	major, minor string
}

// spansShape records a notebook's cells and their outputs' elements,
// nothing inside those (nor inside the metadata).
var spansShape = &jsontree.Shape{Members: map[string]*jsontree.Shape{
	"cells": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{"outputs": {}}}},
}}

// spansOf finds a notebook text's spans (see notebookSpans) in one
// parse, which records little more than its cells; ok is false unless the
// text is one JSON object whose cells are an array of objects.
func spansOf(data []byte) (s notebookSpans, ok bool) {
	t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, spansShape)
	if err != nil || t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return s, false
	}
	cells := t.Lookup(jsontree.Root, "cells")
	if cells < 0 || t.Nodes[cells].Kind != jsontree.Array {
		return s, false
	}
	if m := t.Lookup(jsontree.Root, "metadata"); m >= 0 {
		s.meta = [2]int{int(t.Nodes[m].Start), int(t.Nodes[m].End)}
	}
	for key, v := range map[string]*string{"nbformat": &s.major, "nbformat_minor": &s.minor} {
		if k := t.Lookup(jsontree.Root, key); k >= 0 {
			*v = string(t.Raw(k))
		}
	}
	kids := t.ChildList(cells)
	s.cells = make([][][2]int, len(kids))
	for i, c := range kids {
		if t.Nodes[c].Kind != jsontree.Object {
			return s, false
		}
		typ, outs := t.Lookup(c, "cell_type"), t.Lookup(c, "outputs")
		if typ < 0 || outs < 0 || !t.StrIs(typ, "code") || t.Nodes[outs].Kind != jsontree.Array {
			continue
		}
		for _, e := range t.ChildList(outs) {
			if t.Nodes[e].Kind == jsontree.Object {
				s.cells[i] = append(s.cells[i], [2]int{int(t.Nodes[e].Start), int(t.Nodes[e].End)})
			}
		}
	}
	return s, true
}

// shareOurs makes each placeholder of base's dialog, read from
// reducedBase's text, what it stands for in ours' dialog as read: an
// output read, the notebook metadata (a map of its own, holding ours'
// values, which are never changed); and reports whether every one was
// found where it was put (else the dialog is not base's: the caller reads
// base itself).
func shareOurs(base, ours *dialog.Dialog, r reduction) bool {
	if r.meta && len(base.Meta) > 0 {
		return false
	}
	type fix struct{ at, from *readOutput }
	fixes := make([]fix, 0, len(r.outputs))
	for _, s := range r.outputs {
		if s.cell >= len(base.Messages) || s.oursCell >= len(ours.Messages) {
			return false
		}
		b, o := base.Messages[s.cell], ours.Messages[s.oursCell]
		if s.out >= len(b.Outputs) || s.oursOut >= len(o.Outputs) {
			return false
		}
		at, ok1 := b.Outputs[s.out].Source().(*readOutput)
		from, ok2 := o.Outputs[s.oursOut].Source().(*readOutput)
		if !ok1 || !ok2 || !isPlaceholder(at.out) {
			return false
		}
		fixes = append(fixes, fix{at, from})
	}
	for _, f := range fixes {
		f.at.out = f.from.out // (f.at.nb stays base's: it is not written)
	}
	if r.meta {
		base.Meta = maps.Clone(ours.Meta)
	}
	return true
}

// isPlaceholder reports whether out reads as placeholderOutput.
func isPlaceholder(out nbformat.Output) bool {
	s, ok := out.(*nbformat.Stream)
	return ok && s.Name == "stdout" && s.Text.String() == "" && len(s.AdditionalProperties) == 0
}

// sharePending makes each pending placeholder of base's dialog (see
// reducedBase) the output of theirs' dialog, read from theirs' text, whose
// bytes have its digest, and returns those theirs does not hold (the
// merge needs base's own outputs for them: see lazyBase); ok is false
// where theirs' text or a placeholder is not where it should be (the
// caller reads base as it is). Theirs' text must be a version 4 notebook
// of base's minor version.
func sharePending(base, theirs *dialog.Dialog, text []byte, r reduction) (unfound []pendingOutput, ok bool) {
	t, ok := spansOf(text)
	if !ok || t.major != "4" || t.minor != r.minor {
		return nil, false
	}
	sizes := make(map[int]bool, len(r.pending))
	for _, p := range r.pending {
		sizes[p.size] = true
	}
	type at struct{ cell, out int }
	held := map[[sha256.Size]byte]at{}
	for i, outs := range t.cells {
		for j, sp := range outs {
			if sizes[sp[1]-sp[0]] {
				held[sha256.Sum256(text[sp[0]:sp[1]])] = at{i, j}
			}
		}
	}
	type fix struct{ at, from *readOutput }
	fixes := make([]fix, 0, len(r.pending))
	for _, p := range r.pending {
		a, found := held[p.sum]
		if !found {
			unfound = append(unfound, p)
			continue
		}
		if p.cell >= len(base.Messages) || a.cell >= len(theirs.Messages) {
			return nil, false
		}
		b, m := base.Messages[p.cell], theirs.Messages[a.cell]
		if p.out >= len(b.Outputs) || a.out >= len(m.Outputs) {
			return nil, false
		}
		to, ok1 := b.Outputs[p.out].Source().(*readOutput)
		from, ok2 := m.Outputs[a.out].Source().(*readOutput)
		if !ok1 || !ok2 || !isPlaceholder(to.out) {
			return nil, false
		}
		fixes = append(fixes, fix{to, from})
	}
	for _, f := range fixes {
		f.at.out = f.from.out // (f.at.nb stays base's: it is not written)
	}
	return unfound, true
}
