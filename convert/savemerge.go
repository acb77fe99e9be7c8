package convert

import (
	"errors"
	"fmt"

	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/nbformat"
)

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
		var ie *Error
		if errors.As(err, &ie) && ie.Op == "merge" && ie.Input == "theirs" {
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
			return &Error{Op: "save", Err: ErrChanged, Path: d.Path, Conflicts: res.Conflicts, Merged: res.Data}
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
