package mergecheck

// Cells of a repair's sides keyed by their place in git's file.

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A repair sees git's file alone, and a cell whose opening brace and
// "cell_type" key are on lines git merged cleanly (outside the
// conflicts) is, in the file, one cell of one kind in all three sides: git's hunks may have given it one side's
// token line and the other's (a token line merged or conflicted like any
// other line), so that its tokens differ between the sides while the
// file pairs it with itself. fileKeys is that reading: such a cell is
// keyed by where its brace is in the file in every side, the others by
// their tokens (tokenKeys); a result cell takes, in order, the first such
// key not yet taken whose versions share a token with its text (a
// conflict's parts hold each side's); the other cells of each notebook
// are keyed by their tokens, numbered in order.

// fileKeys returns the keys reading above for git's file marked and the
// sides read back from it (nil where a side's cells cannot be placed).
func fileKeys(marked []byte, sides [3][]byte) func(vs [4]*nbView) {
	return fileKeysBy(marked, sides, false, func(p [3]int, origin func(int) int) int {
		if p[1] < 0 || origin(p[1]) < 0 {
			return -1 // (its kind is a side's: git did not merge the cell's start cleanly)
		}
		return origin(p[0])
	})
}

// fileEndKeys is fileKeys reading a cell by its closing brace: a cell
// whose closing brace is on a line git merged cleanly is, in the file,
// one cell in all three sides, as one whose opening brace and kind are
// (git's hunks may have given its start, kind and token lines to each
// side's own; the lines it ends with are all three's). A result cell
// holding all its versions' tokens takes such a key first (a side's
// cell of one of its tokens may be another). Cells with ids are read by
// them: where any has one, fileEndKeys is tokenKeys.
func fileEndKeys(marked []byte, sides [3][]byte) func(vs [4]*nbView) {
	keys := fileKeysBy(marked, sides, true, func(p [3]int, origin func(int) int) int { return origin(p[2]) })
	if keys == nil {
		return nil
	}
	return func(vs [4]*nbView) {
		for _, v := range vs {
			for _, c := range v.cells {
				if _, ok := c.c.vals["id"]; ok {
					tokenKeys(vs) // (a cell of an id is that id's: see keyByID)
					return
				}
			}
		}
		keys(vs)
	}
}

// fileKeysBy is fileKeys with a cell's place in git's file given by
// place, from the offsets of its opening brace, kind key and closing
// brace (cellStarts) and the side's map of offsets to the file's (-1:
// none); allFirst: a result cell whose text holds every token of a
// key's versions (a conflict's parts each side's) takes it before any
// cell sharing one does.
func fileKeysBy(marked []byte, sides [3][]byte, allFirst bool, place func(p [3]int, origin func(int) int) int) func(vs [4]*nbView) {
	origins := sideOrigins(marked)
	var at [3][]int // per side, the file offset of each cell's place (-1: in a conflict)
	for i, s := range sides {
		starts, ok := cellStarts(s)
		if !ok {
			return nil
		}
		for _, p := range starts {
			at[i] = append(at[i], place(p, origins[i]))
		}
	}
	return func(vs [4]*nbView) {
		tokenKeys(vs)
		toks := map[string]map[string]bool{} // a file key's versions' tokens
		var order []string
		for i := range 3 {
			if len(at[i]) != len(vs[i].cells) {
				return // (base given up: the two-way empty one)
			}
		}
		for i := range 3 {
			for j, c := range vs[i].cells {
				if at[i][j] < 0 {
					continue
				}
				c.key = fmt.Sprintf("file@%d", at[i][j])
				if toks[c.key] == nil {
					toks[c.key] = map[string]bool{}
					order = append(order, c.key)
				}
				for _, m := range tokenRe.FindAllStringSubmatch(c.text, -1) {
					toks[c.key][m[1]] = true
				}
			}
		}
		taken := map[string]bool{}
		fileKeyed := map[*cellView]bool{}
		take := func(all bool) {
			for _, c := range vs[3].cells {
				in := map[string]bool{}
				for _, m := range tokenRe.FindAllStringSubmatch(c.text, -1) {
					in[m[1]] = true
				}
				for _, k := range order {
					if taken[k] || fileKeyed[c] {
						continue
					}
					shares, holds := false, true
					for tok := range toks[k] {
						shares, holds = shares || in[tok], holds && in[tok]
					}
					if shares && (holds || !all) {
						c.key, taken[k], fileKeyed[c] = k, true, true
					}
				}
			}
		}
		if allFirst {
			take(true)
		}
		take(false)
		// The other cells by their tokens, a token's cells numbered in
		// order in each notebook.
		for i, v := range vs {
			n := map[string]int{}
			for j, c := range v.cells {
				m := tokenRe.FindStringSubmatch(c.text)
				if m == nil || fileKeyed[c] || i < 3 && at[i][j] >= 0 {
					continue
				}
				n[m[1]]++
				c.key = m[1]
				if n[m[1]] > 1 {
					c.key += fmt.Sprintf("#%d", n[m[1]])
				}
			}
		}
	}
}

// sideOrigins returns, for each side of git's file marked (as readBack
// splits it), the map from a byte offset in the side's text to the file's
// offset of that byte, -1 for a byte of a conflict's part.
func sideOrigins(marked []byte) [3]func(int) int {
	type piece struct{ side, file, n int } // a line: its offset in the side, in the file (-1 in a conflict), length
	var pieces [3][]piece
	var size [3]int
	state, off := 0, 0
	for _, l := range bytes.SplitAfter(marked, []byte("\n")) {
		at := off
		off += len(l)
		var isMarker bool
		if state, isMarker = markerStep(string(l), state); isMarker {
			continue
		}
		add := func(i, file int) {
			pieces[i] = append(pieces[i], piece{size[i], file, len(l)})
			size[i] += len(l)
		}
		if state == 0 {
			for i := range 3 {
				add(i, at)
			}
			continue
		}
		add([4]int{0, 1, 0, 2}[state], -1)
	}
	var out [3]func(int) int
	for i := range 3 {
		ps := pieces[i]
		out[i] = func(p int) int {
			for _, x := range ps {
				if p >= x.side && p < x.side+x.n {
					if x.file < 0 {
						return -1
					}
					return x.file + p - x.side
				}
			}
			return -1
		}
	}
	return out
}

// cellStarts returns the offsets in a notebook's text of its cells'
// opening braces, of their "cell_type" keys (-1 without one) and of
// their closing braces (version 3: every worksheet's cells, in order),
// the cells viewOf reads (objects); ok is false where the text does not
// decode.
func cellStarts(text []byte) (starts [][3]int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	delim := func(want json.Delim) bool { return isDelim(dec, want) }
	skip := func() bool { var raw json.RawMessage; return dec.Decode(&raw) == nil }
	cells := func() bool {
		if !delim('[') {
			return false
		}
		for dec.More() {
			p := int(dec.InputOffset())
			for p < len(text) && (text[p] == ',' || text[p] == ' ' || text[p] == '\n' || text[p] == '\r' || text[p] == '\t') {
				p++
			}
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
			if p < len(text) && text[p] == '{' {
				starts = append(starts, [3]int{p, kindKeyAt(raw, p), p + len(raw) - 1})
			}
		}
		return delim(']')
	}
	// members reads an object's members, each as do says (handled
	// false: skipped).
	members := func(do func(key string) (handled, ok bool)) bool {
		if !delim('{') {
			return false
		}
		for dec.More() {
			t, err := dec.Token()
			key, isKey := t.(string)
			if err != nil || !isKey {
				return false
			}
			handled, ok := do(key)
			if !ok || !handled && !skip() {
				return false
			}
		}
		return delim('}')
	}
	ok = members(func(key string) (bool, bool) {
		switch key {
		case "cells":
			return true, cells()
		case "worksheets":
			if !delim('[') {
				return true, false
			}
			for dec.More() {
				if !members(func(key string) (bool, bool) {
					if key == "cells" {
						return true, cells()
					}
					return false, true
				}) {
					return true, false
				}
			}
			return true, delim(']')
		}
		return false, true
	})
	return starts, ok
}

// isDelim reports whether dec's next token is want.
func isDelim(dec *json.Decoder, want json.Delim) bool {
	t, err := dec.Token()
	return err == nil && t == want
}

// kindKeyAt returns the offset of the "cell_type" key of raw, a cell
// object that starts at offset at in its text (-1 without one).
func kindKeyAt(raw json.RawMessage, at int) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if !isDelim(dec, '{') {
		return -1
	}
	for dec.More() {
		p := int(dec.InputOffset())
		t, err := dec.Token()
		if err != nil {
			return -1
		}
		if t == "cell_type" {
			return at + p + bytes.IndexByte(raw[p:], '"')
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return -1
		}
	}
	return -1
}
