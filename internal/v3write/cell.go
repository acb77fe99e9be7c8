package v3write

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Cells from version 4 to version 3, as Python nbformat's downgrade_cell
// converts them (code: source to input, execution_count to
// prompt_number, metadata.collapsed to collapsed, a language; a one-line
// "#" markdown cell to a heading cell; ids dropped), relative to the
// version 3 cell the cell comes from when there is one: what the upgrade
// of that cell gives and the cell still holds keeps that cell's members
// (its bytes), and what the upgrade drops (the language, a heading's
// level, trusted) is that cell's. Nothing the cell holds is lost or
// changed: the upgrade of the result is the cell.

// The members a version 4 cell's upgrade accounts for, by cell type, and
// those of a version 3 cell (any other member is the cell's own and is
// carried over as it is).
var (
	v4Members = map[string]map[string]bool{
		"code":     set("cell_type", "id", "source", "metadata", "outputs", "execution_count", "attachments"),
		"markdown": set("cell_type", "id", "source", "metadata", "attachments"),
		"raw":      set("cell_type", "id", "source", "metadata", "attachments"),
	}
	v3Members = map[string]map[string]bool{
		"code":     set("cell_type", "input", "language", "collapsed", "metadata", "outputs", "prompt_number", "trusted"),
		"markdown": set("cell_type", "source", "metadata", "level", "trusted"),
		"raw":      set("cell_type", "source", "metadata", "trusted"),
	}
)

func set(ks ...string) map[string]bool {
	m := make(map[string]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// origin is the version 3 cell a cell comes from: its members, their
// order, its type, and its upgrade (up: its normalized form, set by
// cell).
type origin struct {
	f     *v3File
	i     int
	nodes map[string]int
	keys  []string
	typ   string
	cell  *v4Cell
	up    map[string]any
}

// raw returns the bytes of member k.
func (o *origin) raw(k string) json.RawMessage { return json.RawMessage(o.f.t.Raw(o.nodes[k])) }

// family is the version 4 cell type a version 3 cell type upgrades to.
func family(v3type string) string {
	switch v3type {
	case "heading", "html":
		return "markdown"
	}
	return v3type
}

// cell returns the version 3 form of cell c (at pointer p of the cells
// given), over its origin o (nil for none). A cell of another type than
// its origin's family is written as new.
func (w *writer) cell(c *v4Cell, o *origin, p string) (*obj, error) {
	if err := c.normalized(); err != nil {
		return nil, &Error{Input: "cells", Pointer: p, Err: err}
	}
	if o != nil {
		if err := o.cell.normalized(); err != nil {
			return nil, &Error{Input: o.f.name, Pointer: o.f.pointer(o.i), Err: err}
		}
		o.up = o.cell.n
	}
	ct, _ := c.n["cell_type"].(string)
	if o != nil && family(o.typ) != ct {
		o = nil
	}
	if _, known := v4Members[ct]; !known {
		d := newObj()
		for _, k := range sortedKeys(c.g) {
			if k != "id" {
				d.set(k, c.g[k])
			}
		}
		return d, nil
	}
	if atts, ok := c.n["attachments"].(map[string]any); ok && len(atts) > 0 {
		return nil, notRepresentable(p+"/attachments", "nbformat 3 has no attachments")
	}
	d := newObj()
	if o != nil {
		for _, k := range o.keys {
			d.set(k, o.raw(k))
		}
	}
	// keep: member k of c is what the origin's upgrade holds.
	keep := func(k string) bool { return o != nil && sameMember(c.n, o.up, k) }
	typ := ct
	switch ct {
	case "code":
		if err := w.code(d, c, o, keep, p); err != nil {
			return nil, err
		}
	case "markdown", "raw":
		typ = w.text(d, c, o, keep)
	}
	if ct != "code" && !keep("metadata") {
		if md, ok := c.g["metadata"]; ok {
			d.set("metadata", md)
		} else {
			d.del("metadata")
		}
	}
	for _, k := range sortedKeys(c.g) {
		if !v4Members[ct][k] && !keep(k) {
			d.set(k, c.g[k])
		}
	}
	if o != nil {
		for _, k := range o.keys {
			if _, inC := c.g[k]; !v3Members[family(typ)][k] && !inC {
				if _, inUp := o.up[k]; inUp {
					d.del(k) // (a member of the origin the cell no longer has)
				}
			}
		}
	}
	if o == nil || o.f.name != "ours" {
		d.order(w.st.orderOf(typ))
	}
	return d, nil
}

// code writes a code cell's own members into d.
func (w *writer) code(d *obj, c *v4Cell, o *origin, keep func(string) bool, p string) error {
	d.set("cell_type", "code")
	if !keep("source") {
		d.set("input", w.splitValue(c.n["source"]))
	}
	if !d.has("language") {
		d.set("language", w.st.language)
	}
	if !keep("execution_count") {
		switch n := c.n["execution_count"]; {
		case n != nil:
			d.set("prompt_number", n)
		case w.st.nullCount:
			d.set("prompt_number", nil)
		default:
			d.del("prompt_number")
		}
	}
	if !keep("metadata") {
		// (collapsed is the cell's own member in nbformat 3.)
		md, _ := c.g["metadata"].(map[string]any)
		if coll, ok := md["collapsed"]; ok {
			d.set("collapsed", coll)
			rest := make(map[string]any, len(md))
			for k, v := range md {
				if k != "collapsed" {
					rest[k] = v
				}
			}
			d.set("metadata", rest)
		} else {
			d.del("collapsed")
			if md != nil {
				d.set("metadata", md)
			}
		}
	}
	if !keep("outputs") {
		outs, err := w.outputs(d, c, o, p)
		if err != nil {
			return err
		}
		if outs == nil {
			d.del("outputs")
		} else {
			d.set("outputs", outs)
		}
	}
	return nil
}

// outputs returns the version 3 outputs of code cell c: those its
// origin's upgrade holds as the origin's (their bytes), the others
// converted.
func (w *writer) outputs(d *obj, c *v4Cell, o *origin, p string) ([]any, error) {
	gouts, ok := c.g["outputs"].([]any)
	nouts, _ := c.n["outputs"].([]any)
	if !ok || len(gouts) != len(nouts) {
		return nil, nil
	}
	var ups []any
	var raws [][]byte
	if raw, ok := d.vals["outputs"].(json.RawMessage); ok {
		// The origin's outputs, and their upgrades.
		if t, err := jsontree.ParseShaped(raw, jsontree.Limits{MaxDepth: 10000}, &jsontree.Shape{}); err == nil && t.Nodes[jsontree.Root].Kind == jsontree.Array {
			for _, k := range t.ChildList(jsontree.Root) {
				raws = append(raws, t.Raw(k))
			}
		}
	}
	if o != nil {
		ups, _ = o.up["outputs"].([]any)
	}
	if len(ups) != len(raws) {
		ups, raws = nil, nil
	}
	used := make([]bool, len(ups))
	out := make([]any, len(nouts))
	for i, n := range nouts {
		j := -1
		if i < len(ups) && !used[i] && equal(n, ups[i]) {
			j = i
		} else {
			for k := range ups {
				if !used[k] && equal(n, ups[k]) {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			used[j] = true
			out[i] = json.RawMessage(raws[j])
			continue
		}
		g, _ := gouts[i].(map[string]any)
		nm, _ := n.(map[string]any)
		if g == nil || nm == nil {
			out[i] = gouts[i] // (not an object: as it is)
			continue
		}
		x, err := w.output(g, nm, p+"/outputs/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// text writes a markdown or raw cell's own members into d, returning its
// version 3 type: a markdown cell stays the markdown or html cell its
// origin is; else it is a heading cell where one upgrades to its text
// exactly ("#"×level, a space, a text without line breaks), as Python's
// downgrade makes one-line "#" cells headings (Python also takes "#x" and
// "#  x", which come back as "# x").
func (w *writer) text(d *obj, c *v4Cell, o *origin, keep func(string) bool) string {
	ct, _ := c.n["cell_type"].(string)
	src, isText := c.n["source"].(string)
	typ := ct
	level, heading := 0, ""
	if ct == "markdown" {
		switch {
		case o != nil && (o.typ == "markdown" || o.typ == "html"):
			typ = o.typ
		case isText:
			if l, h, ok := headingOf(src); ok {
				typ, level, heading = "heading", l, h
			}
		}
	}
	d.set("cell_type", typ)
	if o != nil && o.typ == typ && keep("source") {
		return typ // (its source, and a heading's level, as they are)
	}
	switch {
	case typ == "heading":
		d.set("level", level)
		d.set("source", w.st.split(heading))
	default:
		d.del("level")
		d.set("source", w.splitValue(c.n["source"]))
	}
	return typ
}

// lineBreaks are str.splitlines' line boundaries.
const lineBreaks = "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029"

// headingOf returns the level and text of the heading cell whose upgrade
// is src ("#"×level + " " + its text's lines joined by spaces), if there
// is one.
func headingOf(src string) (level int, text string, ok bool) {
	level = len(src) - len(strings.TrimLeft(src, "#"))
	if level == 0 || level == len(src) || src[level] != ' ' {
		return 0, "", false
	}
	text = src[level+1:]
	if strings.ContainsAny(text, lineBreaks) {
		return 0, "", false
	}
	return level, text, true
}
