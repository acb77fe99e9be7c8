package convert

import (
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/nbformat"
)

// Typed wrappers of the parts of nbformat that only the module uses
// (internal/nbimpl).

// unmarshalOwned reads a notebook from data without copying it: the
// notebook keeps data, which must never change afterwards.
func unmarshalOwned(data []byte) (*nbformat.Notebook, error) {
	nb, err := nbimpl.UnmarshalOwned(data)
	if err != nil {
		return nil, err
	}
	return nb.(*nbformat.Notebook), nil
}

// unmarshalUnwatched reads a notebook from data (kept without a copy when
// owned: data must then never change afterwards) without nbformat's
// snapshot for its unedited check: a dialog tells an unchanged dialog by
// its own snapshots (asRead), and a changed one makes nbformat compare its
// notebook's values with the bytes read anyway, so the snapshot would be
// taken for nothing (see nbimpl.UnmarshalUnwatched).
//
// An invalid notebook is given the snapshot all the same: writing its
// dialog heals it, which asks nbformat's unedited check, and a walk over
// the notebook's values would cost that more (time, and stack: the walk
// recurses with large frames) than the snapshot costs the read. The
// verdict is the validation of the bytes read, done once per notebook
// (and asked by Marshal anyway).
func unmarshalUnwatched(data []byte, owned bool) (*nbformat.Notebook, error) {
	x, err := nbimpl.UnmarshalUnwatched(data, owned)
	if err != nil {
		return nil, err
	}
	nb := x.(*nbformat.Notebook)
	if _, valid := nbimpl.ReadBytes(nb); !valid {
		nbimpl.Watch(nb)
	}
	return nb, nil
}

// healKeepingBOM is nbformat.Heal, except that a UTF-8 byte-order mark
// read stays, so that a dialog's file comes back exactly as it went in.
func healKeepingBOM(nb *nbformat.Notebook, written *[]byte) ([]nbformat.Repair, error) {
	repairs, err := nbimpl.Heal(nb, nbimpl.HealOptions{KeepBOM: true, Written: written})
	r, _ := repairs.([]nbformat.Repair)
	return r, err
}

// upgradedCopy is nbformat.Upgrade of a copy of a version 2 or 3
// notebook, nb left as it is, except that its cells are left without ids
// (the caller gives each the id of its message).
func upgradedCopy(nb *nbformat.Notebook) (*nbformat.Notebook, error) {
	up, err := nbimpl.UpgradedCopy(nb, false)
	if err != nil {
		return nil, err
	}
	return up.(*nbformat.Notebook), nil
}

// cloneCell returns a copy of c that can be changed without changing c
// (its maps, slices and bundles are shared until replaced).
func cloneCell(c nbformat.Cell) nbformat.Cell { return nbimpl.CloneCell(c).(nbformat.Cell) }

// nbformat's default limits of reading (a notebook's size, its nesting).
const (
	defaultMaxBytes = nbimpl.DefaultMaxBytes
	defaultMaxDepth = nbimpl.DefaultMaxDepth
)
