package convert

// Base's outputs neither side holds, read from base part by part as the merge looks at them.

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/mergeparts"
	"github.com/nbdialog/ipynb/nbformat"
)

// Where both sides re-ran a cell, the merge compares base's outputs of
// it with each side's (and merges them value by value where both changed
// one), but never writes them. Rather than reading base again whole
// beside ours and theirs, MergeTo then reads each such output's bytes
// alone, as the merge looks at it, where its caller gives it a way to
// (internal/mergeparts): base's outputs are in memory one at a time, not
// all at once. Each part read must have the digest its bytes had when
// base was first read.

func init() { mergeparts.MergeTo = mergeToParts }

// lazyBase reads parts of base for the outputs it stands for, and keeps
// the first error met (a part that is not the bytes first read).
type lazyBase struct {
	part   func(off, n int64) ([]byte, error) // called by one goroutine at a time
	partMu sync.Mutex
	minor  string // base's nbformat_minor, as written
	mu     sync.Mutex
	err    error
	// last is the output decoded last, and its generic JSON: the merge
	// looks at one output several times in a row (its type, then
	// comparing it with ours' and theirs').
	last    *lazyOutput
	lastTyp string
	lastMap map[string]any
}

// lazyParts returns a lazyBase over part, or nil if part is nil.
func lazyParts(part func(off, n int64) ([]byte, error), minor string) *lazyBase {
	if part == nil {
		return nil
	}
	return &lazyBase{part: part, minor: minor}
}

// fail records err, the first one kept.
func (lb *lazyBase) fail(err error) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.err == nil {
		lb.err = err
	}
}

// failed returns the first error met.
func (lb *lazyBase) failed() error {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return lb.err
}

// output reads pending output p of base, decoded as an output of a code
// cell of base's version (a part read apart is decoded as it was in
// base: the same bytes in the same context).
func (lb *lazyBase) output(p pendingOutput) (*readOutput, error) {
	lb.partMu.Lock()
	raw, err := lb.part(int64(p.off), int64(p.size))
	lb.partMu.Unlock()
	if err == nil && (len(raw) != p.size || sha256.Sum256(raw) != p.sum) {
		err = &Error{Op: "merge", Input: "base", Err: fmt.Errorf("convert: base read again differs from base read first: %w", ErrChanged)}
	}
	if err != nil {
		lb.fail(err)
		return nil, err
	}
	text := make([]byte, 0, len(raw)+160)
	text = append(text, `{"nbformat": 4, "nbformat_minor": `...)
	text = append(text, lb.minor...)
	text = append(text, `, "metadata": {}, "cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "source": "", "outputs": [`...)
	text = append(append(text, raw...), "]}]}"...)
	nb, _, err := readNotebook(text, false)
	if err == nil && (len(nb.Cells) != 1 || len(codeOutputs(nb.Cells[0])) != 1) {
		err = fmt.Errorf("convert: base's output %d of cell %d does not read alone", p.out, p.cell)
	}
	if err != nil {
		lb.fail(err)
		return nil, err
	}
	return &readOutput{out: codeOutputs(nb.Cells[0])[0], nb: nb}, nil
}

// codeOutputs returns a code cell's outputs (nil for other cells).
func codeOutputs(c nbformat.Cell) []nbformat.Output {
	if cc, ok := c.(*nbformat.CodeCell); ok {
		return cc.Outputs
	}
	return nil
}

// lazyOutput is an output of base read only when looked at (see
// lazyBase).
type lazyOutput struct {
	base *lazyBase
	p    pendingOutput
	once sync.Once
	typ  string
}

// decoded returns l's type and generic JSON (as readOutput gives them),
// read once for the times in a row the merge looks at it; the map is
// shared (callers copy it).
func (l *lazyOutput) decoded() (string, map[string]any, error) {
	lb := l.base
	lb.mu.Lock()
	if lb.last == l {
		defer lb.mu.Unlock()
		return lb.lastTyp, lb.lastMap, nil
	}
	lb.mu.Unlock()
	r, err := lb.output(l.p)
	if err != nil {
		return "", nil, err
	}
	g, err := r.Decode()
	if err != nil {
		return "", nil, err
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	lb.last, lb.lastTyp, lb.lastMap = l, r.Type(), g
	return r.Type(), g, nil
}

func (l *lazyOutput) Type() string {
	if l.p.look != nil {
		return l.p.look.typ
	}
	l.once.Do(func() { l.typ, _, _ = l.decoded() })
	return l.typ
}

func (l *lazyOutput) Decode() (map[string]any, error) {
	_, g, err := l.decoded()
	if err != nil {
		return nil, err
	}
	return jsonvalue.CloneObject(g), nil
}

// Same is true only of the output itself: another's bytes are not at hand.
func (l *lazyOutput) Same(other dialog.OutputSource) bool { return other == l }

func (l *lazyOutput) Size() (int, bool) { return 0, false }

// Differs reports whether other, an output read, is sure to differ from
// l by l's look (see readOutput.differsFromLook), without reading l.
func (l *lazyOutput) Differs(other dialog.OutputSource) bool {
	r, ok := other.(*readOutput)
	return ok && r.differsFromLook(l.p.look)
}

// readLazily makes each pending placeholder of base's dialog that theirs
// does not hold (unfound, see sharePending) a lazyOutput over lb, and
// reports whether every one was found where it was put.
func readLazily(base *dialog.Dialog, unfound []pendingOutput, lb *lazyBase) bool {
	for _, p := range unfound {
		if p.cell >= len(base.Messages) || p.out >= len(base.Messages[p.cell].Outputs) {
			return false
		}
		if r, ok := base.Messages[p.cell].Outputs[p.out].Source().(*readOutput); !ok || !isPlaceholder(r.out) {
			return false
		}
	}
	for _, p := range unfound {
		base.Messages[p.cell].Outputs[p.out] = dialog.SourcedOutput(&lazyOutput{base: lb, p: p})
	}
	return true
}
