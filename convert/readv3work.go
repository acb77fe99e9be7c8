package convert

import (
	"errors"
	"fmt"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// The upgrade of a version 2 or 3 notebook read straight into messages
// (see readV3), made when first needed, and the handles of its outputs.

// v3Work is the upgrade of a notebook read directly, made once.
type v3Work struct {
	once sync.Once
	err  error
	outs []nbformat.Output // the upgrade's outputs in order (see v3Output.k)
}

// upgraded makes org's upgrade to 4.5 if org was read straight from a
// version 2 or 3 notebook and it is not made yet: org.work, and the cell
// of each snapshot read, are set then. Whatever reads org.work or a
// snapshot's cell calls it first (writing a changed dialog, a merge, the
// outputs' handles): it is safe to call from several goroutines at once
// (two Marshal calls of one dialog), the first making the upgrade and
// every call returning once it is made. The error is the upgrade's.
func (org *origin) upgraded() error {
	if org == nil || org.lazy == nil {
		return nil
	}
	l := org.lazy
	l.once.Do(func() { l.err = org.makeWork() })
	return l.err
}

// errV3Mismatch: the upgrade of a notebook read directly does not have
// the cells or outputs the direct reading found (a program error).
var errV3Mismatch = errors.New("convert: the upgrade of a version 3 notebook differs from its direct reading")

// makeWork makes org's upgrade: its cells take their messages' ids (as
// reading the upgrade gives them), and become the snapshots' cells.
func (org *origin) makeWork() error {
	work, err := upgradedCopy(org.nb)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	if len(work.Cells) != len(org.cells) {
		return fmt.Errorf("%w: %d cells, %d read", errV3Mismatch, len(work.Cells), len(org.cells))
	}
	var outs []nbformat.Output
	for i, c := range work.Cells {
		s := &org.cells[i].snap
		switch c := c.(type) {
		case *nbformat.CodeCell:
			outs = append(outs, c.Outputs...)
		case *nbformat.MarkdownCell, *nbformat.RawCell:
		default:
			return fmt.Errorf("%w: cell %d is %T", errV3Mismatch, i, c)
		}
		nbformat.SetCellID(c, nbformat.CellID(s.msg.ID))
		s.cell = c
	}
	org.lazy.outs = outs
	org.work = work
	return nil
}

// v3Output is an output of a notebook read directly: its output_type,
// known from the reading, and its place among the upgrade's outputs,
// which it is once the upgrade is made (see readOf).
type v3Output struct {
	org *origin
	k   int    // the index of its output in org.lazy.outs
	typ string // its output_type
}

// Type returns the output_type (the upgrade's: execute_result for pyout,
// error for pyerr).
func (v *v3Output) Type() string { return v.typ }

// read returns the output of the upgrade it is, as a readOutput.
func (v *v3Output) read() (readOutput, error) {
	if err := v.org.upgraded(); err != nil {
		return readOutput{}, err
	}
	if v.k >= len(v.org.lazy.outs) {
		return readOutput{}, fmt.Errorf("%w: output %d of %d", errV3Mismatch, v.k, len(v.org.lazy.outs))
	}
	return readOutput{out: v.org.lazy.outs[v.k], nb: v.org.work}, nil
}

// Decode returns the output as generic JSON (see readOutput.Decode).
func (v *v3Output) Decode() (map[string]any, error) {
	r, err := v.read()
	if err != nil {
		return nil, err
	}
	return r.Decode()
}

// Same reports whether other is an output read that is sure to decode to
// the same generic JSON (see readOutput.Same).
func (v *v3Output) Same(other dialog.OutputSource) bool {
	if o, ok := other.(*v3Output); ok && o == v {
		return true
	}
	r, err := v.read()
	return err == nil && r.Same(other)
}

// Size returns the size of the output's generic form (see
// readOutput.Size).
func (v *v3Output) Size() (n int, ok bool) {
	r, err := v.read()
	if err != nil {
		return 0, false
	}
	return r.Size()
}

// readOf returns the readOutput an output source of this package is:
// itself, or the upgrade's output a v3Output is; ok is false for other
// sources (and for a v3Output whose upgrade fails).
func readOf(src dialog.OutputSource) (r readOutput, ok bool) {
	switch s := src.(type) {
	case *readOutput:
		return *s, true
	case *v3Output:
		r, err := s.read()
		return r, err == nil
	}
	return readOutput{}, false
}
