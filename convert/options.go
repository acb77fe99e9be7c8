// The public entry points: File, and the options of reading, writing and
// saving, each a struct whose zero value is the default.

package convert

import (
	"time"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// A File is a dialog together with the notebook it was read from: the
// path and modification time of the file, and what the read saw (the
// bytes, the cells each message came from), so that writing the dialog
// back changes only what the dialog changed and [File.Save] refuses to
// overwrite a file that changed on disk since.
//
// A File built as a literal, &File{Dialog: d}, is a new notebook: nothing
// was read, and writing it writes every cell anew (in Python nbformat's
// style). Files returned by [Unmarshal] and [ReadFile] hold what was read;
// [WriteFile] makes the file written the File's own.
type File struct {
	*dialog.Dialog
	// Path and ModTime are the file read or last written, and its
	// modification time then (empty for a File read by Unmarshal).
	Path    string
	ModTime time.Time

	org *origin // what was read
}

// ReadOptions configures reading. The zero value reads without
// descriptors, naming a dialog read from a file after the file's stem.
type ReadOptions struct {
	// Descriptors declare host attributes kept in cell metadata, no two
	// sharing an attribute or a key; the File keeps them for writing.
	Descriptors []Descriptor
	// Name, if set, names the dialog read (the seed's read_ipynb(…,
	// name=)).
	Name string
}

// WriteOptions configures writing. The zero value writes a File with the
// descriptors it was read (or last written) with.
type WriteOptions struct {
	// Descriptors declare host attributes kept in cell metadata, no two
	// sharing an attribute or a key. Nil means the descriptors the File
	// was read (or last written) with, and otherwise none; an empty,
	// non-nil slice declares none.
	Descriptors []Descriptor
	// Messages, if not nil, makes Marshal, ToNotebook and WriteFile write
	// only these messages of the dialog, in this order, with its notebook
	// metadata: the seed's msgs= (get_ipynb, write_ipynb,
	// Dialog.write). An empty, non-nil slice writes a notebook without
	// cells. A file written so is not made the File's own.
	Messages []*dialog.Message
	// Repaired, if set, is told about every repair made to write an
	// invalid notebook (as read) as a valid one. Values the caller gave
	// that a repair would remove are not repaired but refused (see
	// Error, Op "write").
	Repaired func(nbformat.Repair)
	// Owner, if set, is given to files and folders written (uid and gid).
	Owner *Owner
}

// SaveOptions configures [File.Save]. The zero value saves safely:
// a file changed on disk since it was read is not overwritten.
type SaveOptions struct {
	// Descriptors, Repaired and Owner are as in WriteOptions.
	Descriptors []Descriptor
	Repaired    func(nbformat.Repair)
	Owner       *Owner
	// Force makes Save overwrite a file that changed on disk since it was
	// read.
	Force bool
	// MergeOnChange, if set, makes Save merge with a file that changed
	// on disk since it was read, instead of refusing.
	MergeOnChange *dialog.MergeOptions
}

func (o ReadOptions) opts() (options, error) {
	reg, err := registryOf(o.Descriptors)
	return options{Registry: reg}, err
}

func (o WriteOptions) opts() (options, error) {
	reg, err := registryOf(o.Descriptors)
	return options{Registry: reg, Messages: o.Messages, Repaired: o.Repaired, Owner: o.Owner}, err
}

func (o SaveOptions) opts() (options, error) {
	reg, err := registryOf(o.Descriptors)
	return options{Registry: reg, Repaired: o.Repaired, Owner: o.Owner, Force: o.Force, MergeOnChange: o.MergeOnChange}, err
}

// registryOf returns the registry of the descriptors of options: nil for
// nil (none, or when writing those read), an error for descriptors that
// share an attribute or a key or lack one.
func registryOf(ds []Descriptor) (*registry, error) {
	if ds == nil {
		return nil, nil
	}
	return newRegistry(ds...)
}

// Unmarshal reads a dialog from notebook JSON (any version nbformat reads
// from 2 on; the cells of versions 2 and 3 are read as their upgrade to
// 4.5 gives them). The File does not depend on data afterwards (it keeps a
// copy of its own). Its messages' texts are cut from that copy or from
// one buffer per dialog rather than allocated one by one, so a message
// kept after its dialog keeps them alive.
func Unmarshal(data []byte, opt ReadOptions) (*File, error) {
	return opt.read(func(o options) (*File, error) { return o.Unmarshal(data) })
}

// ReadFile reads a dialog from the notebook file at path (".ipynb" is
// added if missing: ReadFile("notes", …) reads notes.ipynb). The dialog is
// named opt.Name if set, else after the file's stem; the File's Path and
// ModTime are the file's, so that Save writes it back. Reading never
// blocks on a named pipe (it is refused).
func ReadFile(path string, opt ReadOptions) (*File, error) {
	return opt.read(func(o options) (*File, error) { return o.ReadFile(path) })
}

// ToDialog converts a notebook to a dialog. The notebook is kept (in the
// File) to write the dialog back exactly; do not change it afterwards.
//
// Markdown cells become notes, or prompts when their metadata has a true
// solveit_ai (the reply is split off at ReplySeparator); code and raw
// cells become code and raw messages. Cell metadata goes to Message.Meta,
// except keys the Descriptors declare, which go to Message.Attrs. Cells
// without a valid id, or with the id of an earlier cell, get ids derived
// from their position and content. A version 3 notebook is read through
// its upgrade to 4.5.
func ToDialog(nb *nbformat.Notebook, opt ReadOptions) (*File, error) {
	return opt.read(func(o options) (*File, error) { return o.toDialog(nb, nil) })
}

// read reads with the options of opt, naming the dialog read opt.Name if
// set.
func (opt ReadOptions) read(read func(options) (*File, error)) (*File, error) {
	o, err := opt.opts()
	if err != nil {
		return nil, err
	}
	f, err := read(o)
	if err == nil && opt.Name != "" {
		f.Name = opt.Name
	}
	return f, err
}

// Marshal writes f as notebook JSON (only opt.Messages, if set). A File
// read by Unmarshal (or ReadFile) and not changed is written back byte for
// byte; a changed one differs only in the cells of the changed messages,
// written in the file's own style. An invalid notebook is written valid
// (see nbformat.Heal). To write to an io.Writer without a second copy of
// an unchanged file's bytes, convert with ToNotebook and write with
// nbformat.MarshalOptions.MarshalTo.
func Marshal(f *File, opt WriteOptions) ([]byte, error) {
	opts, err := opt.opts()
	if err != nil {
		return nil, err
	}
	return opts.Marshal(f)
}

// ToNotebook converts f to a notebook (only opt.Messages, if set), as
// Marshal writes it: a File read from a notebook becomes that notebook
// with the dialog's changes (version 3 ones become 4.5 once changed), any
// other an nbformat 4.5 notebook; invalid notebooks are healed
// (nbformat.Heal). The result shares the unchanged cells of the notebook
// read: do not change them.
func ToNotebook(f *File, opt WriteOptions) (*nbformat.Notebook, error) {
	opts, err := opt.opts()
	if err != nil {
		return nil, err
	}
	return opts.ToNotebook(f)
}

// WriteFile writes f to the file at path, atomically (see [File.Save] for
// how), creating missing parent folders (given to opt.Owner, if set), and
// makes it f's file: Path and ModTime are set, the descriptors used are
// kept for later writes, and a later Save of the unchanged dialog changes
// nothing. A path that is a symbolic link has its target written. With
// opt.Messages set, it writes only those messages, and the file is not
// made f's file.
func WriteFile(f *File, path string, opt WriteOptions) error {
	opts, err := opt.opts()
	if err != nil {
		return err
	}
	return opts.WriteFile(f, path)
}
