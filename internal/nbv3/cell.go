package nbv3

// The upgrade of one cell, on objects made of the tape's members.

import (
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
)

// tval is a value of an upgraded cell: a node of the tape, or one made by
// the upgrade (compact JSON text, an object or an array).
type tval struct {
	node  int     // >= 0: the tape's node
	raw   string  // node < 0, nothing else set: compact JSON
	obj   *tobj   // an object made here
	arr   *[]tval // an array made here
	lines joinedLines
}

// joinedLines is a string joined from the string nodes of an array.
type joinedLines struct {
	arr   int  // > 0: the array node (the root, node 0, never is one)
	nl    bool // joined with "\n" (else as they are)
	plain bool // every part spelled as the writer spells it
}

type tobj struct{ ms []tmember }

type tmember struct {
	key []byte // decoded
	tok []byte // the key's token as written, when it is spelled so (else nil)
	val tval
}

func tnode(j int) tval     { return tval{node: j} }
func traw(s string) tval   { return tval{node: -1, raw: s} }
func tobject(o *tobj) tval { return tval{node: -1, obj: o} }

func (o *tobj) index(k string) int {
	for i := range o.ms {
		if string(o.ms[i].key) == k {
			return i
		}
	}
	return -1
}

func (o *tobj) get(k string) (tval, bool) {
	if i := o.index(k); i >= 0 {
		return o.ms[i].val, true
	}
	return tval{}, false
}

func (o *tobj) set(k string, v tval) {
	if i := o.index(k); i >= 0 {
		o.ms[i].val = v
		return
	}
	o.ms = append(o.ms, tmember{key: keyBytes(k), val: v})
}

// setKeys holds the bytes of the keys the upgrade sets, shared (they are
// only read), so that setting a member allocates nothing.
var setKeys = func() map[string][]byte {
	m := map[string][]byte{}
	for _, k := range []string{"cell_type", "collapsed", "data", "execution_count", "id", "metadata", "name", "output_type", "outputs", "source"} {
		m[k] = []byte(k)
	}
	for _, a := range mimeAliases {
		m[a.mime] = []byte(a.mime)
	}
	return m
}()

// keyBytes returns k as bytes not to be changed.
func keyBytes(k string) []byte {
	if b, ok := setKeys[k]; ok {
		return b
	}
	return []byte(k)
}

func (o *tobj) del(k string) {
	if i := o.index(k); i >= 0 {
		o.ms = slices.Delete(o.ms, i, i+1)
	}
}

// pop removes k and returns its value, or def.
func (o *tobj) pop(k string, def tval) tval {
	if v, ok := o.get(k); ok {
		o.del(k)
		return v
	}
	return def
}

// upgrader writes the version 4 cells of version 2 or 3 worksheets.
type upgrader struct {
	t   *jsontree.Tape
	v2  bool // version 2: lines are joined with "\n"
	lim jsontree.Limits
	// Objects and arrays made for a cell, reused for the next once it is
	// written (cells are written one at a time).
	freeObjs, usedObjs   []*tobj
	freeLists, usedLists []*[]tval
}

// newObj returns an empty object with room for n members.
func (u *upgrader) newObj(n int) *tobj {
	var o *tobj
	if k := len(u.freeObjs); k > 0 {
		o, u.freeObjs = u.freeObjs[k-1], u.freeObjs[:k-1]
		clear(o.ms)
		o.ms = o.ms[:0]
	} else {
		o = &tobj{}
	}
	if cap(o.ms) < n {
		o.ms = make([]tmember, 0, n)
	}
	u.usedObjs = append(u.usedObjs, o)
	return o
}

// newList returns an empty array with room for n values.
func (u *upgrader) newList(n int) *[]tval {
	var l *[]tval
	if k := len(u.freeLists); k > 0 {
		l, u.freeLists = u.freeLists[k-1], u.freeLists[:k-1]
		clear(*l)
		*l = (*l)[:0]
	} else {
		l = new([]tval)
	}
	if cap(*l) < n {
		*l = make([]tval, 0, n)
	}
	u.usedLists = append(u.usedLists, l)
	return l
}

// recycle makes what the last cell used free for the next.
func (u *upgrader) recycle() {
	u.freeObjs = append(u.freeObjs, u.usedObjs...)
	u.usedObjs = u.usedObjs[:0]
	u.freeLists = append(u.freeLists, u.usedLists...)
	u.usedLists = u.usedLists[:0]
}

// members returns object j's members, a key given twice once, with its
// last value (as generic JSON has it).
func (u *upgrader) members(j int) *tobj {
	t := u.t
	n := int(t.Nodes[j].Len)
	o := u.newObj(n + 3)  // room for what the upgrade adds
	var at map[string]int // many members: found by key
	if n > 16 {
		at = make(map[string]int, n)
	}
	t.Children(j, func(k int) bool {
		m := tmember{val: tnode(k)}
		nd := &t.Nodes[k]
		if nd.Flags&jsontree.FlagKeyEscaped == 0 {
			m.tok = t.Data[nd.Key:nd.KeyEnd]
			m.key = m.tok[1 : len(m.tok)-1]
		} else {
			m.key = jsontree.AppendUnescaped(nil, t.Data[nd.Key+1:nd.KeyEnd-1])
		}
		i := -1
		if at != nil {
			if x, ok := at[string(m.key)]; ok {
				i = x
			} else {
				at[string(m.key)] = len(o.ms)
			}
		} else {
			i = o.index(string(m.key))
		}
		if i >= 0 {
			o.ms[i] = m // the last value of a key given twice
		} else {
			o.ms = append(o.ms, m)
		}
		return true
	})
	return o
}

// cell is upgradeCellV3 of cell object c.
func (u *upgrader) cell(c int) *tobj {
	t := u.t
	cell := u.members(c)
	var typ string
	if v, ok := cell.get("cell_type"); ok {
		typ = u.oneOf(v, "code", "heading", "html")
	}
	// The reader: rejoin_lines and strip_transient.
	if typ == "code" {
		u.join(cell, "input")
		if outs, ok := cell.get("outputs"); ok && t.Nodes[outs.node].Kind == jsontree.Array {
			list := u.newList(int(t.Nodes[outs.node].Len))
			t.Children(outs.node, func(o int) bool {
				if t.Nodes[o].Kind != jsontree.Object {
					*list = append(*list, tnode(o))
					return true
				}
				out := u.members(o)
				for _, k := range Texts {
					u.join(out, k)
				}
				u.output(out)
				*list = append(*list, tobject(out))
				return true
			})
			cell.set("outputs", tval{node: -1, arr: list})
		}
	} else {
		u.join(cell, "source")
		u.join(cell, "rendered")
	}
	cell.del("trusted")
	md := u.newObj(1)
	if v, ok := cell.get("metadata"); ok && v.node >= 0 && t.Nodes[v.node].Kind == jsontree.Object {
		md = u.members(v.node)
	}
	md.del("trusted")
	cell.set("metadata", tobject(md))
	cell.set("id", traw(`""`))
	switch typ {
	case "code":
		cell.del("language")
		if v, ok := cell.get("collapsed"); ok {
			md.set("collapsed", v)
			cell.del("collapsed")
		}
		cell.set("source", cell.pop("input", traw(`""`)))
		cell.set("execution_count", cell.pop("prompt_number", traw("null")))
	case "heading":
		cell.set("cell_type", traw(`"markdown"`))
		level := 1
		if v, ok := cell.get("level"); ok {
			cell.del("level")
			if v.node >= 0 && t.Nodes[v.node].Kind == jsontree.Number {
				if n, isInt := jsontree.NumberValue(t.Raw(v.node), t.Nodes[v.node].Flags).(int); isInt {
					level = max(n, 0) // Python: "#" * -1 == ""
				}
			}
		}
		var src string
		if v, ok := cell.get("source"); ok {
			switch {
			case v.node >= 0 && t.Nodes[v.node].Kind == jsontree.String:
				src = t.Str(v.node)
			case v.lines.arr > 0:
				src = u.text(v.lines)
			}
		}
		var words []string
		for _, l := range lines.Split(src) {
			words = append(words, strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
		}
		heading := strings.Repeat("#", min(level, maxHeading)) + " " + strings.Join(words, " ")
		cell.set("source", traw(string(appendString(nil, heading))))
	case "html":
		cell.set("cell_type", traw(`"markdown"`))
	}
	return cell
}

// oneOf returns the one of names that v, a value read, is the string of;
// "" for other values.
func (u *upgrader) oneOf(v tval, names ...string) string {
	if v.node < 0 {
		return ""
	}
	for _, n := range names {
		if u.t.StrIs(v.node, n) {
			return n
		}
	}
	return ""
}

// maxHeading bounds the "#" a heading's level gives (headings go from 1
// to 6; Python writes as many as the level says, which for a hostile
// level is more memory than there is).
const maxHeading = 1 << 10

// output upgrades an output's members.
func (u *upgrader) output(out *tobj) {
	t := u.t
	var typ string
	if v, ok := out.get("output_type"); ok {
		typ = u.oneOf(v, "pyout", "display_data", "pyerr", "stream")
	}
	switch typ {
	case "pyout", "display_data":
		if _, ok := out.get("metadata"); !ok {
			out.set("metadata", tobject(u.newObj(0)))
		}
		if typ == "pyout" {
			out.set("output_type", traw(`"execute_result"`))
			out.set("execution_count", out.pop("prompt_number", traw("null")))
		}
		data := u.newObj(len(out.ms))
		kept := out.ms[:0]
		for _, m := range out.ms {
			switch string(m.key) {
			case "output_type", "execution_count", "metadata":
				kept = append(kept, m)
			default:
				data.ms = append(data.ms, m)
			}
		}
		out.ms = kept
		toMimeKeysTape(data)
		if v, ok := data.get("application/json"); ok {
			if js, ok := u.parsed(v); ok {
				data.set("application/json", js)
			}
		}
		out.set("data", tobject(data))
		if v, _ := out.get("metadata"); v.node >= 0 && t.Nodes[v.node].Kind == jsontree.Object {
			md := u.members(v.node)
			toMimeKeysTape(md)
			out.set("metadata", tobject(md))
		}
	case "pyerr":
		out.set("output_type", traw(`"error"`))
	case "stream":
		out.set("name", out.pop("stream", traw(`"stdout"`)))
	}
}

// parsed returns the JSON value string v holds, written, when v is a
// string holding JSON.
func (u *upgrader) parsed(v tval) (tval, bool) {
	var s string
	switch {
	case v.node >= 0 && u.t.Nodes[v.node].Kind == jsontree.String:
		s = u.t.Str(v.node)
	case v.lines.arr > 0:
		s = u.text(v.lines)
	default:
		return tval{}, false
	}
	t, err := jsontree.Parse([]byte(s), u.lim)
	if err != nil {
		return tval{}, false
	}
	sub := upgrader{t: t, lim: u.lim}
	return traw(string(sub.appendNode(nil, jsontree.Root))), true
}

func toMimeKeysTape(d *tobj) {
	for _, a := range mimeAliases {
		if v, ok := d.get(a.alias); ok {
			d.del(a.alias)
			d.set(a.mime, v)
		}
	}
}

// join replaces member k, when it is an array of strings, by the string
// the version 3 reader (or version 2's) joins them into, written from the
// strings' bytes where they are spelled as appendGeneric spells them.
func (u *upgrader) join(o *tobj, k string) {
	t := u.t
	v, ok := o.get(k)
	if !ok || v.node < 0 || t.Nodes[v.node].Kind != jsontree.Array {
		return
	}
	j := v.node
	plain := true // every part spelled as appendGeneric spells it
	allStrings := true
	first := -1
	t.Children(j, func(s int) bool {
		sn := &t.Nodes[s]
		if sn.Kind != jsontree.String {
			allStrings = false
			return false
		}
		if first < 0 {
			first = s
		}
		plain = plain && jsontree.IsPythonToken(t.Raw(s), false, sn.Flags)
		return true
	})
	if !allStrings {
		return
	}
	nl := u.v2 || first >= 0 && !strEndsLine(t, first)
	o.set(k, tval{node: -1, lines: joinedLines{arr: j, nl: nl, plain: plain}})
}

// text is the joined string.
func (u *upgrader) text(l joinedLines) string {
	var b strings.Builder
	i := 0
	u.t.Children(l.arr, func(s int) bool {
		if i > 0 && l.nl {
			b.WriteByte('\n')
		}
		i++
		b.Write(u.t.StrBytes(s))
		return true
	})
	return b.String()
}
