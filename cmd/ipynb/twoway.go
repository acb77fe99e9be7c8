package main

// The two-way merge of fix for markers without a base section: cells paired by
// made-up ids, merged from an empty base.

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
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
// a line diff matches lines) share an id, and so do, between two of
// those, cells of one kind and source in order (see matchContent), and
// then cells equal on both sides out of that order (a cell a side
// moved: see pairMoved); between two of the cells paired in order the
// remaining cells of each side are paired in order. The result has the
// higher of the two sides' format minor versions, with what it needs:
// before 4.5 no cell has an id (the made-up ones, and any a 4.5 side
// had, are removed); from 4.5 every cell has one (made-up ones are
// replaced by fresh ids like Jupyter's). The result is edited as parsed
// JSON: members are found by their place in the notebook's structure,
// never by a pattern over its text.

// mergeTwoWay merges ours and theirs without a base: from an empty one,
// cells without ids paired as above; a version 3 side as its upgrade (see
// mergeTwoWayV3).
func mergeTwoWay(ours, theirs []byte, opt mergeOptions) (*merged, error) {
	switch om, _ := majorVersionOf(ours); {
	case om == 3:
		return mergeTwoWayV3(ours, theirs, opt)
	case om > 3:
		if tm, _ := majorVersionOf(theirs); tm == 3 {
			// (Paired with ours' cells as version 4 cells are.)
			t, err := upgradedText(theirs)
			if err != nil {
				return nil, &convert.Error{Op: "merge", Input: "theirs", Err: err}
			}
			theirs = t
		}
	}
	o, t, made, minor, err := pairCells(ours, theirs)
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
	if res.data, err = unpairCells(res.data, made, minor); err != nil {
		return nil, err
	}
	return res, nil
}

// emptyBase is a notebook of the text's version with no cells, no
// metadata and no other members, as a base for a two-way merge: every
// value either side has is added (kept where both agree, a conflict where
// they do not), none taken for one side's unchanged.
func emptyBase(text []byte) ([]byte, error) {
	nb, err := unmarshalOwned(text) // (text is not changed)
	if err != nil {
		return nil, err
	}
	empty := nbformat.New()
	empty.Nbformat, empty.NbformatMinor = nb.Nbformat, nb.NbformatMinor
	return nbformat.Marshal(empty)
}

// madeUpPrefix starts the ids made up for a two-way merge.
const madeUpPrefix = "ipynb-fix-"

// pairCells returns ours and theirs with made-up ids on the cells that
// have none, paired as above (see the comment at the top), the made-up
// ids, and the minor version the result takes (the higher of the two);
// with nothing to do (every cell has an id, or the notebooks are not
// version 4) it returns them unchanged and made nil.
func pairCells(ours, theirs []byte) (o, t []byte, made map[string]bool, minor int, err error) {
	// (Read without copying the texts, which do not change.)
	nbO, err := unmarshalOwned(ours)
	if err != nil {
		return nil, nil, nil, 0, &convert.Error{Op: "merge", Input: "ours", Err: err}
	}
	nbT, err := unmarshalOwned(theirs)
	if err != nil {
		return nil, nil, nil, 0, &convert.Error{Op: "merge", Input: "theirs", Err: err}
	}
	if nbO.Nbformat != 4 || nbT.Nbformat != 4 || allIDs(nbO) && allIDs(nbT) {
		return ours, theirs, nil, 0, nil
	}
	minor = max(nbO.NbformatMinor, nbT.NbformatMinor)
	rawO, okO := rawCells(ours)
	rawT, okT := rawCells(theirs)
	if !okO || !okT || len(rawO) != len(nbO.Cells) || len(rawT) != len(nbT.Cells) {
		return ours, theirs, nil, 0, nil
	}
	ids := newIDMaker(nbO, nbT)
	m := textdiff.Match(rawO, rawT)
	kO, kT := contentKeys(nbO.Cells), contentKeys(nbT.Cells)
	matchContent(m, kO, kT)
	m, restO, restT := pairMoved(m, nbO.Cells, nbT.Cells, [2][2][]string{{rawO, rawT}, {kO, kT}}, ids.give)
	pairInOrder(m, restO, restT, ids.give)
	nbO.NbformatMinor, nbT.NbformatMinor = 5, 5
	if o, err = nbformat.Marshal(nbO); err != nil {
		return nil, nil, nil, 0, err
	}
	if t, err = nbformat.Marshal(nbT); err != nil {
		return nil, nil, nil, 0, err
	}
	return o, t, ids.made, minor, nil
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
// anchors, the remaining cells of each side paired as pairRun pairs them
// (alone where one side has more).
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
		pairRun(ours[i:i2], theirs[j:j2], give)
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

// rawCells returns, for each cell of a notebook text, a string equal for
// cells of equal bytes: their SHA-256 hash (the cells are compared, not
// copied).
func rawCells(data []byte) ([]string, bool) {
	spans, ok := cellSpans(data)
	if !ok {
		return nil, false
	}
	out := make([]string, len(spans))
	for i, sp := range spans {
		h := sha256.Sum256(data[sp[0]:sp[1]])
		out[i] = string(h[:])
	}
	return out, true
}

// cellSpans returns where each cell of a notebook text is (offsets of
// its first byte and its end), found by the notebook's structure: the
// elements of the top-level member "cells" (its last occurrence).
func cellSpans(data []byte) ([][2]int, bool) {
	top, ok := jsonvalue.Spans(data)
	if !ok {
		return nil, false
	}
	cells := -1
	for i, sp := range top {
		if sp.Key == "cells" {
			cells = i
		}
	}
	if cells < 0 {
		return nil, false
	}
	sp := top[cells]
	spans, ok := jsonvalue.ElementSpans(data[sp.Value:sp.End])
	for i := range spans {
		spans[i][0] += sp.Value
		spans[i][1] += sp.Value
	}
	return spans, ok
}

// A textEdit replaces data[from:to] by with.
type textEdit struct {
	from, to int
	with     []byte
}

// applyEdits applies edits (in order, not overlapping) to data.
func applyEdits(data []byte, edits []textEdit) []byte {
	out := make([]byte, 0, len(data))
	at := 0
	for _, e := range edits {
		out = append(append(out, data[at:e.from]...), e.with...)
		at = e.to
	}
	return append(out, data[at:]...)
}

// removeMember is the edit removing member j of the object whose member
// spans are ss (offsets in the text being edited), with the separator
// that goes with it: the comma after it, or, for the last, the one before.
func removeMember(ss []jsonvalue.Span, j int) textEdit {
	switch {
	case j+1 < len(ss):
		return textEdit{from: ss[j].Start, to: ss[j+1].Start}
	case j > 0:
		return textEdit{from: ss[j-1].End, to: ss[j].End}
	}
	return textEdit{from: ss[j].Start, to: ss[j].End}
}

// unpairCells gives a merged notebook what its minor version needs and
// the minor version itself: before 4.5 no cell keeps an id, from 4.5 the
// made-up ids are replaced by fresh ones. Only those members' bytes
// change: each cell's bytes are otherwise as the merge wrote them (which
// are, for a cell taken unchanged from a side, the side's bytes before
// pairCells gave it an id).
func unpairCells(data []byte, made map[string]bool, minor int) ([]byte, error) {
	spans, ok := cellSpans(data)
	if !ok {
		return nil, fmt.Errorf("the merged notebook has no list of cells")
	}
	var edits []textEdit
	taken := map[string]bool{}
	type idAt struct {
		cell   int
		spans  []jsonvalue.Span
		member int
		id     string
	}
	var ids []idAt
	for i, sp := range spans {
		ss, ok := jsonvalue.Spans(data[sp[0]:sp[1]])
		if !ok {
			continue
		}
		for j := range ss {
			ss[j].Start += sp[0]
			ss[j].Value += sp[0]
			ss[j].End += sp[0]
		}
		for j, m := range ss {
			if m.Key != "id" {
				continue
			}
			v, err := jsonvalue.Decode(data[m.Value:m.End])
			id, _ := v.(string)
			if err == nil {
				taken[id] = true
			}
			ids = append(ids, idAt{i, ss, j, id})
		}
	}
	for _, x := range ids {
		switch {
		case minor < 5:
			edits = append(edits, removeMember(x.spans, x.member))
		case made[x.id]:
			m := x.spans[x.member]
			edits = append(edits, textEdit{from: m.Value, to: m.End, with: jsonvalue.AppendQuoted(nil, freshID(taken))})
		}
	}
	top, _ := jsonvalue.Spans(data)
	for _, m := range top {
		if m.Key == "nbformat_minor" {
			edits = append(edits, textEdit{from: m.Value, to: m.End, with: []byte(strconv.Itoa(minor))})
		}
	}
	slices.SortFunc(edits, func(a, b textEdit) int { return a.from - b.from })
	out := applyEdits(data, edits)
	nb, err := nbformat.Unmarshal(out)
	if err != nil {
		return nil, fmt.Errorf("removing the made-up cell ids: %w", err)
	}
	for _, c := range nb.Cells {
		if id := string(nbformat.CellIDOf(c)); made[id] || minor < 5 && id != "" {
			return nil, fmt.Errorf("a made-up cell id is left in the merged notebook")
		}
	}
	return out, nil
}

// freshID returns a cell id as Jupyter makes them (8 random hex digits)
// not in taken, and takes it.
func freshID(taken map[string]bool) string {
	for {
		var r [4]byte
		rand.Read(r[:])
		if id := hex.EncodeToString(r[:]); !taken[id] {
			taken[id] = true
			return id
		}
	}
}
