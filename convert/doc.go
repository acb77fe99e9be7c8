// Package convert reads and writes dialogs (package dialog) as Jupyter
// notebooks (package nbformat), and saves them safely.
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
// Notebook metadata rides verbatim in Dialog.Meta and cell metadata in
// Message.Meta, except the keys a host declares with [Descriptor]s in a
// [Registry] (passed in [Options]; there is no global registry): those are
// promoted to Message.Attrs on reading and demoted back on writing, falsy
// values omitted. Attachments of markdown and raw cells become
// dialog.Attachments (base64 decoded for binary types).
//
// # Fidelity
//
// A dialog read from a notebook and written back unchanged gives the same
// bytes; a changed message changes only its cell's bytes, written in the
// file's own style (see nbformat). An invalid notebook is written valid
// (nbformat.Heal): what has a valid place survives, the invalidity does
// not. Ids missing from a notebook before version 4.5 are made up in
// memory and not written.
//
// # Files
//
// [ReadFile], [WriteFile], [Write] and [Save] read and write files. Reading
// never blocks on a named pipe (it is refused). Writes are atomic (a
// temporary file in the same folder, unnamed on Linux until the rename,
// synced and renamed, the folder synced), keep the file's mode (and owner
// when the process may set it), refuse files the process may not write in
// place, and sweep the folder's temporaries left by dead processes. A name
// given to WriteFile may be a symbolic link (its target is written); Save
// writes back only to the file that was read, never through a link that
// appeared later, and refuses to overwrite a file that changed since it
// was read ([ErrChanged], checked right before the rename) unless forced.
// Each function has an [Options] method counterpart.
//
// # Concurrency
//
// Options and Registry values may be shared by goroutines (Register aside).
// A Dialog must not be marshalled or saved while it is being changed.
package convert
