package convert

// The merge of version 3 notebooks: when the merge stays version 3, its
// metadata keys the upgrade drops, and writing it as version 3.

import (
	"errors"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/v3write"
	"github.com/nbdialog/ipynb/nbformat"
)

// Writing a merge over a version 3 ours: the merge works on the
// notebooks' upgrades to 4.5 (as they are read); its result is written
// back as version 3 over ours' bytes by internal/v3write, each merged cell
// naming the version 3 cell it comes from, so that what the merge did not
// change is ours' bytes and the rest is in ours' style.

// mergeInputs are the three texts a merge reads.
type mergeInputs struct {
	base, ours, theirs []byte
	oursIsBase         bool // ours is base's very bytes
}

// keepsV3 reports whether the merge is written as version 3: ours is
// version 3, unless ours is base as it is (oursIsBase) and theirs moved
// to version 4 (the merge is then theirs, in theirs' format: what git
// does when ours did not change the file).
func keepsV3(oursIsBase bool, orgO, orgT *origin) bool {
	if orgO.nb.Nbformat != 3 {
		return false
	}
	return orgT.nb.Nbformat == 3 || !oursIsBase
}

// mergedV3Keys merges the version 3 notebook metadata keys the upgrade
// drops and the merge of the upgrades does not see: name and signature.
// Where only theirs changed (or removed) one, it is theirs'. It returns it where it differs from ours' (nil: removed), or
// nil when a side is not version 3. (Both sides changing it: ours', which
// IPython recomputes anyway.)
func mergedV3Keys(orgB, orgO, orgT *origin) map[string]any {
	if orgO.nb.Nbformat != 3 || orgT.nb.Nbformat != 3 || orgB.nb.Nbformat != 3 {
		return nil
	}
	var out map[string]any
	for _, k := range []string{"name", "signature"} {
		b, hb := orgB.nb.Metadata.AdditionalProperties[k]
		o, ho := orgO.nb.Metadata.AdditionalProperties[k]
		t, ht := orgT.nb.Metadata.AdditionalProperties[k]
		if ho != hb || ho && !jsonvalue.Equal(o, b) || ht == hb && (!ht || jsonvalue.Equal(t, b)) {
			continue // ours changed it, or theirs did not
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = t // (nil when theirs removed it)
	}
	return out
}

// marshalMergedV3 writes nb, the merge (its cells those of the merged
// messages msgs: ours' and theirs' upgraded cells, changed in place or as
// they are, or cells built anew), as version 3 over ours' text; meta is
// the merged notebook metadata, nil if it is ours'; sheets the worksheet
// of each cell (nil: ours' cells in theirs, see v3Sheets); versions maps each
// merged message to its base, ours and theirs versions. A merged message
// that is theirs' version (and not ours') is written as theirs' cell, so
// that its bytes are kept where its upgrade lost something of them (a
// heading's line breaks, say). Where ours or theirs is invalid (a side
// git's line merge cut, in fix), nb is healed, and that side's cells are
// written anew from it, so that none of their invalid bytes remain.
func (o options) marshalMergedV3(nb *nbformat.Notebook, msgs []*dialog.Message, versions map[*dialog.Message][3]*dialog.Message,
	meta map[string]any, sheets []int, orgO, orgT *origin, in mergeInputs) ([]byte, error) {
	from := make(map[nbformat.Cell]v3write.Cell, len(orgO.work.Cells)+len(orgT.work.Cells))
	var theirs []byte
	if orgT.nb.Nbformat == 3 && orgT.valid {
		theirs = in.theirs
		for j, c := range orgT.work.Cells {
			from[c] = v3write.Cell{From: v3write.Theirs, Index: j}
		}
	}
	if orgO.valid {
		for j, c := range orgO.work.Cells {
			from[c] = v3write.Cell{From: v3write.Ours, Index: j}
		}
	}
	cells := make([]v3write.Cell, len(nb.Cells))
	for k, c := range nb.Cells {
		x := from[c] // (New when the cell is neither side's)
		if k < len(msgs) && x.From == v3write.Ours && theirs != nil {
			if t, ok := o.theirsVersion(msgs[k], versions[msgs[k]], orgO, orgT, from); ok {
				x = t
			}
		}
		x.Cell = c
		cells[k] = x
	}
	if meta != nil {
		meta = withoutFilled(meta, in)
	}
	out, err := v3write.Write(in.ours, &v3write.Notebook{Cells: cells, Meta: meta, Theirs: theirs, Sheets: sheets})
	if err != nil {
		var we *v3write.Error
		if errors.As(err, &we) && errors.Is(err, v3write.ErrNotRepresentable) {
			// (The pointer is of the merge's cells in version 4 form.)
			return nil, fmt.Errorf("convert: merge: %s of the merged notebook (in version 4 form): %w; upgrading ours to version 4 merges it", we.Pointer, we.Err)
		}
		return nil, fmt.Errorf("convert: merge: writing nbformat 3: %w", err)
	}
	if !orgO.valid || orgT.nb.Nbformat == 3 && !orgT.valid {
		// What v3write keeps of ours outside its cells (a worksheet's
		// members) is as read, and a side git's line merge cut may have
		// its cells' members there: such a merge is refused, not written
		// invalid (nothing tells whose cell they were).
		if err := validV3(out); err != nil {
			return nil, fmt.Errorf("convert: merge: the merge of a side that is not a valid notebook would not be valid: %w", err)
		}
	}
	return out, nil
}

// validV3 checks a version 3 notebook written by v3write against its
// schema.
func validV3(data []byte) error {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return err
	}
	return nbformat.Validate(nb)
}

// theirsVersion returns theirs' version 3 cell of merged message m (v: its
// versions), when m is that version and not ours'.
func (o options) theirsVersion(m *dialog.Message, v [3]*dialog.Message, orgO, orgT *origin, from map[nbformat.Cell]v3write.Cell) (v3write.Cell, bool) {
	if v[2] == nil {
		return v3write.Cell{}, false
	}
	st := orgT.snap(v[2])
	if st == nil {
		return v3write.Cell{}, false
	}
	t, ok := from[st.cell]
	if !ok || t.From != v3write.Theirs || !o.sameIgnoringID(m, st) {
		return v3write.Cell{}, false
	}
	if v[1] != nil {
		if so := orgO.snap(v[1]); so != nil && o.sameIgnoringID(m, so) {
			return v3write.Cell{}, false // ours' too: ours' cell
		}
	}
	return t, true
}

// sameIgnoringID is sameMessage but for the ids (which a version 3
// notebook's cells do not have: they are made when it is read).
func (o options) sameIgnoringID(m *dialog.Message, s *snapshot) bool {
	c := *m
	c.ID = s.msg.ID
	return o.sameMessage(&c, s)
}
