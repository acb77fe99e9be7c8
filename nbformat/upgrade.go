package nbformat

// Upgrade to nbformat 4.5: cell ids, and version 2 and 3 worksheets through
// internal/nbv3.

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbv3"
)

// valid reports whether id is a valid cell id: 1 to 64 ASCII letters,
// digits, "-" or "_" (the schema's cell_id; nothing may follow, not even a
// final newline).
func (id CellID) valid() bool { return cellid.Valid(string(id)) }

// Upgrade converts nb to nbformat 4.5 in place:
//
//   - nbformat 4.0–4.4: nbformat_minor becomes 5 and every cell gets an id.
//     Unlike Python nbformat, which replaces every id with a random one,
//     existing valid ids are kept; only missing, invalid or duplicate ones
//     get fresh unique ids, derived from the cell's position, type and
//     source (8 hex digits of a CRC-32C checksum), so the same notebook always
//     upgrades to the same bytes (set other ids afterwards with
//     [SetCellID] if you want them).
//
//   - nbformat 4.5 and later minors: missing, invalid and duplicate ids are
//     replaced the same way; the version is left alone.
//
//   - nbformat 3: converted as Python nbformat's v4 upgrade does (but a
//     notebook without metadata, or a worksheet without cells, which
//     Python refuses, is taken as having none):
//     worksheets flattened, heading cells to "#" markdown, code input and
//     prompt_number to source and execution_count, collapsed into metadata,
//     pyout to execute_result, pyerr to error, v3 output keys and mime
//     aliases ("png", "text") to MIME types, stream to name, and the v3
//     reader's line joining applied first.
//
//   - nbformat 2: as version 3, after the v2 reader's joining of lines
//     (with "\n") and its upgrade to version 3 (cells get metadata).
//
// Version 1 is not supported (ErrUnsupportedVersion). Upgrade
// changes only what it must: [Marshal] still writes untouched cells byte for
// byte. The upgrade of a version 2 or 3 notebook replaces what it changes
// (the cells, the maps of members) rather than changing it in place, so a
// copy (cp := *nb) upgrades leaving nb as it is, without reading its bytes
// again.
func Upgrade(nb *Notebook) error { return upgrade(nb) }

// upgrade is Upgrade.
func upgrade(nb *Notebook) error {
	if err := nilVariantError(nb); err != nil {
		return err
	}
	switch {
	case nb.Nbformat == 2 || nb.Nbformat == 3:
		if err := upgradeV3(nb); err != nil {
			return err
		}
	case nb.Nbformat == 4:
	default:
		return fmt.Errorf("nbformat: upgrade from nbformat %d: %w", nb.Nbformat, ErrUnsupportedVersion)
	}
	if nb.NbformatMinor < minorVersion {
		nb.NbformatMinor = minorVersion
	}
	fixIDs(nb)
	return nil
}

// fixIDs gives fresh ids to cells whose id is missing, invalid or already
// used by an earlier cell. The fresh ids are cut from one buffer, and the
// sets of ids are made only when needed (a small notebook's fresh ids are
// looked for in that buffer): a version 3 notebook's upgrade (no ids at
// all) costs one allocation, not some per cell.
func fixIDs(nb *Notebook) {
	var used, seen map[CellID]bool // valid ids (and fresh ones if many); valid ids met so far
	for _, c := range nb.Cells {
		if id := CellIDOf(c); id.valid() {
			if used == nil {
				used = make(map[CellID]bool, len(nb.Cells))
			}
			used[id] = true
		}
	}
	many := len(nb.Cells) > scanFresh
	var b strings.Builder // the fresh ids, and the candidates taken
	taken := func(id string) bool {
		if used[CellID(id)] {
			return true
		}
		if many {
			return false // (in used)
		}
		s := b.String()
		for k := 0; k+8 < len(s); k += 8 { // (the candidate itself, last, left out)
			if s[k:k+8] == id {
				return true
			}
		}
		return false
	}
	for i, c := range nb.Cells {
		if id := CellIDOf(c); id.valid() && !seen[id] {
			if seen == nil {
				seen = make(map[CellID]bool, len(nb.Cells))
			}
			seen[id] = true
			continue
		}
		if _, unknown := c.(*UnknownCell); unknown {
			continue
		}
		if b.Cap() == 0 {
			b.Grow(8 * (len(nb.Cells) - i))
		}
		// (Not in seen: a fresh id is none of the valid ids, which used
		// holds from the start.)
		fresh := CellID(cellid.DeriveInto(&b, i, string(c.Type()), SourceOf(c).String(), taken))
		if many {
			if used == nil {
				used = make(map[CellID]bool, len(nb.Cells))
			}
			used[fresh] = true
		}
		SetCellID(c, fresh)
	}
}

// scanFresh is the most cells for which fixIDs looks for a candidate id
// among the fresh ones by scanning them, rather than in a set.
const scanFresh = 32

// upgradeV3 converts the worksheets of a v3 notebook (kept as generic JSON
// in AdditionalProperties) into typed v4 cells (see internal/nbv3).
func upgradeV3(nb *Notebook) error {
	extra := nb.AdditionalProperties
	ws, read := extra["worksheets"].(json.RawMessage)
	if !read && extra["worksheets"] != nil {
		// Worksheets set in memory: upgraded from their JSON.
		var err error
		if ws, err = encodeCompact(extra["worksheets"]); err != nil {
			return fmt.Errorf("nbformat: upgrade: %w", err)
		}
	}
	// The version 4 notebook the cells are read from, its cells written
	// after this head by the upgrade.
	data := append(make([]byte, 0, len(v4Head)+len(ws)+3), v4Head...)
	lim := jsontree.Limits{MaxDepth: defaultMaxDepth}
	var err error
	switch t, w := nb.worksheetsRead(ws); {
	case t != nil:
		data, err = nbv3.AppendCells(data, t, w, nb.Nbformat == 2, lim)
	case ws != nil:
		if t, err = jsontree.Parse(ws, lim); err == nil {
			data, err = nbv3.AppendCells(data, t, jsontree.Root, nb.Nbformat == 2, lim)
		}
	default:
		data = append(data, "[]"...)
	}
	if err != nil {
		return fmt.Errorf("nbformat: upgrade: %w", err)
	}
	doc, err := UnmarshalOptions{}.unmarshalParts(append(data, '}'))
	if err != nil {
		return fmt.Errorf("nbformat: upgrade: %w", err)
	}
	newExtra := map[string]any{}
	for k, v := range extra {
		switch k {
		case "worksheets", "orig_nbformat", "orig_nbformat_minor":
		default:
			newExtra[k] = v
		}
	}
	if len(newExtra) == 0 {
		newExtra = nil
	}
	nb.AdditionalProperties = newExtra
	if md := nb.Metadata.AdditionalProperties; md != nil {
		// A map of its own (replaced, not changed: see Upgrade).
		_, name := md["name"]
		_, sig := md["signature"]
		if name || sig {
			md = maps.Clone(md)
			delete(md, "name")
			delete(md, "signature")
		}
		if len(md) == 0 {
			md = nil
		}
		nb.Metadata.AdditionalProperties = md
	}
	detachCells(doc.Cells)
	if nb.Metadata.zero() {
		// A v3 file without metadata (Python refuses to upgrade it): an
		// empty, non-nil map makes the metadata object present.
		nb.Metadata.AdditionalProperties = map[string]any{}
	}
	nb.Cells = doc.Cells
	nb.Nbformat, nb.NbformatMinor = 4, minorVersion
	return nil
}

// v4Head is the start of the version 4 notebook upgradeV3 reads the
// upgraded cells from.
const v4Head = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": `

// worksheetsRead returns the tape nb was read from and its worksheets
// node when ws is that member's bytes as read (not a copy, nor a value set
// in memory), recorded whole (see notebookShape) within the default
// nesting limit: the upgrade reads them from that parse. Else nil, -1.
func (nb *Notebook) worksheetsRead(ws []byte) (*jsontree.Tape, int) {
	if nb.src == nil || nb.src.deep || len(ws) == 0 {
		return nil, -1
	}
	t := nb.src.tape
	w := t.Lookup(jsontree.Root, "worksheets")
	if w < 0 {
		return nil, -1
	}
	n := &t.Nodes[w]
	if int(n.End-n.Start) != len(ws) || &t.Data[n.Start] != &ws[0] {
		return nil, -1
	}
	for j := w; j < t.Next(w); j++ {
		if t.Lazy(j) {
			return nil, -1
		}
	}
	return t, w
}

// detachCells makes the texts of cells decoded from temporary JSON take
// the notebook's style when written (lines or strings), as new text does:
// each becomes a text built in memory. The texts are cut from one buffer
// for all the cells (see MultilineString.textInto: a text without escapes
// shares the temporary JSON, which no one else holds), rather than
// allocated one by one.
func detachCells(cells []Cell) {
	bound := 0
	for _, c := range cells {
		eachText(c, func(m *MultilineString) { bound += m.textBound() })
	}
	var b strings.Builder
	b.Grow(bound)
	for _, c := range cells {
		eachText(c, func(m *MultilineString) { *m = Text(m.textInto(&b)) })
		eachBundle(c, func(b MimeBundle) {
			if b.b != nil {
				b.b.raw = nil
			}
		})
	}
}

// eachText calls f with each text of c: its source, and the texts of its
// attachments and outputs (stream text, the text entries of MIME
// bundles).
func eachText(c Cell, f func(*MultilineString)) {
	switch c := c.(type) {
	case *CodeCell:
		f(&c.Source)
		for _, o := range c.Outputs {
			outputTexts(o, f)
		}
	case *MarkdownCell:
		f(&c.Source)
		for _, b := range c.Attachments {
			bundleTexts(b, f)
		}
	case *RawCell:
		f(&c.Source)
		for _, b := range c.Attachments {
			bundleTexts(b, f)
		}
	}
}

// eachBundle calls f with each MIME bundle of c (attachments, output
// data).
func eachBundle(c Cell, f func(MimeBundle)) {
	switch c := c.(type) {
	case *CodeCell:
		for _, o := range c.Outputs {
			switch o := o.(type) {
			case *ExecuteResult:
				f(o.Data)
			case *DisplayData:
				f(o.Data)
			}
		}
	case *MarkdownCell:
		for _, b := range c.Attachments {
			f(b)
		}
	case *RawCell:
		for _, b := range c.Attachments {
			f(b)
		}
	}
}

// bundleTexts calls f with each text entry of b.
func bundleTexts(b MimeBundle, f func(*MultilineString)) {
	if b.b == nil {
		return
	}
	for i := range b.b.entries {
		if e := &b.b.entries[i]; !e.isJSON {
			f(&e.text)
		}
	}
}

// outputTexts calls f with each text of o.
func outputTexts(o Output, f func(*MultilineString)) {
	switch o := o.(type) {
	case *Stream:
		f(&o.Text)
	case *ExecuteResult:
		bundleTexts(o.Data, f)
	case *DisplayData:
		bundleTexts(o.Data, f)
	}
}
