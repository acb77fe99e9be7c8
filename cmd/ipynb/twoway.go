package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/nbformat"
)

// A two-way merge: conflict markers without a base section (git's
// default "merge" conflict style) give ours' and theirs' sides but not
// the base. fix merges them from an empty base, so that every cell is
// "added on both sides": cells equal on both sides are kept once, and a
// cell whose two versions differ is one cell with both versions between
// markers — when the cells have ids. Cells without ids (nbformat before
// 4.5) are matched by content, so the two versions of an edited cell
// would not be matched but both kept, one after the other, without a
// conflict being reported. So, for the merge only, such cells get ids
// made up from where they stand: cells equal on both sides (matched as
// a line diff matches lines) share an id, and between two of those the
// remaining cells of each side are paired in order. The made-up ids are
// removed from the result, and its format version restored.

// mergeTwoWay merges ours and theirs without a base: from an empty one,
// cells without ids paired as above.
func mergeTwoWay(ours, theirs []byte, opt mergeOptions) (*merged, error) {
	o, t, made, err := pairCells(ours, theirs)
	if err != nil {
		return nil, err
	}
	base, err := emptyBase(o)
	if err != nil {
		return nil, err
	}
	res, err := mergeBytes(base, o, t, opt)
	if err != nil || made == nil {
		return res, err
	}
	nb, err := nbformat.Unmarshal(ours)
	if err != nil {
		return nil, err
	}
	if res.data, err = unpairCells(res.data, made, nb.NbformatMinor); err != nil {
		return nil, err
	}
	return res, nil
}

// emptyBase is the notebook text with no cells, as a base for a two-way
// merge.
func emptyBase(text []byte) ([]byte, error) {
	nb, err := nbformat.Unmarshal(text)
	if err != nil {
		return nil, err
	}
	nb.Cells = nil
	return nbformat.Marshal(nb)
}

// madeUpPrefix starts the ids made up for a two-way merge.
const madeUpPrefix = "ipynb-fix-"

// pairCells returns ours and theirs with made-up ids on the cells that
// have none, paired as above (see the comment at the top), and the
// made-up ids; with nothing to do (every cell has an id, or the
// notebooks are not version 4) it returns them unchanged and made nil.
func pairCells(ours, theirs []byte) (o, t []byte, made map[string]bool, err error) {
	nbO, err := nbformat.Unmarshal(ours)
	if err != nil {
		return nil, nil, nil, &convert.MergeInputError{Input: "ours", Err: err}
	}
	nbT, err := nbformat.Unmarshal(theirs)
	if err != nil {
		return nil, nil, nil, &convert.MergeInputError{Input: "theirs", Err: err}
	}
	if nbO.Nbformat != 4 || nbT.Nbformat != 4 || allIDs(nbO) && allIDs(nbT) {
		return ours, theirs, nil, nil
	}
	rawO, err := rawCells(ours)
	if err != nil {
		return nil, nil, nil, err
	}
	rawT, err := rawCells(theirs)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(rawO) != len(nbO.Cells) || len(rawT) != len(nbT.Cells) {
		return ours, theirs, nil, nil
	}
	ids := newIDMaker(nbO, nbT)
	pairInOrder(textdiff.Match(rawO, rawT), nbO.Cells, nbT.Cells, ids.give)
	nbO.NbformatMinor, nbT.NbformatMinor = 5, 5
	if o, err = nbformat.Marshal(nbO); err != nil {
		return nil, nil, nil, err
	}
	if t, err = nbformat.Marshal(nbT); err != nil {
		return nil, nil, nil, err
	}
	return o, t, ids.made, nil
}

// idMaker makes up cell ids for a two-way merge: madeUpPrefix, a random
// stem and a count, none an id the notebooks have.
type idMaker struct {
	taken map[string]bool // the ids of the notebooks' cells
	made  map[string]bool
	stem  string
	n     int
}

func newIDMaker(nbs ...*nbformat.Notebook) *idMaker {
	taken := map[string]bool{}
	for _, nb := range nbs {
		for _, c := range nb.Cells {
			taken[string(nbformat.CellIDOf(c))] = true
		}
	}
	var r [4]byte
	rand.Read(r[:])
	return &idMaker{taken: taken, made: map[string]bool{}, stem: madeUpPrefix + hex.EncodeToString(r[:]) + "-"}
}

// newID returns a fresh made-up id.
func (m *idMaker) newID() nbformat.CellID {
	for {
		m.n++
		id := fmt.Sprintf("%s%d", m.stem, m.n)
		if !m.taken[id] {
			m.made[id] = true
			return nbformat.CellID(id)
		}
	}
}

// give gives the cells that have no id the id of the first one that has,
// or a made-up one.
func (m *idMaker) give(cs ...nbformat.Cell) {
	var id nbformat.CellID
	for _, c := range cs {
		if id = nbformat.CellIDOf(c); id != "" {
			break
		}
	}
	if id == "" {
		id = m.newID()
	}
	for _, c := range cs {
		if nbformat.CellIDOf(c) == "" {
			nbformat.SetCellID(c, id)
		}
	}
}

// pairInOrder calls give for each pair of cells of ours and theirs: the
// anchors (ours' cell i equal to theirs' cell m[i]), and, between two
// anchors, the remaining cells of each side in order (alone where one
// side has more).
func pairInOrder(m []int, ours, theirs []nbformat.Cell, give func(...nbformat.Cell)) {
	i, j := 0, 0
	for {
		// The next anchor: ours' cell i2 equal to theirs' cell m[i2].
		i2 := i
		for i2 < len(ours) && m[i2] < 0 {
			i2++
		}
		j2 := len(theirs)
		if i2 < len(ours) {
			j2 = m[i2]
		}
		// Pair the cells in between in order.
		for k := 0; i+k < i2 || j+k < j2; k++ {
			switch {
			case i+k < i2 && j+k < j2:
				give(ours[i+k], theirs[j+k])
			case i+k < i2:
				give(ours[i+k])
			default:
				give(theirs[j+k])
			}
		}
		if i2 == len(ours) {
			return
		}
		give(ours[i2], theirs[j2])
		i, j = i2+1, j2+1
	}
}

func allIDs(nb *nbformat.Notebook) bool {
	for _, c := range nb.Cells {
		if nbformat.CellIDOf(c) == "" {
			return false
		}
	}
	return true
}

// rawCells returns the bytes of each cell of a notebook text.
func rawCells(data []byte) ([]string, error) {
	var nb struct{ Cells []json.RawMessage }
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, err
	}
	out := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		out[i] = string(c)
	}
	return out, nil
}

// unpairCells removes the made-up ids from a merged notebook and gives it
// back ours' format minor version. The ids are removed from the text
// (nbformat keeps a member the bytes had), which gives back the cells'
// bytes as they were before pairCells added them.
func unpairCells(data []byte, made map[string]bool, minor int) ([]byte, error) {
	out := madeUpMember.ReplaceAllFunc(data, func(m []byte) []byte {
		id := madeUpMember.FindSubmatch(m)[1]
		if !made[string(id)] {
			return m
		}
		return nil
	})
	out = madeUpLast.ReplaceAllFunc(out, func(m []byte) []byte {
		id := madeUpLast.FindSubmatch(m)[1]
		if !made[string(id)] {
			return m
		}
		return nil
	})
	loc := minorMember.FindAllSubmatchIndex(out, -1)
	if len(loc) != 1 {
		return nil, fmt.Errorf("the merged notebook has %d nbformat_minor members", len(loc))
	}
	out = append(out[:loc[0][2]:loc[0][2]], append([]byte(fmt.Sprint(minor)), out[loc[0][3]:]...)...)
	nb, err := nbformat.Unmarshal(out)
	if err != nil {
		return nil, fmt.Errorf("removing the made-up cell ids: %w", err)
	}
	for _, c := range nb.Cells {
		if made[string(nbformat.CellIDOf(c))] {
			return nil, fmt.Errorf("a made-up cell id is left in the merged notebook")
		}
	}
	return out, nil
}

var (
	// A made-up id member followed by another member, with the space
	// before it; and one that is the last member, with the comma before.
	madeUpMember = regexp.MustCompile(`\s*"id"\s*:\s*"(` + madeUpPrefix + `[0-9a-f]+-[0-9]+)"\s*,`)
	madeUpLast   = regexp.MustCompile(`,\s*"id"\s*:\s*"(` + madeUpPrefix + `[0-9a-f]+-[0-9]+)"`)
	minorMember  = regexp.MustCompile(`"nbformat_minor"\s*:\s*(5)\b`)
)
