package convert

import (
	"errors"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/nbformat"
)

// A SaveConflictError reports a Save with Options.MergeOnChange whose
// merge with the file on disk left conflicts: nothing was written. It
// matches ErrChanged (errors.Is).
type SaveConflictError struct {
	Path      string
	Conflicts []dialog.Conflict
	// Merged is the merged notebook, conflicts marked in their cells, for
	// a caller that wants to write it anyway (it is valid) or show it.
	Merged []byte
}

// Error names the file and counts the conflicts.
func (e *SaveConflictError) Error() string {
	return fmt.Sprintf("convert: save %s: the file changed on disk and merging with it left %d conflicts (first: %v)", e.Path, len(e.Conflicts), e.Conflicts[0])
}

// Unwrap returns ErrChanged.
func (e *SaveConflictError) Unwrap() error { return ErrChanged }

// saveRetries bounds the merges of one Save against a file that keeps
// changing.
const saveRetries = 5

// saveMerging saves d over a file that changed since it was read (stamp):
// see File.Save.
func (o options) saveMerging(d *File, stamp *atomicfile.Stamp) error {
	// Ours as bytes: the merge works on private copies, never on d.
	ours, err := o.Marshal(d)
	if err != nil {
		return err
	}
	for range saveRetries {
		disk, now, err := readStamped(d.Path)
		if err != nil {
			return err
		}
		res, err := o.Merge(stamp.Data(), ours, disk, *o.MergeOnChange)
		var ie *MergeInputError
		if errors.As(err, &ie) && ie.Input == "theirs" {
			var se *nbformat.SyntaxError
			if errors.As(ie.Err, &se) {
				c := *se
				c.File = d.Path // path:line:column
				return fmt.Errorf("convert: save: the file on disk is not a notebook: %w", &c)
			}
			return fmt.Errorf("convert: save %s: the file on disk is not a notebook: %w", d.Path, ie.Err)
		}
		if err != nil {
			return fmt.Errorf("convert: save %s: %w", d.Path, err)
		}
		if len(res.Conflicts) > 0 {
			return &SaveConflictError{Path: d.Path, Conflicts: res.Conflicts, Merged: res.Data}
		}
		merged, err := o.Unmarshal(res.Data)
		if err != nil {
			return fmt.Errorf("convert: save %s: merged notebook does not read back: %w", d.Path, err)
		}
		// Written only over the file as merged (checked right before the
		// rename); the dialog becomes the merge only once it is written.
		msgs, meta, src := d.Messages, d.Meta, d.org
		d.Messages, d.Meta, d.org = merged.Messages, merged.Meta, merged.org
		err = o.commit(d, d.Path, res.Data, now)
		if err == nil {
			return nil
		}
		d.Messages, d.Meta, d.org = msgs, meta, src
		if !errors.Is(err, ErrChanged) {
			return err
		}
		// Changed again: merge with the newer file.
	}
	return fmt.Errorf("convert: save %s: kept changing while merging: %w", d.Path, ErrChanged)
}
