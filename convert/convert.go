package convert

import (
	"bytes"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// ReplySeparator joins a prompt's question and its AI reply in the source
// of the prompt's markdown cell (Solveit's convention). The hidden HTML
// comment keeps it from colliding with ordinary content.
const ReplySeparator = "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n"

// promptKey marks a markdown cell holding a prompt.
const promptKey = "solveit_ai"

// options is what the public options (ReadOptions, WriteOptions,
// SaveOptions) ask for, together: the conversions and the file code take
// it. The zero value converts with no descriptors and saves safely.
type options struct {
	// Registry declares host attributes kept in cell metadata. Nil means,
	// when writing, the registry the dialog was read (or last written)
	// with, and otherwise none.
	Registry *registry
	// Force makes Save overwrite a file that changed on disk since it was
	// read.
	Force bool
	// MergeOnChange, if set, makes Save merge with a file that changed
	// on disk since it was read, instead of refusing (see File.Save).
	MergeOnChange *dialog.MergeOptions
	// Owner, if set, is given to files written (uid and gid).
	Owner *Owner
	// Repaired, if set, is told about every repair made to write an
	// invalid notebook (as read) as a valid one. Values the caller gave
	// that a repair would remove are not repaired but refused (see
	// Error, Op "write").
	Repaired func(nbformat.Repair)
	// Messages, if not nil, makes Marshal, ToNotebook, WriteFile and
	// Write write only these messages of the dialog, in this order, with
	// its notebook metadata: the seed's msgs= (get_ipynb, write_ipynb,
	// Dialog.write; see also the function WriteSubset). An empty, non-nil
	// slice writes a notebook without cells. A file written so is not made
	// the dialog's file (its Path and ModTime stay as they were), and Save
	// refuses to run with Messages set (it would drop the other messages
	// from the dialog's file). Reading ignores Messages.
	Messages []*dialog.Message
	// deferOutputs: outputs read from another notebook than the one
	// written over are decoded only as the writer reaches them (see
	// options.outputFor); a merge's, into a notebook written and dropped.
	deferOutputs bool
}

// Owner is a file's numeric user and group.
type Owner struct{ UID, GID int }

// origin is what a dialog was read from: kept in its File so that
// writing it back is byte-exact where nothing changed.
type origin struct {
	nb   *nbformat.Notebook // as read
	work *nbformat.Notebook // nb, or its upgrade to 4.5 for version 3
	// Dialog.Meta as read: a copy, or (metaTyped, meta nil) work's
	// metadata itself (see origin.sameMeta).
	meta      map[string]any
	metaTyped bool
	msgs      []*dialog.Message // messages in order as read
	// The messages' snapshots: beside the messages read, in cells, or
	// recorded in snaps (see origin.snap).
	cells []readCell
	index cellIndex // m's place in cells (see snapAt)
	snaps map[*dialog.Message]*snapshot
	file  *fileStamp // the file read, for Save
	valid bool       // nb is valid (a version 3 notebook is then written back as read)
	reg   *registry  // the registry the dialog was read (or last written) with
	// inPlace: changed messages are written into their original cells
	// (see adopt); set only for notebooks this package parsed for its
	// own use, as a merge's.
	inPlace bool
	// valid4: the notebook written is known valid without healing (a
	// merge of valid notebooks of one version), so Heal's check is spared.
	valid4 bool
	// pristine: nb was parsed here (Unmarshal, ReadFile, a file written)
	// and no one else holds it, so it is exactly as read (see asRead).
	pristine bool
	// data: the bytes a pristine nb was read from (and keeps); no one
	// changes them.
	data []byte
	// verdict is nbformat.Validate's answer for nb, asked once (see
	// origin.validate).
	verdict verdict
	// generated: a message's id was made here (see snapshot.generated).
	generated bool
}

// snapshot is a message as read and the cell it came from.
type snapshot struct {
	msg dialog.Message // a deep copy (but for Meta when meta is set)
	// meta, if not nil, is the typed metadata of the cell the message was
	// read from, which nbmap.MetaMap read into its Meta (see sameAsTyped):
	// Meta as read, msg.Meta being nil.
	meta      any
	cell      nbformat.Cell
	generated bool // the id was made here (the cell had none, or a bad one)
}

// Unmarshal is the function Unmarshal.
func (o options) Unmarshal(data []byte) (*File, error) {
	nb, kept, err := readNotebook(data, true)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	return o.toDialog(nb, kept)
}

// Marshal is the function Marshal.
func (o options) Marshal(d *File) ([]byte, error) { return o.marshal(d, o.Messages) }

// marshal is Marshal writing the messages only (nil: all of d's): the
// bytes read for a dialog unchanged (see asRead), else the notebook
// converted, written once: when healing it wrote the healed notebook to
// check it, those bytes (see nbformat.HealOptions.Written).
func (o options) marshal(d *File, only []*dialog.Message) ([]byte, error) {
	if _, data := o.asRead(d, only); data != nil {
		return bytes.Clone(data), nil
	}
	var written []byte
	nb, err := o.convert(d, only, &written) // (asRead declined: not asked again)
	if err != nil {
		return nil, err
	}
	if written != nil {
		return written, nil
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	return out, nil
}
