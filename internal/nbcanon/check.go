// Where Python nbformat cannot write a notebook: its reader or writer
// raises (pythonFailure).
package nbcanon

import (
	"bytes"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbv3"
)

// pythonFailure finds the first place where Python nbformat's reader
// (rejoin_lines, strip_transient) or writer (split_lines, strip_transient,
// then writing UTF-8) raises, replaying the attribute and type accesses of
// nbformat/v4/rwbase.py (v3/rwbase.py for version 3). nil means Python
// writes the notebook.
func pythonFailure(t *jsontree.Tape, v3 bool) error {
	c := pyCheck{t: t}
	if t.BOM {
		c.fail("", "the file starts with a UTF-8 byte-order mark, which Python's json module refuses")
		return c.err
	}
	bigInt := func(n *jsontree.Node) bool {
		if n.Kind == jsontree.Number && n.Flags&jsontree.FlagInt != 0 && n.End-n.Start > pyMaxIntDigits {
			digits := n.End - n.Start
			if t.Data[n.Start] == '-' {
				digits--
			}
			if digits > pyMaxIntDigits {
				c.fail("", "an integer of %d digits, more than Python's limit of %d for reading integers", digits, pyMaxIntDigits)
				return true
			}
		}
		return false
	}
	for i := range t.Nodes {
		if bigInt(&t.Nodes[i]) {
			c.err.(*Problem).Pointer = pointerOf(t, i)
			return c.err
		}
		if t.Lazy(i) && t.Nodes[i].Flags&jsontree.FlagStrings == 0 && mayHoldBigInt(t.Raw(i)) { // (strings only: no number)
			eachInside(t, i, func(n *jsontree.Node, open []inside) bool {
				if bigInt(n) {
					c.err.(*Problem).Pointer = insidePointer(t, i, open)
					return false
				}
				return true
			})
			if c.err != nil {
				return c.err
			}
		}
	}
	if i, open := tooDeepForPython(t, v3); i >= 0 {
		p, d := pointerOf(t, i), depthOf(t, i)
		if open != nil {
			p, d = insidePointer(t, i, open), d+len(open)
		}
		c.fail(p, "nesting %d deep, more than Python nbformat's writer can copy within Python's recursion limit (RecursionError)", d)
		return c.err
	}
	if v3 {
		c.v3(jsontree.Root)
		return c.err // v3 writes ASCII: any surrogate is escaped
	}
	c.v4(jsontree.Root)
	if c.err != nil {
		return c.err
	}
	surrogates := func(n *jsontree.Node) bool {
		return n.Kind == jsontree.String && n.Flags&jsontree.FlagEscaped != 0 && loneSurrogates(t.Data[n.Start:n.End]) ||
			n.Flags&jsontree.FlagKeyEscaped != 0 && loneSurrogates(t.Data[n.Key:n.KeyEnd])
	}
	const surrogateMsg = "a string holds a lone UTF-16 surrogate, which UTF-8 cannot encode"
	for i := range t.Nodes {
		if surrogates(&t.Nodes[i]) {
			c.fail(pointerOf(t, i), surrogateMsg)
			break
		}
		if t.Lazy(i) && maySurrogate(t.Raw(i)) {
			eachInside(t, i, func(n *jsontree.Node, open []inside) bool {
				if surrogates(n) {
					c.fail(insidePointer(t, i, open), surrogateMsg)
					return false
				}
				return true
			})
			if c.err != nil {
				break
			}
		}
	}
	return c.err
}

// pyMaxIntDigits is Python's default limit on the digits of an integer read
// from text (sys.get_int_max_str_digits, Python 3.11 and later).
const pyMaxIntDigits = 4300

type pyCheck struct {
	t   *jsontree.Tape
	err error
}

func (c *pyCheck) fail(p string, format string, args ...any) {
	if c.err == nil {
		c.err = &Problem{Pointer: p, Msg: fmt.Sprintf(format, args...)}
	}
}

func (c *pyCheck) kind(j int) jsontree.Kind { return c.t.Nodes[j].Kind }

// iterable reports whether Python can iterate node j as a list of
// objects: an array, or an empty object or string (nothing to iterate).
func (c *pyCheck) iterable(j int) bool {
	n := &c.t.Nodes[j]
	switch n.Kind {
	case jsontree.Array:
		return true
	case jsontree.Object:
		return n.Len == 0
	case jsontree.String:
		return n.End-n.Start == 2
	}
	return false
}

func (c *pyCheck) elems(j int) []int {
	if c.kind(j) == jsontree.Array {
		return c.t.ChildList(j)
	}
	return nil
}

func (c *pyCheck) v4(root int) {
	t := c.t
	if c.kind(root) != jsontree.Object {
		c.fail("", "the notebook is not an object")
		return
	}
	md := t.Lookup(root, "metadata")
	switch {
	case md < 0:
		c.fail("", "no metadata (strip_transient reads nb.metadata)")
	case c.kind(md) != jsontree.Object:
		c.fail("/metadata", "metadata is not an object")
	}
	cells := t.Lookup(root, "cells")
	if cells < 0 {
		c.fail("", "no cells (rejoin_lines reads nb.cells)")
		return
	}
	if !c.iterable(cells) {
		c.fail("/cells", "cells is not a list")
		return
	}
	for i, cell := range c.elems(cells) {
		at := jsonpointer.AppendIndex("/cells", i)
		if c.kind(cell) != jsontree.Object {
			c.fail(at, "a cell is not an object")
			continue
		}
		if s := t.Lookup(cell, "source"); s >= 0 && c.kind(s) == jsontree.Array && !t.IsMultiline(s) {
			c.fail(jsonpointer.AppendToken(at, "source"), "a source list holds a value that is not a string")
		}
		if a := t.Lookup(cell, "attachments"); a >= 0 {
			if c.kind(a) != jsontree.Object {
				c.fail(jsonpointer.AppendToken(at, "attachments"), "attachments is not an object")
			} else {
				t.Children(a, func(k int) bool {
					if c.kind(k) != jsontree.Object {
						c.fail(jsonpointer.AppendToken(jsonpointer.AppendToken(at, "attachments"), t.KeyString(k)), "an attachment is not an object")
					}
					return true
				})
			}
		}
		switch m := t.Lookup(cell, "metadata"); {
		case m < 0:
			c.fail(at, "a cell has no metadata (strip_transient reads cell.metadata)")
		case c.kind(m) != jsontree.Object:
			c.fail(jsonpointer.AppendToken(at, "metadata"), "cell metadata is not an object")
		}
		ct := t.Lookup(cell, "cell_type")
		if ct < 0 {
			c.fail(at, "a cell has no cell_type (split_lines reads cell.cell_type)")
			continue
		}
		if !t.StrIs(ct, "code") {
			continue
		}
		outs := t.Lookup(cell, "outputs")
		if outs < 0 {
			c.fail(at, "a code cell has no outputs (split_lines reads cell.outputs)")
			continue
		}
		if !c.iterable(outs) {
			c.fail(jsonpointer.AppendToken(at, "outputs"), "outputs is not a list")
			continue
		}
		for k, out := range c.elems(outs) {
			c.output(jsonpointer.AppendIndex(jsonpointer.AppendToken(at, "outputs"), k), out)
		}
	}
}

func (c *pyCheck) output(at string, out int) {
	t := c.t
	if c.kind(out) != jsontree.Object {
		c.fail(at, "an output is not an object")
		return
	}
	ot := t.Lookup(out, "output_type")
	if ot < 0 {
		c.fail(at, "an output has no output_type (split_lines reads output.output_type)")
		return
	}
	if k := c.kind(ot); k == jsontree.Array || k == jsontree.Object {
		c.fail(jsonpointer.AppendToken(at, "output_type"), "output_type is not hashable")
		return
	}
	switch {
	case t.StrIs(ot, "execute_result") || t.StrIs(ot, "display_data"):
		if d := t.Lookup(out, "data"); d >= 0 && c.kind(d) != jsontree.Object {
			c.fail(jsonpointer.AppendToken(at, "data"), "data is not an object")
		}
	default:
		if x := t.Lookup(out, "text"); x >= 0 && c.kind(x) == jsontree.Array && !t.IsMultiline(x) && pyTruthy(t, ot) {
			c.fail(jsonpointer.AppendToken(at, "text"), "a text list holds a value that is not a string")
		}
		if t.StrIs(ot, "stream") && t.Lookup(out, "text") < 0 {
			c.fail(at, "a stream output has no text (split_lines reads output.text)")
		}
	}
}

// pyTruthy is bool(value) for a JSON node.
func pyTruthy(t *jsontree.Tape, j int) bool {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.Null, jsontree.False:
		return false
	case jsontree.String:
		return n.End-n.Start > 2
	case jsontree.Array, jsontree.Object:
		return n.Len > 0
	case jsontree.Number:
		f, _ := jsontree.NumberValue(t.Raw(j), n.Flags).(float64)
		i, isInt := jsontree.NumberValue(t.Raw(j), n.Flags).(int)
		return isInt && i != 0 || !isInt && f != 0
	}
	return true
}

func (c *pyCheck) v3(root int) {
	t := c.t
	if c.kind(root) != jsontree.Object {
		c.fail("", "the notebook is not an object")
		return
	}
	ws := t.Lookup(root, "worksheets")
	if ws < 0 {
		c.fail("", "no worksheets (rejoin_lines reads nb.worksheets)")
		return
	}
	if !c.iterable(ws) {
		c.fail("/worksheets", "worksheets is not a list")
		return
	}
	for i, w := range c.elems(ws) {
		at := jsonpointer.AppendIndex("/worksheets", i)
		if c.kind(w) != jsontree.Object {
			c.fail(at, "a worksheet is not an object")
			continue
		}
		cells := t.Lookup(w, "cells")
		if cells < 0 {
			c.fail(at, "a worksheet has no cells")
			continue
		}
		if !c.iterable(cells) {
			c.fail(jsonpointer.AppendToken(at, "cells"), "cells is not a list")
			continue
		}
		for k, cell := range c.elems(cells) {
			cat := jsonpointer.AppendIndex(jsonpointer.AppendToken(at, "cells"), k)
			if c.kind(cell) != jsontree.Object {
				c.fail(cat, "a cell is not an object")
				continue
			}
			if m := t.Lookup(cell, "metadata"); m >= 0 && c.kind(m) != jsontree.Object {
				c.fail(jsonpointer.AppendToken(cat, "metadata"), "cell metadata is not an object")
			}
			ct := t.Lookup(cell, "cell_type")
			if ct < 0 {
				c.fail(cat, "a cell has no cell_type (rejoin_lines reads cell.cell_type)")
				continue
			}
			keys := []string{"source", "rendered"}
			if t.StrIs(ct, "code") {
				keys = []string{"input"}
				outs := t.Lookup(cell, "outputs")
				if outs < 0 {
					c.fail(cat, "a code cell has no outputs (rejoin_lines reads cell.outputs)")
					continue
				}
				if !c.iterable(outs) {
					c.fail(jsonpointer.AppendToken(cat, "outputs"), "outputs is not a list")
					continue
				}
				for o, out := range c.elems(outs) {
					oat := jsonpointer.AppendIndex(jsonpointer.AppendToken(cat, "outputs"), o)
					if c.kind(out) != jsontree.Object {
						c.fail(oat, "an output is not an object")
						continue
					}
					for _, key := range nbv3.Texts {
						if x := t.Lookup(out, key); x >= 0 && c.kind(x) == jsontree.Array && !t.IsMultiline(x) {
							c.fail(jsonpointer.AppendToken(oat, key), "a list of lines holds a value that is not a string")
						}
					}
				}
			}
			for _, key := range keys {
				if x := t.Lookup(cell, key); x >= 0 && c.kind(x) == jsontree.Array && !t.IsMultiline(x) {
					c.fail(jsonpointer.AppendToken(cat, key), "a list of lines holds a value that is not a string")
				}
			}
		}
	}
}

// loneSurrogates reports whether a string token escapes a UTF-16
// surrogate that is not part of a pair: Python reads it, but cannot write
// it to a UTF-8 file.
func loneSurrogates(raw []byte) bool {
	for i := 0; i+5 < len(raw); i++ {
		if raw[i] != '\\' {
			k := bytes.IndexByte(raw[i:], '\\')
			if k < 0 {
				return false
			}
			i += k
		}
		if raw[i+1] != 'u' {
			i++
			continue
		}
		r := hexRune(raw[i+2 : i+6])
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if i+11 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if r2 := hexRune(raw[i+8 : i+12]); r2 >= 0xDC00 && r2 < 0xE000 {
					i += 11
					continue
				}
			}
			return true
		case r >= 0xDC00 && r < 0xE000:
			return true
		}
		i += 5
	}
	return false
}

func hexRune(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// pointerOf returns the JSON string of node i.
func pointerOf(t *jsontree.Tape, i int) string {
	var walk func(j int, p string) (string, bool)
	walk = func(j int, p string) (string, bool) {
		if j == i {
			return p, true
		}
		n := &t.Nodes[j]
		if i < j || i >= int(n.Skip) {
			return "", false
		}
		k := 0
		var found string
		ok := false
		t.Children(j, func(c int) bool {
			cp := jsonpointer.AppendIndex(p, k)
			if n.Kind == jsontree.Object {
				cp = jsonpointer.AppendToken(p, t.KeyString(c))
			}
			k++
			found, ok = walk(c, cp)
			return !ok
		})
		return found, ok
	}
	p, _ := walk(jsontree.Root, "")
	return p
}
