// Package dialog is the data model of AI dialogs: a named, ordered list of
// messages of four kinds.
//
//   - [Note]: markdown text.
//   - [Prompt]: a question to the AI; its reply is carried as an output
//     (see [Message.Reply] and [Message.SetReply]).
//   - [Code]: source code with its outputs (standard Jupyter outputs, as
//     generic JSON objects).
//   - [Raw]: raw text.
//
// The package uses the standard library only and knows nothing of files:
// package convert reads and writes dialogs as Jupyter notebooks. Notebook
// metadata rides verbatim in [Dialog.Meta], cell metadata in [Message.Meta];
// host attributes promoted from cell metadata (by convert's descriptors)
// live in [Message.Attrs].
//
// # Ids
//
// Message ids are 8 lower-case hex digits, unique within a dialog;
// attachment ids are RFC 4122 version 4 UUIDs. Both come from
// [Dialog.Random] (crypto/rand when nil); [Seeded] gives a deterministic
// source for tests.
//
// # Concurrency
//
// A Dialog and its messages are plain data: safe to read from several
// goroutines, not to change while anything else uses them.
package dialog
