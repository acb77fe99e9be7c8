package convert

// File, a dialog with the file it was read from: reading, writing and saving it
// atomically, refusing to overwrite a file changed since.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/nbformat"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrChanged: Save refused to overwrite a file that changed on disk
	// since the dialog was read (set SaveOptions.Force to overwrite).
	ErrChanged = atomicfile.ErrChanged
)

// fileStamp is the file a dialog was read from (or last written to): its
// path as given, and what was read there.
type fileStamp struct {
	path  string
	stamp *atomicfile.Stamp
}

// ipynbName adds ".ipynb" to a name without that extension.
func ipynbName(name string) string {
	if strings.HasSuffix(name, ".ipynb") {
		return name
	}
	return name + ".ipynb"
}

// ReadFile is the function ReadFile.
func (o options) ReadFile(file string) (*File, error) {
	path := ipynbName(file)
	data, stamp, err := readStamped(path)
	if err != nil {
		return nil, err
	}
	nb, _, err := readNotebook(data, false)
	if err != nil {
		return nil, fmt.Errorf("convert: %s: %w", path, err)
	}
	f, err := o.toDialog(nb, data)
	if err != nil {
		return nil, fmt.Errorf("convert: %s: %w", path, err)
	}
	f.Name = strings.TrimSuffix(filepath.Base(path), ".ipynb")
	f.Path, f.ModTime = path, stamp.ModTime()
	f.org.file = &fileStamp{path: path, stamp: stamp}
	return f, nil
}

// WriteFile is the function WriteFile.
func (o options) WriteFile(d *File, name string) error {
	o = o.carried(d.org)
	data, err := o.Marshal(d)
	if err != nil {
		return err
	}
	if err := o.makeParents(name); err != nil {
		return err
	}
	if o.Messages != nil {
		_, err := o.replace(name, data, nil)
		return err
	}
	return o.commit(d, name, data, nil)
}

// makeParents creates the missing folders above the file name, as the
// seed's atomic save does, giving them to Owner if it is set.
func (o options) makeParents(name string) error {
	var missing []string
	for dir := filepath.Dir(name); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(dir); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("convert: %w", err)
		}
		missing = append(missing, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("convert: %w", err)
		}
		if o.Owner != nil {
			if err := os.Chown(missing[i], o.Owner.UID, o.Owner.GID); err != nil {
				return fmt.Errorf("convert: %w", err)
			}
		}
	}
	return nil
}

// Save writes f back to the file it was read from (File.Path), as opt
// says; the zero SaveOptions save safely.
//
// Saving is atomic and durable: the new content goes to a temporary file
// in the same folder (unnamed where Linux allows it), which is synced and
// renamed over the file, and the folder is synced; a crash leaves the old
// file or the new one, never a mix. The file's permissions are kept (and
// its owner, when the process may set it), and Owner, if set, is applied.
// A file the process may not write in place (read-only, or refused by
// access(2)) is refused with an error matching fs.ErrPermission.
//
// Save writes to the file that was read, where it was read: if the path
// was a symbolic link when it was read, the file it led to is replaced
// (the link stays); a link that appears in the file's place after the
// read is never followed.
//
// Save fails for a File without a path, and with ErrChanged if the file
// changed on disk since it was read or last saved (unless Force or
// MergeOnChange): the check runs right before the rename, after the
// notebook is marshalled, and compares the file's identity (device and
// inode), size and modification time, and its bytes when its change time
// moved or it was modified within two seconds of being read. The window
// that remains runs from the last fstat of the file to the renameat (only
// an lstat of its name in between): a program that writes into the file in
// place, without taking an flock, in that window — or that keeps the file
// open and writes into it after the rename — has its change replaced;
// Saves and ipynb in other processes take an flock on the file around
// check and rename, so they do not lose each other's changes. A File
// whose Path and ModTime were set by hand (not by ReadFile or WriteFile)
// is only compared by modification time, before marshalling. Saving an
// unedited dialog writes nothing.
//
// With MergeOnChange set, a file that changed on disk since it was read
// is merged instead: base is what was read, ours the dialog, theirs the
// file now (see Merge). A clean merge is written, with the same check
// against the file as merged (changed again: it is merged again), and f
// then holds the merged messages and metadata (new Message values). A
// merge with conflicts writes nothing and fails with an *Error of Op "save"
// carrying the conflicts and the merged notebook (errors.Is(err,
// ErrChanged) holds); a file on disk that is not a notebook fails with
// the reading error (an *nbformat.SyntaxError naming the file, line and
// column, say). Nothing on disk is lost either way.
func (f *File) Save(opt SaveOptions) error {
	opts, err := opt.opts()
	if err != nil {
		return err
	}
	return opts.save(f)
}

// save is File.Save.
func (o options) save(d *File) error {
	if d.Path == "" {
		return errors.New("convert: save: the file has no path (it was not read from a file): use WriteFile")
	}
	stamp := savedStamp(d)
	// An early look, to spare the marshalling when the file has already
	// changed; the check that counts runs right before the rename.
	if merge, err := o.changedBeforeSave(d, stamp); merge {
		return o.saveMerging(d, stamp)
	} else if err != nil {
		return err
	}
	data, err := o.marshal(d, nil)
	if err != nil {
		return err
	}
	if stamp != nil && bytes.Equal(data, stamp.Data()) {
		if fi, err := os.Stat(d.Path); err == nil && stamp.Unchanged(fi) {
			return nil // nothing to write
		}
	}
	err = o.commit(d, d.Path, data, stamp)
	if errors.Is(err, ErrChanged) && stamp != nil && !o.Force && o.MergeOnChange != nil {
		return o.saveMerging(d, stamp) // changed while marshalling
	}
	return err
}

// savedStamp is the stamp of the file d was read from or last saved to,
// if that is d's path; else nil.
func savedStamp(d *File) *atomicfile.Stamp {
	if org := d.org; org != nil && org.file != nil && org.file.path == d.Path {
		return org.file.stamp
	}
	return nil
}

// changedBeforeSave is Save's early look at the file (unless Force): it
// reports ErrChanged if the file changed or was removed since it was read
// (by its stamp, or, without one, by d's ModTime), or merge if it changed
// and changes are to be merged.
func (o options) changedBeforeSave(d *File, stamp *atomicfile.Stamp) (merge bool, err error) {
	fi, err := os.Stat(d.Path)
	missing := errors.Is(err, fs.ErrNotExist)
	switch {
	case err != nil && !missing:
		return false, fmt.Errorf("convert: save: %w", err)
	case o.Force:
		return false, nil
	case missing:
		if stamp != nil || !d.ModTime.IsZero() {
			return false, fmt.Errorf("convert: save %s: the file was removed since it was read: %w", d.Path, ErrChanged)
		}
	case stamp != nil && !stamp.Unchanged(fi):
		if o.MergeOnChange != nil {
			return true, nil
		}
		return false, fmt.Errorf("convert: save %s: %w", d.Path, ErrChanged)
	case stamp == nil && !d.ModTime.IsZero() && !fi.ModTime().Equal(d.ModTime):
		return false, fmt.Errorf("convert: save %s: %w", d.Path, ErrChanged)
	}
	return false, nil
}

// replace writes data over name (over the file of expect, if set).
func (o options) replace(name string, data []byte, expect *atomicfile.Stamp) (*atomicfile.Stamp, error) {
	ao := atomicfile.Options{Expect: expect, Force: o.Force}
	if o.Owner != nil {
		ao.Owner = &atomicfile.Owner{UID: o.Owner.UID, GID: o.Owner.GID}
	}
	st, err := atomicfile.Replace(name, data, ao)
	if err != nil {
		return nil, fmt.Errorf("convert: save %s: %w", name, err)
	}
	return st, nil
}

// readStamped reads the file at path with nbformat's default size limit.
func readStamped(path string) ([]byte, *atomicfile.Stamp, error) {
	data, stamp, err := atomicfile.Read(path, atomicfile.ReadOptions{MaxBytes: defaultMaxBytes})
	var tl *atomicfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, nil, fmt.Errorf("convert: %w", &nbformat.SyntaxError{File: path, Offset: tl.Limit, Msg: tl.Error(), Limit: true})
	case err != nil:
		return nil, nil, fmt.Errorf("convert: %s: %w", path, unwrapPath(err))
	}
	return data, stamp, nil
}

// unwrapPath drops an *fs.PathError around err (the message names the
// path already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit writes data to name atomically (over the file of expect, if
// set) and makes it d's file.
func (o options) commit(d *File, name string, data []byte, expect *atomicfile.Stamp) error {
	stamp, err := o.replace(name, data, expect)
	if err != nil {
		return err
	}
	// The dialog now corresponds to the file written: messages map to its
	// cells one to one.
	nb, _, err := readNotebook(data, false)
	if err != nil {
		return fmt.Errorf("convert: %s: written notebook does not read back: %w", name, err)
	}
	org := &origin{nb: nb, work: nb, meta: cloneObject(d.Meta), snaps: map[*dialog.Message]*snapshot{}, reg: o.carried(d.org).Registry}
	if nb.Nbformat == 4 && len(nb.Cells) == len(d.Messages) {
		for i, m := range d.Messages {
			org.msgs = append(org.msgs, m)
			old := d.org
			generated := false
			if old != nil && old.snap(m) != nil {
				generated = old.snap(m).generated
			}
			org.snaps[m] = &snapshot{msg: copyMessage(m, metaSnap{}, nil), cell: nb.Cells[i], generated: generated}
		}
		org.file = &fileStamp{path: name, stamp: stamp}
		d.org = org
	} else {
		d.org = nil
	}
	d.Path, d.ModTime = name, stamp.ModTime()
	return nil
}
