// Package v3write writes a notebook in nbformat 3 over a version 3 file
// (ours), as a merge of version 3 notebooks must: the notebook stays
// version 3, in ours' style, changed only where it changed.
//
// The notebook to write is given in version 4 form (the form package
// convert and the merge work in, which nbformat.Upgrade gives of a version
// 3 file): its cells, each naming the version 3 cell it comes from (one of
// ours', one of theirs', or none), and its metadata. [Write] returns:
//
//  1. Ours' bytes wherever nothing changed: a cell whose version 4 form is
//     the upgrade of the ours' cell it comes from is ours' bytes exactly,
//     and everything outside the cells and the metadata (worksheets'
//     other members, top-level members, layout) is as in ours. Given ours'
//     cells unchanged, in order, and no metadata, Write returns ours.
//  2. Changes written in ours' style. A changed cell of ours is written
//     over it: the members that did not change keep their bytes. A cell
//     of theirs that did not change is theirs' bytes laid out in ours'
//     style; other cells are converted. New parts take ours' indentation,
//     line endings, escaping, key order (sorted, or the order ours' cells
//     and outputs of that type use), texts stored as lists of lines or as
//     strings as ours' cells store them, unrun cells' prompt numbers
//     written null or left out as ours does, and the language of ours'
//     code cells (python where they have several, or there are none). A
//     file without characters beyond ASCII (every version 3 writer,
//     Python's json.dumps, escapes them) stays so.
//  3. Nothing lost or changed: the conversion is the inverse of the
//     upgrade, so that nbformat.Upgrade of the result gives the cells and
//     metadata written (cell ids aside). It is Python nbformat's
//     v4-to-v3 downgrade (nbformat/v4/convert.py) wherever that loses
//     nothing: execute_result to pyout, error to pyerr, output data
//     under the version 3 keys ("text", "png", …), a one-line "#" markdown
//     cell to a heading cell, source to input, execution_count to
//     prompt_number, metadata.collapsed to collapsed, ids dropped. Where
//     Python's loses or changes something, Write does not: output data of
//     MIME types without a version 3 key keep their MIME type as key
//     (Python drops them); collapsed is written only where the cell's
//     metadata has it (Python adds false); a markdown cell becomes a
//     heading only when the heading upgrades back to its text exactly
//     (Python also takes "#x", "#  x", "#"); a text is stored as a list
//     only when nbformat 3's reader joins the list back to it (a first
//     line ending in a break other than "\n" or "\r" is joined with an
//     extra "\n"); a cell of ours or theirs keeps its language, and its
//     html or markdown cell type.
//  4. A valid notebook: for ours valid against the version 3 schema and
//     cells that are upgrades of valid version 3 cells (or version 4
//     cells using nothing version 3 lacks), the result is valid against
//     the version 3 schema, and Python nbformat reads it. Conflict
//     markers inside cell texts are text like any other.
//
// What nbformat 3 has no place for (attachments; output data or metadata
// keys that the upgrade would rename or that would share a version 3
// key) is an *Error wrapping ErrNotRepresentable, with the JSON Pointer
// of the cell's member: nothing is written then. An execute_result
// without an execution count has no valid version 3 form (pyout requires
// a prompt number): it is written with a null one, as Python writes it.
package v3write
