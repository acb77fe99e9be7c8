package convert

import (
	"github.com/nbdialog/ipynb/dialog"
)

// Diff compares notebooks a and b as dialogs (see dialog.Diff): cells are
// matched by id, or by content where a notebook has no cell ids. An input
// that is not a readable notebook fails with an *Error of Op "merge"
// (Input "a" or "b").
func Diff(a, b []byte) ([]dialog.Change, error) {
	var o options
	da, err := o.Unmarshal(a)
	if err != nil {
		return nil, &Error{Op: "merge", Input: "a", Err: err}
	}
	db, err := o.Unmarshal(b)
	if err != nil {
		return nil, &Error{Op: "merge", Input: "b", Err: err}
	}
	orgA, orgB := da.org, db.org
	unkeyed := func(m *dialog.Message) bool {
		if s := orgA.snap(m); s != nil && s.generated {
			return true
		}
		s := orgB.snap(m)
		return s != nil && s.generated
	}
	opt := dialog.DiffOptions{Unkeyed: unkeyed}
	// Version 3 headings are paired by their files' lines too, as the
	// merge pairs them (see mergev3pair.go).
	if heads := v3HeadingLines([]*dialog.Dialog{da.Dialog, db.Dialog}, []*origin{orgA, orgB}, &sideFiles{}); heads != nil {
		opt.PairText = func(m *dialog.Message) string {
			if t, ok := heads[m]; ok {
				return t
			}
			return m.Content
		}
	}
	return dialog.Diff(da.Dialog, db.Dialog, opt), nil
}
