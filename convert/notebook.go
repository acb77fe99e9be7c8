package convert

// The notebooks a dialog keeps: read, healed and upgraded through
// nbformat's API, and their cells copied.

import (
	"bytes"
	"slices"

	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/nbformat"
)

// readNotebook reads the notebook a dialog's origin keeps, from a copy of
// data if copyData, else from data itself (which must then never change
// afterwards), and returns it with the bytes it keeps.
func readNotebook(data []byte, copyData bool) (*nbformat.Notebook, []byte, error) {
	if copyData {
		data = bytes.Clone(data)
	}
	nb, err := nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(data)
	return nb, data, err
}

// healKeepingBOM is nbformat.Heal, except that a UTF-8 byte-order mark
// read stays, so that a dialog's file comes back exactly as it went in.
func healKeepingBOM(nb *nbformat.Notebook, written *[]byte) ([]nbformat.Repair, error) {
	return nbformat.HealOptions{KeepBOM: true, Written: written}.Heal(nb)
}

// upgradedCopy is nbformat.Upgrade of a copy of a version 2 or 3
// notebook, nb left as it is (see nbformat.Upgrade). The ids it gives the
// cells are replaced by those of their messages.
func upgradedCopy(nb *nbformat.Notebook) (*nbformat.Notebook, error) {
	cp := *nb
	if err := nbformat.Upgrade(&cp); err != nil {
		return nil, err
	}
	return &cp, nil
}

// cloneCell returns a copy of c that can be changed without changing c
// (its maps, slices and bundles are shared until replaced). The copy keeps
// c's provenance: nbformat compares it with the cell c was read from.
func cloneCell(c nbformat.Cell) nbformat.Cell {
	switch c := c.(type) {
	case *nbformat.CodeCell:
		x := *c
		return &x
	case *nbformat.MarkdownCell:
		x := *c
		return &x
	case *nbformat.RawCell:
		x := *c
		return &x
	case *nbformat.UnknownCell:
		x := *c
		x.Raw = slices.Clone(c.Raw)
		return &x
	}
	return c
}

// nbformat's default limits of reading (a notebook's size, its nesting).
const (
	defaultMaxBytes = nblimits.DefaultMaxBytes
	defaultMaxDepth = nblimits.DefaultMaxDepth
)
