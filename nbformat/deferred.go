package nbformat

// Outputs made only when written (internal/nbdefer): a merge's outputs
// taken from another notebook are decoded one cell at a time as the
// notebook is written, not all at once before.

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/nbdefer"
)

func init() {
	nbdefer.Output = func(typ string, build func() (any, error)) any {
		return &deferredOutput{typ: OutputType(typ), build: build}
	}
}

// deferredOutput is an output made by build when the writer reaches it
// (see internal/nbdefer).
type deferredOutput struct {
	typ   OutputType
	build func() (any, error)
}

func (d *deferredOutput) Type() OutputType { return d.typ }

func (*deferredOutput) isOutput() {}

// madeOutputs returns v with its deferred outputs made (v itself when it
// holds none), for the encoder to write or compare: the outputs made are
// the caller's alone, let go once it is done with them. An output that
// cannot be made fails the encoder, and is written as null.
func (e *encoder) madeOutputs(v []Output) []Output {
	var out []Output
	for i, o := range v {
		d, ok := o.(*deferredOutput)
		if !ok {
			continue
		}
		if out == nil {
			out = append([]Output(nil), v...)
		}
		x, err := d.build()
		made, isOutput := x.(Output)
		if _, again := x.(*deferredOutput); err == nil && (!isOutput || again || isNilVariant(made)) {
			err = fmt.Errorf("nbformat: a deferred output made %T", x)
		}
		if err != nil {
			e.fail(err)
			made = &UnknownOutput{Raw: []byte("null")}
		}
		out[i] = made
	}
	if out == nil {
		return v
	}
	return out
}
