// Package dialog is the data model of AI dialogs: a named, ordered list of
// messages of four kinds.
//
//   - [Note]: markdown text.
//   - [Prompt]: a question to the AI; its reply is carried as an output
//     (see [Message.Reply] and [Message.SetReply]).
//   - [Code]: source code with its outputs (standard Jupyter outputs; see
//     [Output]).
//   - [Raw]: raw text.
//
// The package uses only the standard library, and knows nothing of files: package convert reads and writes dialogs as
// Jupyter notebooks. Notebook metadata rides verbatim in [Dialog.Meta],
// cell metadata in [Message.Meta]; host attributes promoted from cell
// metadata (by convert's descriptors) live in [Message.Attrs].
//
// # Making messages
//
// [Dialog.Make] is the seed's mk_message: one call makes a message of any
// kind with its outputs, reply, metadata, attributes, attachments and id,
// and puts it at a position or after or before another message:
//
//	d.Make(dialog.Code, "1+1", dialog.MakeOptions{OutputsJSON: `[{"output_type": "stream", "name": "stdout", "text": "2\n"}]`})
//	d.Make(dialog.Prompt, "Add them.", dialog.MakeOptions{Reply: "The answer is **2**."})
//	d.Make(dialog.Note, "new note", dialog.MakeOptions{After: first.ID, ID: "deadbeef"})
//
// [Dialog.Add] appends a bare message and cannot fail. Messages made by
// Add and Make have an empty, non-nil Meta, so m.Meta[key] = value works
// on them; a Message literal's Meta is nil until set.
//
// Options are structs throughout the package, passed as the last argument
// ([MakeOptions] to Make, [MergeOptions] to Merge, [DiffOptions] to Diff):
// their zero value is the default.
//
// # Outputs
//
// An [Output] is an immutable value. One read from a file is kept in the
// reader's form (an [OutputSource]: package convert keeps the nbformat
// output, which holds the bytes read) and decoded only when a caller
// looks inside with [Output.Map]; its [Output.Type] needs no decoding. So
// reading a dialog, comparing, merging or diffing its messages and
// writing it back cost little more than the bytes of its outputs: outputs
// read unedited compare by their bytes ([OutputSource.Same]), and only
// outputs that differ are decoded, to compare them as JSON values. The
// decoded form is produced by the reader (convert uses nbformat's decoder,
// which reads NaN, infinities and integers too large for an int as a
// notebook holds them); outputs made here from JSON text
// ([MakeOptions].OutputsJSON, [Output.UnmarshalJSON]) are decoded by
// encoding/json into the same Go types (NaN and infinities, which JSON lacks, are
// refused there). To edit an output, make a new one:
//
//	g, err := m.Outputs[0].Map()
//	g["name"] = "stderr"
//	m.Outputs[0] = dialog.NewOutput(g)
//
// # Ids
//
// Message ids are 8 lower-case hex digits (4 random bytes, the seed's
// rtoken_hex(4)), unique within a dialog; attachment ids are RFC 4122
// version 4 UUIDs, made as github.com/google/uuid makes them. Both come from
// [Dialog.Random] (crypto/rand when nil); a seeded math/rand/v2 ChaCha8
// gives deterministic ids for tests. [Dialog.Get] finds a message by id or
// unique id prefix, and reports an id that several messages share as
// ambiguous, as the seed's find_id does.
//
// # Truthiness
//
// Flags in notebook metadata are tested as Python tests them (bool(v)):
// an output whose metadata has is_ai_res 1 is a reply as much as one with
// true.
//
// # Merging and diffing
//
// [Merge] merges two dialogs made from one base, three-way: messages are
// matched by id (or by content where [MergeOptions].Unkeyed says ids are
// made up), every change made on one side only is applied, both sides'
// edits of one text are merged line by line (diff3, agreeing with git
// merge-file), metadata key by key at every depth (compared as JSON
// values), and what cannot be decided is a [Conflict]: returned as a
// value and, for texts, written into the message between git's conflict
// markers, so the merged dialog is always valid; conflicts of values
// without text keep ours' value, and package convert records them in the
// file. Outputs and execution counts both sides changed follow an
// [OutputStrategy]. [Diff] lists what changed between two dialogs
// ([Change]: added, removed, moved and changed messages, with the parts
// that changed). Neither changes its inputs; Merge's result shares the
// messages it did not change with them.
//
// # Concurrency
//
// A Dialog and its messages are plain data: safe to read from several
// goroutines, not to change while anything else uses them.
package dialog
