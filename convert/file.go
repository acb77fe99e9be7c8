package convert

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
	// since the dialog was read (set Options.Force to overwrite).
	ErrChanged = atomicfile.ErrChanged
	// ErrNoPath: Save was asked to save a dialog that was not read from a
	// file.
	ErrNoPath = errors.New("the dialog has no path (it was not read from a file): use WriteFile or Write")
	// ErrBadName: Write was given a dialog whose name is not a plain file
	// name.
	ErrBadName = errors.New("not a plain file name")
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

// ReadFile reads a dialog from a notebook file. See [Options.ReadFile].
func ReadFile(file string, name ...string) (*dialog.Dialog, error) {
	return Options{}.ReadFile(file, name...)
}

// ReadFile reads a dialog from the notebook file (".ipynb" is added if
// missing: ReadFile("notes") reads notes.ipynb), with o's registry,
// which the dialog keeps for writing. The dialog is named name if one is
// given (the seed's read_ipynb(…, name=)), else after the file's stem, and
// its Path and ModTime are set so that Save can write it back.
func (o Options) ReadFile(file string, name ...string) (*dialog.Dialog, error) {
	if len(name) > 1 {
		return nil, fmt.Errorf("convert: ReadFile %s: %d names given, expected at most one", file, len(name))
	}
	path := ipynbName(file)
	data, stamp, err := readStamped(path)
	if err != nil {
		return nil, err
	}
	nb, err := readNotebook(data, false)
	if err != nil {
		return nil, fmt.Errorf("convert: %s: %w", path, err)
	}
	d, err := o.toDialog(nb, data)
	if err != nil {
		return nil, fmt.Errorf("convert: %s: %w", path, err)
	}
	d.Name = strings.TrimSuffix(filepath.Base(path), ".ipynb")
	if len(name) == 1 {
		d.Name = name[0]
	}
	d.Path, d.ModTime = path, stamp.ModTime()
	d.Source.(*origin).file = &fileStamp{path: path, stamp: stamp}
	return d, nil
}

// WriteFile writes d to the file name. See [Options.WriteFile].
func WriteFile(d *dialog.Dialog, name string) error { return Options{}.WriteFile(d, name) }

// WriteFile writes d to the file name, atomically (see Save for how),
// creating missing parent folders, and makes it d's file: Path and ModTime
// are set, the registry used is kept for later writes, and a later Save of
// the unchanged dialog changes nothing. With Options.Messages set, it
// writes only those messages, and the file is not made d's file.
func (o Options) WriteFile(d *dialog.Dialog, name string) error {
	o = o.carried(originOf(d))
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

// Write writes d to dir/<d.Name>.ipynb. See [Options.Write].
func Write(d *dialog.Dialog, dir string) error { return Options{}.Write(d, dir) }

// Write writes d to dir/<d.Name>.ipynb with WriteFile (dir is created if
// missing). A name that is empty, holds a path separator or a NUL, or is
// "." or "..", is refused with ErrBadName: a dialog cannot be written
// outside dir.
func (o Options) Write(d *dialog.Dialog, dir string) error {
	path, err := fileIn(d, dir)
	if err != nil {
		return err
	}
	return o.WriteFile(d, path)
}

// WriteSubset writes only msgs of d, in the order given, with d's notebook
// metadata, to dir/<d.Name>.ipynb (the seed's dlg.write(dir, msgs=…)),
// creating dir if missing; an empty or nil msgs writes a notebook without
// cells. The file is not made d's file. Names are checked as by Write. It
// is Options{Messages: msgs}.Write(d, dir) (with nil made empty): set
// Options.Messages to write a subset with other options or to a file.
func WriteSubset(d *dialog.Dialog, dir string, msgs []*dialog.Message) error {
	if msgs == nil {
		msgs = []*dialog.Message{}
	}
	return Options{Messages: msgs}.Write(d, dir)
}

// fileIn returns dir/<d.Name>.ipynb, refusing names that would leave dir.
func fileIn(d *dialog.Dialog, dir string) (string, error) {
	n := d.Name
	if n == "" || n == "." || n == ".." || strings.ContainsAny(n, `/\`+"\x00") || filepath.Base(n) != n {
		return "", fmt.Errorf("convert: dialog name %q: %w", n, ErrBadName)
	}
	return filepath.Join(dir, ipynbName(n)), nil
}

// makeParents creates the missing folders above the file name, as the
// seed's atomic save does, giving them to Owner if it is set.
func (o Options) makeParents(name string) error {
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

// Save writes d back to its file. See [Options.Save].
func Save(d *dialog.Dialog) error { return Options{}.Save(d) }

// Save writes d back to the file it was read from (Dialog.Path).
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
// Save fails with ErrNoPath for a dialog without a path, and with
// ErrChanged if the file changed on disk since it was read or last saved
// (unless Force or MergeOnChange): the check runs right before the rename, after the
// notebook is marshalled, and compares the file's identity (device and
// inode), size and modification time, and its bytes when its change time
// moved or it was modified within two seconds of being read. The window
// that remains runs from the last fstat of the file to the renameat (only
// an lstat of its name in between): a program that writes into the file in
// place, without taking an flock, in that window — or that keeps the file
// open and writes into it after the rename — has its change replaced;
// Saves and ipynb in other processes take an flock on the file around
// check and rename, so they do not lose each other's changes. A dialog whose Path and ModTime were set
// by hand (not by ReadFile or WriteFile) is only compared by modification
// time, before marshalling. Saving an unedited dialog writes nothing.
//
// With MergeOnChange set, a file that changed on disk since it was read
// is merged instead: base is what was read, ours the dialog, theirs the
// file now (see Merge). A clean merge is written, with the same check
// against the file as merged (changed again: it is merged again), and d
// then holds the merged messages and metadata (new Message values). A
// merge with conflicts writes nothing and fails with a *SaveConflictError
// carrying the conflicts and the merged notebook (errors.Is(err,
// ErrChanged) holds); a file on disk that is not a notebook fails with
// the reading error (an *nbformat.SyntaxError naming the file, line and
// column, say). Nothing on disk is lost either way.
func (o Options) Save(d *dialog.Dialog) error {
	if o.Messages != nil {
		return errors.New("convert: save: Options.Messages is set, which would drop the other messages from the dialog's file (write a subset with WriteFile or Write)")
	}
	if d.Path == "" {
		return fmt.Errorf("convert: save: %w", ErrNoPath)
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
func savedStamp(d *dialog.Dialog) *atomicfile.Stamp {
	if org, _ := d.Source.(*origin); org != nil && org.file != nil && org.file.path == d.Path {
		return org.file.stamp
	}
	return nil
}

// changedBeforeSave is Save's early look at the file (unless Force): it
// reports ErrChanged if the file changed or was removed since it was read
// (by its stamp, or, without one, by d's ModTime), or merge if it changed
// and changes are to be merged.
func (o Options) changedBeforeSave(d *dialog.Dialog, stamp *atomicfile.Stamp) (merge bool, err error) {
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
func (o Options) replace(name string, data []byte, expect *atomicfile.Stamp) (*atomicfile.Stamp, error) {
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
func (o Options) commit(d *dialog.Dialog, name string, data []byte, expect *atomicfile.Stamp) error {
	stamp, err := o.replace(name, data, expect)
	if err != nil {
		return err
	}
	// The dialog now corresponds to the file written: messages map to its
	// cells one to one.
	nb, err := readNotebook(data, false)
	if err != nil {
		return fmt.Errorf("convert: %s: written notebook does not read back: %w", name, err)
	}
	org := &origin{nb: nb, work: nb, meta: cloneObject(d.Meta), snaps: map[*dialog.Message]*snapshot{}, reg: o.carried(originOf(d)).Registry}
	if nb.Nbformat == 4 && len(nb.Cells) == len(d.Messages) {
		for i, m := range d.Messages {
			org.msgs = append(org.msgs, m)
			old, _ := d.Source.(*origin)
			generated := false
			if old != nil && old.snap(m) != nil {
				generated = old.snap(m).generated
			}
			org.snaps[m] = &snapshot{msg: copyMessage(m, metaSnap{}, nil), cell: nb.Cells[i], generated: generated}
		}
		org.file = &fileStamp{path: name, stamp: stamp}
		d.Source = org
	} else {
		d.Source = nil
	}
	d.Path, d.ModTime = name, stamp.ModTime()
	return nil
}

// originOf returns what d was read from, or nil.
func originOf(d *dialog.Dialog) *origin {
	org, _ := d.Source.(*origin)
	return org
}

// Cells returns the cells of the notebook dir/<name>.ipynb between prefix
// and suffix cells (the seed's ipynb_cells); a missing file has no cells
// (and no error). A version 3 notebook is upgraded, an invalid one healed
// (see nbformat.Upgrade and nbformat.Heal): to see the repairs, read the
// file with nbformat.ReadFile and call nbformat.Heal, which returns them.
func Cells(dir, name string, prefix, suffix []nbformat.Cell) ([]nbformat.Cell, error) {
	path := filepath.Join(dir, ipynbName(name))
	nb, err := nbformat.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	if nb.Nbformat == 3 {
		if err := nbformat.Upgrade(nb); err != nil {
			return nil, fmt.Errorf("convert: %s: %w", path, err)
		}
	}
	if nb.Nbformat == 4 {
		if _, err := nbformat.Heal(nb); err != nil {
			return nil, fmt.Errorf("convert: %s: %w", path, err)
		}
	}
	cells := make([]nbformat.Cell, 0, len(prefix)+len(nb.Cells)+len(suffix))
	cells = append(cells, prefix...)
	cells = append(cells, nb.Cells...)
	return append(cells, suffix...), nil
}
