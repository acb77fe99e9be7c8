package convert

import (
	"github.com/nbdialog/ipynb/dialog"
)

// Diff compares notebooks a and b as dialogs (see dialog.Diff): cells are
// matched by id, or by content where a notebook has no cell ids. An input
// that is not a readable notebook fails with a *MergeInputError (Input
// "a" or "b").
func Diff(a, b []byte) ([]dialog.Change, error) {
	var o options
	da, err := o.Unmarshal(a)
	if err != nil {
		return nil, &MergeInputError{Input: "a", Err: err}
	}
	db, err := o.Unmarshal(b)
	if err != nil {
		return nil, &MergeInputError{Input: "b", Err: err}
	}
	orgA, orgB := da.org, db.org
	unkeyed := func(m *dialog.Message) bool {
		if s := orgA.snap(m); s != nil && s.generated {
			return true
		}
		s := orgB.snap(m)
		return s != nil && s.generated
	}
	return dialog.Diff(da.Dialog, db.Dialog, dialog.DiffOptions{Unkeyed: unkeyed}), nil
}
