package convert

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

// MergeResult is the outcome of a merge of notebooks.
type MergeResult struct {
	// Data is the merged notebook, in ours' style: it differs from ours
	// only in the cells (and notebook metadata keys) the merge changed.
	// It is a valid notebook even when conflicts remain.
	Data []byte
	// Conflicts are what the merge could not decide (see
	// dialog.Conflict), in cell order, notebook metadata last. Their
	// unresolved texts are in Data between conflict markers.
	Conflicts []dialog.Conflict
}

// Clean reports whether the merge left no conflicts.
func (r *MergeResult) Clean() bool { return len(r.Conflicts) == 0 }

// Merge merges notebooks three-way. See [Options.Merge].
func Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	return Options{}.Merge(base, ours, theirs, opt)
}

// A MergeInputError reports a merge input that cannot be read as a
// notebook: Input is "base", "ours" or "theirs"; Err says why and where
// (an *nbformat.SyntaxError with line and column, or an error with a JSON
// Pointer; use errors.As).
type MergeInputError struct {
	Input string
	Err   error
}

func (e *MergeInputError) Error() string {
	return "convert: merge: " + e.Input + ": " + trimPrefix(e.Err)
}

func (e *MergeInputError) Unwrap() error { return e.Err }

func trimPrefix(err error) string {
	s := err.Error()
	const p = "convert: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// Merge merges the notebooks ours and theirs made from base, as
// dialog.Merge merges dialogs: cells are matched by id, or by content
// where a notebook has no cell ids (before nbformat 4.5); opt.Unkeyed is
// ORed with that. The merged notebook is written in ours' style, changing
// only the cells the merge changed: a cell ours left alone and the merge
// kept is ours' bytes; a changed cell is rewritten where it changed, in
// ours' style; a cell only theirs has keeps theirs' bytes where the two
// files share a style. Conflicting texts are written between conflict
// markers inside their cells, so the result is always a valid notebook.
//
// An input that is not a readable notebook fails with a
// *MergeInputError; nothing is merged then.
func (o Options) Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	// The three are read at once (on as many cores as there are). The
	// notebooks live only during the merge, and nothing returned refers to
	// them: they may read the inputs without copying them.
	var ds [3]*dialog.Dialog
	var errs [3]error
	var wg sync.WaitGroup
	for i, in := range [3][]byte{base, ours, theirs} {
		wg.Go(func() {
			nb, err := nbformat.UnmarshalOptions{}.UnmarshalOwned(in)
			if err == nil {
				ds[i], err = o.ToDialog(nb)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, &MergeInputError{Input: [3]string{"base", "ours", "theirs"}[i], Err: err}
		}
	}
	return o.mergeDialogs(ds[0], ds[1], ds[2], theirs, opt)
}

// mergeDialogs merges dialogs read by this package (Source set), writing
// the result in ours' style; theirsData, if not nil, is what theirs was
// read from. Ours' notebook is changed in place: it must be private to the
// merge.
func (o Options) mergeDialogs(base, ours, theirs *dialog.Dialog, theirsData []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	orgs := [3]*origin{}
	for i, d := range [3]*dialog.Dialog{base, ours, theirs} {
		org, ok := d.Source.(*origin)
		if !ok {
			return nil, errors.New("convert: merge: a dialog was not read from a notebook")
		}
		orgs[i] = org
	}
	snapOf := func(m *dialog.Message) *snapshot {
		for _, org := range orgs {
			if s := org.snaps[m]; s != nil {
				return s
			}
		}
		return nil
	}
	userUnkeyed, userEqual, userTrace := opt.Unkeyed, opt.Equal, opt.Trace
	opt.Unkeyed = func(m *dialog.Message) bool {
		if s := snapOf(m); s != nil && s.generated {
			return true
		}
		return userUnkeyed != nil && userUnkeyed(m)
	}
	opt.Equal = func(a, b *dialog.Message) bool {
		if sa, sb := snapOf(a), snapOf(b); sa != nil && sb != nil && !sameHidden(sa.cell, sb.cell) {
			return false
		}
		return userEqual == nil || userEqual(a, b)
	}
	versions := map[*dialog.Message][3]*dialog.Message{}
	opt.Trace = func(m, b, o, t *dialog.Message) {
		versions[m] = [3]*dialog.Message{b, o, t}
		if userTrace != nil {
			userTrace(m, b, o, t)
		}
	}
	merged, conflicts := dialog.Merge(base, ours, theirs, opt)
	data, err := o.marshalMerged(merged, versions, orgs[0], orgs[1], orgs[2], theirsData)
	if err != nil {
		return nil, err
	}
	return &MergeResult{Data: data, Conflicts: conflicts}, nil
}

// marshalMerged writes a merged dialog over ours' notebook: unchanged
// messages of ours as their cells, changed ones into their cells in place,
// theirs' messages as theirs' cells when the two notebooks are of one
// version.
func (o Options) marshalMerged(merged *dialog.Dialog, versions map[*dialog.Message][3]*dialog.Message, orgB, orgO, orgT *origin, theirsData []byte) ([]byte, error) {
	mo := &origin{nb: orgO.nb, work: orgO.work, meta: orgO.meta, valid: orgO.valid, inPlace: true,
		snaps: make(map[*dialog.Message]*snapshot, len(merged.Messages))}
	if w := orgO.work; w.Nbformat == 4 && orgT.work.Nbformat == 4 && orgB.work.Nbformat == 4 &&
		w.NbformatMinor == orgB.work.NbformatMinor && orgT.work.NbformatMinor != w.NbformatMinor {
		// Theirs changed the minor version (ours did not): so does the merge.
		cp := *w
		cp.NbformatMinor = orgT.work.NbformatMinor
		mo.work = &cp
		mo.valid = false
	}
	theirsRaw := &rawCells{nb: orgT.nb, data: theirsData}
	sameVersion := orgT.work.Nbformat == orgO.work.Nbformat && (orgT.work.NbformatMinor >= 5) == (orgO.work.NbformatMinor >= 5)
	for _, m := range merged.Messages {
		so, st := orgO.snaps[m], orgT.snaps[m]
		var ours *snapshot
		if v := versions[m][1]; v != nil {
			ours = orgO.snaps[v]
		}
		switch {
		case so != nil: // ours' message as it was: its cell
			mo.snaps[m] = so
		case ours != nil && st != nil && sameVersion && takeCell(ours.cell, st.cell):
			// Theirs' message as it was, over ours' cell: the cell keeps
			// its place in ours' file, with theirs' content.
			mo.snaps[m] = &snapshot{msg: st.msg, cell: ours.cell, generated: st.generated}
		case ours != nil: // changed: written into ours' cell
			mo.snaps[m] = ours
		case st != nil && sameVersion: // theirs' message as it was: its cell
			mo.snaps[m] = st
			if raw := theirsRaw.of(st.cell); raw != nil && !(st.generated && mo.work.NbformatMinor >= 5) {
				// Its very bytes, rewritten only where the styles differ.
				mo.snaps[m] = &snapshot{msg: st.msg, cell: &nbformat.UnknownCell{Raw: raw}}
			}
		case versions[m][2] != nil && orgT.snaps[versions[m][2]] != nil:
			// Theirs' message changed (its text marked, say): built from
			// theirs' cell, as a message of a kind only the cell knows
			// must be.
			mo.snaps[m] = orgT.snaps[versions[m][2]]
		default:
			continue
		}
		mo.msgs = append(mo.msgs, m)
	}
	// A version 3 ours is written back as it is only if the merge is ours
	// (cells taken from theirs went into its upgrade, not into it).
	mo.valid = mo.valid && slices.Equal(merged.Messages, orgO.msgs) && deepEqual(merged.Meta, orgO.meta)
	merged.Source = mo
	defer func() { merged.Source = nil }()
	nb, err := o.ToNotebook(merged)
	if err != nil {
		return nil, err
	}
	// What only theirs changed in the parts of a cell its message does not
	// show survives a merge of the message.
	for i, m := range merged.Messages {
		v := versions[m]
		if v[0] == nil || v[1] == nil || v[2] == nil || i >= len(nb.Cells) {
			continue
		}
		sb, so, st := orgB.snaps[v[0]], orgO.snaps[v[1]], orgT.snaps[v[2]]
		if sb != nil && so != nil && st != nil && sameHidden(sb.cell, so.cell) && !sameHidden(sb.cell, st.cell) {
			copyHidden(nb.Cells[i], st.cell)
		}
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, fmt.Errorf("convert: merge: %w", err)
	}
	return out, nil
}

// rawCells finds the bytes of a notebook's cells in what it was read from
// (parsed once, when first asked).
type rawCells struct {
	nb    *nbformat.Notebook
	data  []byte
	done  bool
	index map[nbformat.Cell]int
	raw   [][]byte
}

// of returns the bytes cell c was read from, or nil.
func (r *rawCells) of(c nbformat.Cell) []byte {
	if !r.done {
		r.done = true
		if r.data == nil || r.nb.Nbformat != 4 {
			return nil
		}
		t, err := jsontree.Parse(r.data, jsontree.Limits{MaxDepth: nbformat.DefaultMaxDepth})
		if err != nil {
			return nil
		}
		cells := t.Lookup(jsontree.Root, "cells")
		if cells < 0 || t.Nodes[cells].Kind != jsontree.Array {
			return nil
		}
		kids := t.ChildList(cells)
		if len(kids) != len(r.nb.Cells) {
			return nil
		}
		r.index = make(map[nbformat.Cell]int, len(kids))
		for i, k := range kids {
			r.index[r.nb.Cells[i]] = i
			r.raw = append(r.raw, t.Raw(k))
		}
	}
	if i, ok := r.index[c]; ok {
		return r.raw[i]
	}
	return nil
}

// takeCell copies cell c into cell orig when they are of one type (see
// adopt), reporting whether it did.
func takeCell(orig, c nbformat.Cell) bool {
	switch oc := orig.(type) {
	case *nbformat.CodeCell:
		if nc, ok := c.(*nbformat.CodeCell); ok {
			*oc = *nc
			return true
		}
	case *nbformat.MarkdownCell:
		if nc, ok := c.(*nbformat.MarkdownCell); ok {
			*oc = *nc
			return true
		}
	case *nbformat.RawCell:
		if nc, ok := c.(*nbformat.RawCell); ok {
			*oc = *nc
			return true
		}
	}
	return false
}

// sameHidden reports whether two cells agree in what their messages do
// not show: an attachments member present but empty, members unknown to
// the schema, and anything of a cell of an unknown type.
func sameHidden(a, b nbformat.Cell) bool {
	switch x := a.(type) {
	case *nbformat.MarkdownCell:
		y, ok := b.(*nbformat.MarkdownCell)
		return !ok || (x.Attachments != nil) == (y.Attachments != nil) && deepEqual(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.RawCell:
		y, ok := b.(*nbformat.RawCell)
		return !ok || (x.Attachments != nil) == (y.Attachments != nil) && deepEqual(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.CodeCell:
		y, ok := b.(*nbformat.CodeCell)
		return !ok || deepEqual(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.UnknownCell:
		y, ok := b.(*nbformat.UnknownCell)
		return !ok || bytes.Equal(x.Raw, y.Raw)
	}
	return true
}

// copyHidden gives dst the parts of src that messages do not show (see
// sameHidden), when both are of one type.
func copyHidden(dst, src nbformat.Cell) {
	emptyAtts := func(a nbformat.Attachments) nbformat.Attachments {
		if a == nil {
			return nil
		}
		return nbformat.Attachments{}
	}
	switch d := dst.(type) {
	case *nbformat.MarkdownCell:
		if s, ok := src.(*nbformat.MarkdownCell); ok {
			if len(d.Attachments) == 0 {
				d.Attachments = emptyAtts(s.Attachments)
			}
			d.AdditionalProperties = s.AdditionalProperties
		}
	case *nbformat.RawCell:
		if s, ok := src.(*nbformat.RawCell); ok {
			if len(d.Attachments) == 0 {
				d.Attachments = emptyAtts(s.Attachments)
			}
			d.AdditionalProperties = s.AdditionalProperties
		}
	case *nbformat.CodeCell:
		if s, ok := src.(*nbformat.CodeCell); ok {
			d.AdditionalProperties = s.AdditionalProperties
		}
	}
}

// adopt writes the new cell c into the original cell orig when they are of
// one type, so that the writer rewrites only the parts that changed
// (the cell keeps its place in the file it was read from); otherwise it
// returns c.
func adopt(orig, c nbformat.Cell) nbformat.Cell {
	switch oc := orig.(type) {
	case *nbformat.CodeCell:
		if nc, ok := c.(*nbformat.CodeCell); ok {
			*oc = *nc
			return oc
		}
	case *nbformat.MarkdownCell:
		if nc, ok := c.(*nbformat.MarkdownCell); ok {
			*oc = *nc
			return oc
		}
	case *nbformat.RawCell:
		if nc, ok := c.(*nbformat.RawCell); ok {
			*oc = *nc
			return oc
		}
	}
	return c
}

// Diff compares two notebooks cell by cell. See [Options.Diff].
func Diff(a, b []byte) ([]dialog.Change, error) { return Options{}.Diff(a, b) }

// Diff compares notebooks a and b as dialogs (see dialog.Diff): cells are
// matched by id, or by content where a notebook has no cell ids. An input
// that is not a readable notebook fails with a *MergeInputError (Input
// "a" or "b").
func (o Options) Diff(a, b []byte) ([]dialog.Change, error) {
	da, err := o.Unmarshal(a)
	if err != nil {
		return nil, &MergeInputError{Input: "a", Err: err}
	}
	db, err := o.Unmarshal(b)
	if err != nil {
		return nil, &MergeInputError{Input: "b", Err: err}
	}
	orgA, orgB := da.Source.(*origin), db.Source.(*origin)
	unkeyed := func(m *dialog.Message) bool {
		if s := orgA.snaps[m]; s != nil && s.generated {
			return true
		}
		s := orgB.snaps[m]
		return s != nil && s.generated
	}
	return dialog.DiffOptions{Unkeyed: unkeyed}.Diff(da, db), nil
}
