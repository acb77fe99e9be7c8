package convert

import (
	"slices"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/nbformat"
)

// Writing an unchanged dialog back: the notebook it was read from, as
// read, when that notebook is valid (so that Heal would leave it as it is)
// and nothing would write the messages' ids differently. Deciding so costs
// the comparison of each message with its snapshot and the validation of
// the bytes read, which nbformat does once per notebook: no walk over the
// typed notebook (nbformat's unedited check), no Heal.

// asRead returns, for a dialog unchanged since it was read (all its
// messages, no Options.Messages), the notebook it was read from and the
// bytes that notebook was read from, which are then exactly what writing
// the dialog gives; nil, nil otherwise. It answers only for notebooks this
// package parsed itself (origin.pristine), which no one else can have
// changed.
func (o options) asRead(d *File, only []*dialog.Message) (*nbformat.Notebook, []byte) {
	org := d.org
	if org == nil || !org.pristine || only != nil || org.inPlace {
		return nil, nil
	}
	nb := org.nb
	switch {
	case nb.Nbformat == 4:
		if org.work != nb {
			return nil, nil
		}
		if org.generated && (cellid.Written(nb.Nbformat, nb.NbformatMinor) || hasCellIDs(nb)) {
			// A made-up id would be written into its cell.
			return nil, nil
		}
	case nb.Nbformat < 4:
		if !org.valid {
			return nil, nil // written as its upgrade
		}
	default:
		return nil, nil
	}
	if !o.carried(org).unchanged(d.Dialog, org) {
		return nil, nil
	}
	if org.data == nil || !org.bytesValid() {
		return nil, nil
	}
	return nb, org.data
}

// bytesValid reports whether the bytes a pristine notebook was read from
// are valid: Validate's verdict on it (see origin.validate).
func (org *origin) bytesValid() bool { return org.validate() == nil }

// verdict is nbformat.Validate's answer for a notebook no one changes,
// asked once: nbformat validates the bytes read once, but its check that
// the notebook is unedited is made anew each time, and an invalid
// notebook's error is built anew (its problems copied and placed). The
// error is shared by every caller, which only reads it.
type verdict struct {
	once sync.Once
	err  error
}

// validate returns nbformat.Validate(org.nb), asked once (concurrent
// writes of one dialog share it).
func (org *origin) validate() error {
	org.verdict.once.Do(func() { org.verdict.err = nbformat.Validate(org.nb) })
	return org.verdict.err
}

// readCopy returns a copy of nb, unedited, that the caller may change
// without changing nb: its cells are in a slice of its own (the cells
// themselves are shared, as a dialog's unchanged messages always shared
// them).
func readCopy(nb *nbformat.Notebook) *nbformat.Notebook {
	cp := *nb
	cp.Cells = slices.Clone(nb.Cells)
	return &cp
}
