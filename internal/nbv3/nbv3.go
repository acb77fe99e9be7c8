// Package nbv3 upgrades version 2 and 3 notebooks to version 4 over the
// tape of their JSON: [Cells] writes the compact JSON of the version 4
// cells that Python nbformat's v4 upgrade makes of a notebook's
// worksheets, straight from the bytes read (texts copied as they are
// spelled when they are spelled as the writer spells them, or joined from
// their lines' bytes, never decoded where they need not be). It is the
// one upgrade of the module: package nbformat's Upgrade, and through it
// package convert's reading of old notebooks, rest on it.
//
// The JSON written is compact, keys sorted by code point (a key given
// twice taking its last value), strings escaped as Python's json.dumps
// with ensure_ascii=False escapes them, numbers as Python spells them.
package nbv3

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Texts are the members of a version 3 output that hold text (lines
// joined on reading, split on writing).
var Texts = []string{"text", "html", "svg", "latex", "javascript", "json"}

// mimeAliases are the version 3 output keys and the MIME types version 4
// names them by.
var mimeAliases = []struct{ alias, mime string }{
	{"text", "text/plain"},
	{"html", "text/html"},
	{"svg", "image/svg+xml"},
	{"png", "image/png"},
	{"jpeg", "image/jpeg"},
	{"latex", "text/latex"},
	{"json", "application/json"},
	{"javascript", "application/javascript"},
}

// Cells returns the compact JSON array of the version 4 cells of
// worksheets, the JSON of a version 2 (v2) or 3 notebook's "worksheets"
// member, parsed within lim. Worksheets that are not an array, and a
// worksheet whose cells are not an array, hold no cells; a worksheet or a
// cell that is not an object is an error naming it by its JSON Pointer.
//
// The cells are upgraded as nbformat's v4 upgrade does, after the version
// 3 reader's rejoining of lines (version 2's: joined with "\n"): heading
// cells become "#" markdown, html cells markdown, code input and
// prompt_number become source and execution_count, collapsed moves into
// the metadata, trusted is dropped, pyout becomes execute_result and pyerr
// error, output keys and MIME aliases ("png", "text") become MIME types
// under data (a JSON string under application/json is parsed, when it is
// JSON), stream becomes name. Every cell gets the id "" (the caller gives
// ids).
func Cells(worksheets []byte, v2 bool, lim jsontree.Limits) ([]byte, error) {
	t, err := jsontree.Parse(worksheets, lim)
	if err != nil {
		return nil, err
	}
	return AppendCells(make([]byte, 0, len(worksheets)), t, jsontree.Root, v2, lim)
}

// AppendCells appends to dst what Cells returns for the worksheets at
// node ws of t, a tape that records every node below ws (none lazy): the
// worksheets as a notebook's parse has them, not parsed again. Values
// the upgrade parses (JSON held in a string) are parsed within lim.
func AppendCells(dst []byte, t *jsontree.Tape, ws int, v2 bool, lim jsontree.Limits) ([]byte, error) {
	var err error
	u := upgrader{t: t, v2: v2, lim: lim}
	out := append(dst, '[')
	if t.Nodes[ws].Kind != jsontree.Array {
		return append(out, ']'), nil
	}
	n := 0
	wi := 0
	t.Children(ws, func(w int) bool {
		defer func() { wi++ }()
		if t.Nodes[w].Kind != jsontree.Object {
			err = fmt.Errorf("/worksheets/%d is not an object", wi)
			return false
		}
		cs := t.Lookup(w, "cells")
		if cs < 0 || t.Nodes[cs].Kind != jsontree.Array {
			return true
		}
		ci := 0
		t.Children(cs, func(c int) bool {
			defer func() { ci++ }()
			if t.Nodes[c].Kind != jsontree.Object {
				err = fmt.Errorf("/worksheets/%d/cells/%d is not an object", wi, ci)
				return false
			}
			cell := u.cell(c)
			// Written at once, and what it used reused.
			if n > 0 {
				out = append(out, ',')
			}
			n++
			out = u.appendValue(out, tobject(cell))
			u.recycle()
			return true
		})
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return append(out, ']'), nil
}
