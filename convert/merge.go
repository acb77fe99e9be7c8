package convert

import (
	"errors"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
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
	var ds [3]*dialog.Dialog
	for i, in := range [3][]byte{base, ours, theirs} {
		d, err := o.Unmarshal(in)
		if err != nil {
			return nil, &MergeInputError{Input: [3]string{"base", "ours", "theirs"}[i], Err: err}
		}
		ds[i] = d
	}
	return o.mergeDialogs(ds[0], ds[1], ds[2], opt)
}

// mergeDialogs merges dialogs read by this package (Source set), writing
// the result in ours' style. Ours' notebook is changed in place: it must
// be private to the merge.
func (o Options) mergeDialogs(base, ours, theirs *dialog.Dialog, opt dialog.MergeOptions) (*MergeResult, error) {
	orgs := [3]*origin{}
	for i, d := range [3]*dialog.Dialog{base, ours, theirs} {
		org, ok := d.Source.(*origin)
		if !ok {
			return nil, errors.New("convert: merge: a dialog was not read from a notebook")
		}
		orgs[i] = org
	}
	user := opt.Unkeyed
	opt.Unkeyed = func(m *dialog.Message) bool {
		for _, org := range orgs {
			if s := org.snaps[m]; s != nil && s.generated {
				return true
			}
		}
		return user != nil && user(m)
	}
	merged, conflicts := dialog.Merge(base, ours, theirs, opt)
	data, err := o.marshalMerged(merged, ours, orgs[1], orgs[2])
	if err != nil {
		return nil, err
	}
	return &MergeResult{Data: data, Conflicts: conflicts}, nil
}

// marshalMerged writes a merged dialog over ours' notebook: unchanged
// messages of ours as their cells, changed ones into their cells in place,
// theirs' messages as theirs' cells when the two notebooks are of one
// version.
func (o Options) marshalMerged(merged, ours *dialog.Dialog, orgO, orgT *origin) ([]byte, error) {
	mo := &origin{nb: orgO.nb, work: orgO.work, meta: orgO.meta, valid: orgO.valid, inPlace: true,
		snaps: make(map[*dialog.Message]*snapshot, len(merged.Messages))}
	byID := make(map[string]*dialog.Message, len(ours.Messages))
	for _, m := range ours.Messages {
		byID[m.ID] = m
	}
	sameVersion := orgT.work.Nbformat == orgO.work.Nbformat && (orgT.work.NbformatMinor >= 5) == (orgO.work.NbformatMinor >= 5)
	for _, m := range merged.Messages {
		if s := orgO.snaps[m]; s != nil {
			mo.snaps[m] = s
		} else if om := byID[m.ID]; om != nil {
			mo.snaps[m] = orgO.snaps[om]
		} else if s := orgT.snaps[m]; s != nil && sameVersion {
			mo.snaps[m] = s
		} else {
			continue
		}
		mo.msgs = append(mo.msgs, m)
	}
	merged.Source = mo
	defer func() { merged.Source = nil }()
	nb, err := o.ToNotebook(merged)
	if err != nil {
		return nil, err
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, fmt.Errorf("convert: merge: %w", err)
	}
	return out, nil
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
