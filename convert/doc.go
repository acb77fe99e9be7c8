// Package convert reads and writes dialogs (package dialog) as Jupyter
// notebooks (package nbformat), and saves them safely. A [File] is a
// dialog with what it was read from: [Unmarshal] and [ReadFile] return
// one, [Marshal], [WriteFile] and [File.Save] write one.
//
//	f, err := convert.ReadFile("notes.ipynb", convert.ReadOptions{})
//	f.Add(dialog.Note, "One more note.")
//	err = f.Save(convert.SaveOptions{}) // writes the new cell, nothing else
//
// Options are structs whose zero value is the default, one per use, passed
// as the last argument: [ReadOptions] to Unmarshal, ReadFile and ToDialog,
// [WriteOptions] to Marshal, WriteFile and ToNotebook, [SaveOptions] to
// File.Save, and dialog.MergeOptions to Merge and MergeTo (as package
// dialog takes its options).
//
// The package ports the seed's module (aidialog's ipynb.py): for every
// operation it writes the bytes the seed writes, except for the deliberate
// differences listed below, and a parity test (TestOracleParity) checks
// that against the seed's own implementation.
//
// # Mapping
//
//	message kind  cell                 rule
//	note          markdown             direct
//	prompt        markdown             metadata solveit_ai: true; source is the
//	                                   question, ReplySeparator and the reply
//	                                   (no separator without a reply)
//	code          code                 outputs kept as standard outputs
//	raw           raw                  direct
//
// A markdown cell is a prompt when its solveit_ai metadata is truthy (true,
// 1, …: Python's truthiness, as Python tests them); a falsy solveit_ai means
// nothing and is dropped from any cell's metadata, as the seed drops it.
//
// # Attributes
//
// Notebook metadata rides verbatim in Dialog.Meta and cell metadata in
// Message.Meta, except the keys a host declares with [Descriptor]s
// (ReadOptions.Descriptors and the like; there is no global set), no two
// sharing an attribute or a key: those are promoted to Message.Attrs on
// reading and demoted back on writing, converted by the descriptor and
// left out when falsy. A declared key found in Message.Meta when writing
// (a host that put it there) is promoted the same way; Attrs wins over
// Meta. A dialog keeps the descriptors it was read (or last written) with,
// so a plain [File.Save] or [Marshal] writes it as read; descriptors in
// WriteOptions or SaveOptions take precedence. [Solveit] returns
// Solveit's own attribute set, for hosts that opt in.
//
// # Attachments
//
// Attachments of markdown and raw cells become dialog.Attachments.
// Jupyter and the seed store every attachment base64-encoded, whatever its
// type (an SVG, a text file), so every value is decoded on reading and
// encoded on writing; a value that is not valid base64 (a writer that
// stored raw text) is kept as its text and written back unchanged while
// the attachment is unchanged.
//
// # Ids
//
// Messages keep their cells' ids. A cell without a valid id, or with the
// id of an earlier cell, and every cell of a notebook before version 4.5
// (whose format has no ids), gets one derived from its position and
// content: reading the same file gives the same ids, so an id shown once
// (by ipynb show, say) can be used again. Ids are written only where the
// format has them: into 4.5 files (healing their missing or repeated
// ids), and into version 3 dialogs, which are written as 4.5 once edited;
// never into 4.0–4.4 files.
//
// # Fidelity
//
// A dialog read from a notebook and written back unchanged gives the same
// bytes; a changed message changes only its cell's bytes, written in the
// file's own style (see nbformat). Cells written from new or changed
// messages leave out the outputs' transient metadata key __type, as the
// seed does. An invalid notebook is written valid (nbformat.Heal): what
// has a valid place survives, the invalidity does not, and each repair is
// reported to WriteOptions.Repaired (SaveOptions.Repaired).
//
// A code message's outputs read from a notebook stay the notebook's own
// outputs (dialog.SourcedOutput), decoded to generic JSON only when a
// caller looks inside (dialog.Output.Map): reading a dialog costs a few
// bytes per cell beyond the notebook itself, whatever its outputs weigh.
// Outputs read unedited compare by their bytes as read, and are written
// back as read, also when moved to another message of the same dialog;
// an output made anew, or one from another notebook (a merge's theirs),
// is written in the file's own style.
//
// Writing never drops a value silently: a value the caller gave (to a new
// or changed message, or to changed notebook metadata) that has no valid
// place in a notebook, such as "collapsed": 1 on a code cell without a
// descriptor converting it, makes Marshal, WriteFile and Save fail with a
// [*Error] of Op "write" naming the message and the JSON Pointer
// ([ErrInvalidValue]); an attribute no descriptor declares, and a part of
// a message that its cell has no place for (outputs of a note, a prompt's
// outputs besides its reply, attachments of code, an execution count
// outside code), fail with [ErrNoPlace].
//
// # Files
//
// [ReadFile], [WriteFile] and [File.Save] read and write files. Reading
// never blocks on a named pipe (it is refused). ReadOptions.Name names the
// dialog (the seed's read_ipynb(…, name=)); WriteOptions.Messages writes
// some messages (the seed's msgs= of get_ipynb, write_ipynb and
// dlg.write). Writes create missing parent folders (given to Owner, if
// set), are atomic (a temporary file in the same folder, unnamed on Linux
// until the rename, synced and renamed, the folder synced), keep the
// file's mode (and owner when the process may set it), refuse files the
// process may not write in place, and sweep the folder's temporaries left
// by dead processes. A path given to WriteFile may be a symbolic link (its
// target is written); Save writes back only to the file that was read,
// never through a link that appeared later, and refuses to overwrite a
// file that changed since it was read ([ErrChanged], checked right before
// the rename) unless forced ([SaveOptions].Force) or merging
// ([SaveOptions].MergeOnChange).
//
// # Differences from the seed
//
// Deliberate, each counted by the parity test:
//
//   - Execution counts are kept (the seed writes null).
//   - Unedited cells are written back as they were read, in the file's own
//     style (the seed rewrites every cell in its canonical style: a prompt
//     marker stored as 1 becomes true, __type is removed from every
//     output), and saving an unedited dialog writes nothing.
//   - Ids are not written into 4.0–4.4 files (the seed upgrades them to 4.5
//     with random ids); missing, invalid and repeated ids are derived
//     from position and content (the seed: random).
//   - Text after a second reply separator is kept in the reply (the seed
//     drops it).
//   - solveit_ai on a code or raw cell stays metadata of that cell (the
//     seed turns the cell into a markdown prompt, dropping its outputs).
//   - Attachments of raw cells are kept (the seed drops them), and so is
//     every type of an attachment stored under several (the seed keeps
//     the first).
//   - Versions 2 and 3 are upgraded (the seed reads them as empty); cells
//     of unknown types are kept (the seed refuses the file), and so are
//     files the seed fails on (an empty metadata key, say).
//   - An invalid file is written valid, its content kept (the seed writes
//     invalid values back, and removes outputs of unknown types).
//   - Values that have no valid place in a notebook are an error (the seed
//     writes an invalid file); a file changed on disk since it was read is
//     not overwritten ([ErrChanged]).
//   - [dialog.Dialog.Make] refuses a reference that matches no message or
//     several, and an id already in use (the seed inserts at the start or
//     end, and makes the duplicate).
//
// # Merging
//
// [Merge] merges notebooks three-way (see dialog.Merge), reading base,
// ours and theirs and writing the result in ours' style: it differs from
// ours only in the cells the merge changed, a cell taken from theirs keeps
// theirs' bytes where the files share a style, and conflicts are written
// as valid cells whose text carries git's markers; a conflict of a value
// without text (a kind, metadata, an attachment, a count, an id, the
// place of a cell both sides moved apart) keeps ours' value and is
// recorded in the cell's metadata under [ConflictsKey], with the pointer
// and the three sides' values, so that
// every change either side made is in the file. Values are compared as
// JSON values (a re-indented or reordered side changed nothing), and the
// result takes the minor version a side moved to. Where git's line merge
// of the files is clean, the two agree (on real merges, byte for byte in
// all but cases where git's result is itself invalid). [Diff] compares
// two notebooks cell by cell. [SaveOptions].MergeOnChange makes Save merge
// with a file changed on disk instead of refusing it. [MergeTo] is Merge
// for large files: it asks for the inputs in turn and writes the result
// as it is made, so that a caller holding nothing it read has two of the
// inputs in memory at once (of a large base, only what the merge needs is
// kept before theirs is asked for), never the whole result beside them.
//
// # Concurrency
//
// Options values may be shared by goroutines. A File must not be
// marshalled or saved while it is being changed.
package convert
