package convert

import (
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// readBufs holds what reading a notebook gives its messages and their
// snapshots piece by piece (outputs, execution counts), allocated once
// for the whole notebook: sized by a first look at its cells, then cut
// into capped pieces, so that appending to one never writes into another.
type readBufs struct {
	reads    []readOutput
	outs     []dialog.Output // the messages'
	snapOuts []dialog.Output // the snapshots'
	counts   []int           // execution counts, a message's and its snapshot's
}

// newReadBufs sizes the buffers for the cells of nb.
func newReadBufs(nb *nbformat.Notebook) *readBufs {
	outs, counts := 0, 0
	for _, c := range nb.Cells {
		if c, ok := c.(*nbformat.CodeCell); ok {
			outs += len(c.Outputs)
			if c.ExecutionCount != nil {
				counts += 2
			}
		}
	}
	return &readBufs{
		reads:    make([]readOutput, 0, outs),
		outs:     make([]dialog.Output, 0, outs),
		snapOuts: make([]dialog.Output, 0, outs),
		counts:   make([]int, 0, counts),
	}
}

// take returns the next n elements of buf (allocated anew when buf has
// no room: b nil, or a cell changed since the buffers were sized) and
// what is left of buf.
func take[T any](buf []T, n int) (piece, rest []T) {
	if len(buf)+n > cap(buf) {
		return make([]T, n), buf
	}
	piece = buf[len(buf) : len(buf)+n : len(buf)+n]
	return piece, buf[:len(buf)+n]
}

// count returns a pointer to a copy of n.
func (b *readBufs) count(n int) *int {
	if b == nil {
		return &n
	}
	var p []int
	p, b.counts = take(b.counts, 1)
	p[0] = n
	return &p[0]
}

// sourcedOutputs returns the dialog outputs of outs, outputs of a cell of
// nb (nil: of a cell not known to belong to a notebook).
func (b *readBufs) sourcedOutputs(outs []nbformat.Output, nb *nbformat.Notebook) []dialog.Output {
	var rs []readOutput
	var d []dialog.Output
	if b == nil {
		rs, d = make([]readOutput, len(outs)), make([]dialog.Output, len(outs))
	} else {
		rs, b.reads = take(b.reads, len(outs))
		d, b.outs = take(b.outs, len(outs))
	}
	for i, out := range outs {
		rs[i] = readOutput{out: out, nb: nb}
		d[i] = dialog.SourcedOutput(&rs[i])
	}
	return d
}

// snapshotOutputs returns a copy of a message's outputs for its snapshot.
func (b *readBufs) snapshotOutputs(outs []dialog.Output) []dialog.Output {
	if outs == nil {
		return nil
	}
	var c []dialog.Output
	if b == nil {
		c = make([]dialog.Output, len(outs))
	} else {
		c, b.snapOuts = take(b.snapOuts, len(outs))
	}
	copy(c, outs)
	return c
}
