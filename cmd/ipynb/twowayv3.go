package main

// The two-way merge of a version 3 ours: the sides upgraded, merged as version
// 4, and written back as version 3 over ours.

import (
	"errors"
	"fmt"
	"maps"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/v3write"
	"github.com/nbdialog/ipynb/nbformat"
)

// A two-way merge of a version 3 ours (fix, without a base section):
// both sides as their upgrades to 4.4 without ids (a version 4 theirs as
// it is), their cells paired and merged from an empty base as for
// version 4 (see mergeTwoWay), and the result written back as version 3
// over ours by internal/v3write: each merged cell names, by the id made
// up for the merge, the cell of ours (or of a version 3 theirs) it comes
// from, so that what did not change keeps its bytes.

// mergeTwoWayV3 is mergeTwoWay for a version 3 ours.
func mergeTwoWayV3(ours, theirs []byte, opt mergeOptions) (*merged, error) {
	o4, err := upgradedText(ours)
	if err != nil {
		return nil, &convert.Error{Op: "merge", Input: "ours", Err: err}
	}
	t4, theirsV3 := theirs, false
	if m, _ := majorVersionOf(theirs); m == 3 {
		if t4, err = upgradedText(theirs); err != nil {
			return nil, &convert.Error{Op: "merge", Input: "theirs", Err: err}
		}
		theirsV3 = true
	}
	o, t, _, _, err := pairCells(o4, t4)
	if err != nil {
		return nil, err
	}
	base, err := emptyBase(o)
	if err != nil {
		return nil, err
	}
	res, err := mergeBytes(base, o, t, opt)
	if err != nil {
		return nil, err
	}
	// Where each merged cell comes from, by its id: ours' cell, else
	// theirs' (a version 3 theirs), else none.
	from := map[nbformat.CellID]v3write.Cell{}
	var theirsData []byte
	var theirsCells []map[string]any
	theirsAt := map[nbformat.CellID]v3write.Cell{}
	if theirsV3 && validV3Text(theirs) {
		theirsData, theirsCells = theirs, theirsV3Cells(theirs)
		if err := cellsByID(t, v3write.Theirs, from); err != nil {
			return nil, err
		}
		maps.Copy(theirsAt, from)
	} else if m, _ := majorVersionOf(theirs); m > 3 {
		res.note = fmt.Sprintf("theirs is nbformat %d: the result stays nbformat 3, as ours", m)
	}
	if validV3Text(ours) {
		// (An invalid ours, a side git's line merge cut, has its cells
		// written anew from the merge's, which is healed.)
		if err := cellsByID(o, v3write.Ours, from); err != nil {
			return nil, err
		}
	}
	rnb, err := nbformat.Unmarshal(res.data)
	if err != nil {
		return nil, fmt.Errorf("the merge did not give a notebook (a bug): %w", err)
	}
	cells := make([]v3write.Cell, len(rnb.Cells))
	for k, c := range rnb.Cells {
		id := nbformat.CellIDOf(c)
		if tc, ok := theirsAt[id]; ok && tc.Index < len(theirsCells) {
			recordTheirsV3Kind(c, theirsCells[tc.Index])
		}
		x := from[id]
		x.Cell = c
		cells[k] = x
	}
	meta, err := changedMeta(res.data, o)
	if err != nil {
		return nil, err
	}
	if keys := theirsV3Keys(ours, theirs, theirsV3); len(keys) > 0 {
		if meta == nil {
			if meta, err = mergedMeta(res.data); err != nil {
				return nil, err
			}
		}
		maps.Copy(meta, keys)
	}
	if res.data, err = v3write.Write(ours, &v3write.Notebook{Cells: cells, Meta: meta, Theirs: theirsData}); err != nil {
		var we *v3write.Error
		if errors.As(err, &we) && errors.Is(err, v3write.ErrNotRepresentable) {
			return nil, fmt.Errorf("%s of the merged notebook (in version 4 form): %w; upgrading ours to version 4 merges it", we.Pointer, we.Err)
		}
		return nil, err
	}
	return res, nil
}

// validV3Text reports whether a notebook text is a valid notebook.
func validV3Text(data []byte) bool {
	nb, err := nbformat.Unmarshal(data)
	return err == nil && nbformat.Validate(nb) == nil
}

// upgradedText is a version 3 notebook text's upgrade, as version 4.4
// without cell ids (the form pairCells pairs).
func upgradedText(v3 []byte) ([]byte, error) {
	nb, err := nbformat.Unmarshal(v3)
	if err != nil {
		return nil, err
	}
	if err := nbformat.Upgrade(nb); err != nil {
		return nil, err
	}
	for _, c := range nb.Cells {
		nbformat.SetCellID(c, "")
	}
	nb.NbformatMinor = 4
	return nbformat.Marshal(nb)
}

// cellsByID records, for each cell of the notebook text by its id, that
// it is the cell at its index of side.
func cellsByID(text []byte, side v3write.Side, from map[nbformat.CellID]v3write.Cell) error {
	nb, err := nbformat.Unmarshal(text)
	if err != nil {
		return err
	}
	for j, c := range nb.Cells {
		from[nbformat.CellIDOf(c)] = v3write.Cell{From: side, Index: j}
	}
	return nil
}

// changedMeta returns the notebook metadata of the merged text as a
// generic object (its values as written), or nil where it is ours' (the
// text o) as a value.
func changedMeta(merged, o []byte) (map[string]any, error) {
	mr, okR := topMember(merged, "metadata")
	mo, okO := topMember(o, "metadata")
	if !okR {
		return nil, fmt.Errorf("the merged notebook has no metadata (a bug)")
	}
	if okO {
		a, errA := jsonvalue.Decode(mr)
		b, errB := jsonvalue.Decode(mo)
		if errA == nil && errB == nil && jsonvalue.Equal(a, b) {
			return nil, nil
		}
	}
	return mergedMeta(merged)
}

// mergedMeta returns the notebook metadata of the merged text as a
// generic object (its values as written).
func mergedMeta(merged []byte) (map[string]any, error) {
	meta, ok := topMeta(merged)
	if !ok {
		return nil, fmt.Errorf("the merged notebook's metadata is not an object (a bug)")
	}
	return meta, nil
}

// topMeta returns a notebook text's top-level metadata as a generic
// object (its values as written); false if it has none that is an object.
func topMeta(data []byte) (map[string]any, bool) {
	raw, ok := topMember(data, "metadata")
	if !ok {
		return nil, false
	}
	ms, ok := jsonvalue.Members(raw)
	if !ok {
		return nil, false
	}
	meta := make(map[string]any, len(ms))
	for _, m := range ms {
		meta[m.Key] = m.Value
	}
	return meta, true
}

// theirsV3Keys returns the version 3 notebook metadata keys that the
// upgrade drops (name, signature) which a version 3 theirs has and ours
// has not, with theirs' values: from an empty base, theirs added them,
// and the merge of the upgrades does not see them (nil if none).
func theirsV3Keys(ours, theirs []byte, theirsV3 bool) map[string]any {
	if !theirsV3 {
		return nil
	}
	o, _ := topMeta(ours)
	t, _ := topMeta(theirs)
	var out map[string]any
	for _, k := range []string{"name", "signature"} {
		if v, ok := t[k]; ok {
			if _, has := o[k]; !has {
				if out == nil {
					out = map[string]any{}
				}
				out[k] = v
			}
		}
	}
	return out
}

// topMember returns the value of a notebook text's top-level member key
// (its last), as written.
func topMember(data []byte, key string) ([]byte, bool) { return jsonvalue.MemberRaw(data, key) }
