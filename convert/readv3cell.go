package convert

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbimpl"
)

// The direct reading of version 2 and 3 cells (see readV3): each cell's
// parts, its message's text and metadata, as the upgrade gives them.

// cell reads cell object c; false where the reader declines.
func (r *v3Reader) cell(c int, cell *v3Cell) bool {
	t := r.t
	if t.Nodes[c].Kind != jsontree.Object {
		return false
	}
	*cell = v3Cell{src: -1, md: -1, collapsed: -1, count: -1, outs: -1, level: 1}
	typ, source, input, level := -1, -1, -1, -1
	ok := true
	r.kids(c, func(k int) bool {
		nd := &t.Nodes[k]
		if nd.Flags&jsontree.FlagKeyEscaped != 0 {
			ok = false // (rare: not followed)
			return false
		}
		switch string(t.Data[nd.Key+1 : nd.KeyEnd-1]) {
		case "cell_type":
			typ = k
		case "source":
			source = k
		case "input":
			input = k
		case "metadata":
			cell.md = k
		case "collapsed":
			cell.collapsed = k
		case "prompt_number":
			cell.count = k
		case "outputs":
			cell.outs = k
		case "level":
			level = k
		case "attachments":
			ok = false // typed by the upgrade's cell: not followed
		}
		return ok
	})
	if !ok || typ < 0 || t.Nodes[typ].Kind != jsontree.String {
		return false
	}
	if cell.md >= 0 && t.Nodes[cell.md].Kind == jsontree.Object {
		r.kids(cell.md, func(int) bool { return false }) // (notes a lazy one: meta reads it)
	}
	switch {
	case t.StrIs(typ, "code"):
		cell.kind, cell.plan, cell.src = dialog.Code, codeMetaPlan, input
		if input >= 0 && !r.isText(input) {
			return false
		}
		return r.codeParts(cell)
	case t.StrIs(typ, "markdown"), t.StrIs(typ, "html"):
		cell.kind, cell.plan, cell.src = dialog.Note, markdownMetaPlan, source
	case t.StrIs(typ, "raw"):
		cell.kind, cell.plan, cell.src = dialog.Raw, rawMetaPlan, source
	case t.StrIs(typ, "heading"):
		cell.kind, cell.plan, cell.src, cell.heading = dialog.Note, markdownMetaPlan, source, true
		if level >= 0 && t.Nodes[level].Kind == jsontree.Number && t.Nodes[level].Flags&jsontree.FlagInt != 0 {
			// An int (a number the upgrade reads as one): else level 1.
			if n, err := strconv.ParseInt(string(t.Raw(level)), 10, 0); err == nil {
				if n > maxHeadingLevel {
					return false
				}
				cell.level = max(int(n), 0)
			}
		}
		// (A source of another type is read as "".)
		return source < 0 || r.small(source)
	default:
		return false
	}
	return source >= 0 && r.isText(source)
}

// small reports whether node j is no longer than nbformat reads a string
// (a text joined from it is then no longer either).
func (r *v3Reader) small(j int) bool {
	nd := &r.t.Nodes[j]
	return nd.End-nd.Start <= nbimpl.DefaultMaxString
}

// maxHeadingLevel is the largest heading level read directly (the
// upgrade's own limit for its fast path).
const maxHeadingLevel = 64

// codeParts checks a code cell's prompt number, collapsed and outputs.
func (r *v3Reader) codeParts(cell *v3Cell) bool {
	t := r.t
	if cell.count >= 0 {
		switch nd := &t.Nodes[cell.count]; {
		case nd.Kind == jsontree.Null:
			cell.count = -1
		case nd.Kind != jsontree.Number || nd.Flags&jsontree.FlagInt == 0:
			return false
		default:
			if _, err := strconv.ParseInt(string(t.Raw(cell.count)), 10, 0); err != nil {
				return false
			}
		}
	}
	if cell.collapsed >= 0 {
		if k := t.Nodes[cell.collapsed].Kind; k != jsontree.True && k != jsontree.False {
			return false
		}
	}
	if cell.outs < 0 {
		return true
	}
	if t.Nodes[cell.outs].Kind != jsontree.Array {
		return false
	}
	ok := true
	r.kids(cell.outs, func(o int) bool {
		ok = r.outputType(o) != ""
		return ok
	})
	return ok
}

// outputType returns the version 4 output_type of version 3 output o:
// "" for what the reader declines (not an object, an output_type that is
// not a string of a version 3 output).
func (r *v3Reader) outputType(o int) string {
	t := r.t
	if t.Nodes[o].Kind != jsontree.Object {
		return ""
	}
	typ := r.lookup(o, "output_type")
	if typ < 0 || t.Nodes[typ].Kind != jsontree.String {
		return ""
	}
	switch {
	case t.StrIs(typ, "pyout"):
		return "execute_result"
	case t.StrIs(typ, "pyerr"):
		return "error"
	case t.StrIs(typ, "stream"):
		return "stream"
	case t.StrIs(typ, "display_data"):
		return "display_data"
	}
	return ""
}

// isText reports whether node j is a text the upgrade reads: a string,
// or a list of strings (joined), no longer than nbformat reads a string.
func (r *v3Reader) isText(j int) bool {
	t := r.t
	if !r.small(j) {
		return false
	}
	switch t.Nodes[j].Kind {
	case jsontree.String:
		return true
	case jsontree.Array:
		if t.Lazy(j) && t.Nodes[j].Flags&jsontree.FlagStrings != 0 {
			return true // (lines as nbformat's parse leaves them)
		}
		ok := true
		return r.strings(j, func(n jsontree.Node) bool {
			ok = n.Kind == jsontree.String
			return ok
		}) && ok
	}
	return false
}

// size sizes bufs (texts, counts, outputs) for the cells, and makes the
// outputs' handles (in rd, over org).
func (r *v3Reader) size(cells []v3Cell, bufs *readBufs, rd *readV3Dialog, org *origin) {
	t := r.t
	outs, counts, texts := 0, 0, 0
	for i := range cells {
		c := &cells[i]
		if c.outs >= 0 {
			outs += int(t.Nodes[c.outs].Len)
		}
		if c.count >= 0 {
			counts += 2
		}
		if c.src >= 0 {
			texts += int(t.Nodes[c.src].End - t.Nodes[c.src].Start)
		}
		texts += 8 + c.level // the id derived; a heading's marks
	}
	both := make([]dialog.Output, 2*outs)
	rd.outs = make([]v3Output, outs)
	bufs.outs, bufs.snapOuts = both[:outs:outs], both[outs:outs:2*outs]
	for i := range rd.outs {
		bufs.outs[i] = dialog.SourcedOutput(&rd.outs[i])
	}
	k := 0
	for i := range cells {
		if c := &cells[i]; c.outs >= 0 {
			r.kids(c.outs, func(o int) bool {
				rd.outs[k] = v3Output{org: org, k: k, typ: r.outputType(o)}
				k++
				return true
			})
		}
	}
	bufs.counts = make([]int, 0, counts)
	bufs.texts.Grow(texts)
}

// message sets m's kind, content, execution count and outputs from cell
// c; false where the reader declines.
func (r *v3Reader) message(m *dialog.Message, c *v3Cell, b *readBufs) bool {
	m.Kind = c.kind
	switch {
	case c.heading:
		m.Content = r.heading(c, b)
	case c.src >= 0:
		m.Content = r.text(c.src, b)
	}
	if c.kind != dialog.Code {
		return true
	}
	t := r.t
	if c.count >= 0 {
		n, _ := strconv.ParseInt(string(t.Raw(c.count)), 10, 0)
		m.ExecutionCount = b.count(int(n))
	}
	n := 0
	if c.outs >= 0 {
		n = int(t.Nodes[c.outs].Len)
	}
	if b.next+n > len(b.outs) {
		return false // (never: the buffers were sized for the cells)
	}
	m.Outputs = b.outs[b.next : b.next+n : b.next+n]
	b.next += n
	return true
}

// text writes text node j (a string, or a list of strings joined as the
// version 3 reader joins them, or version 2's) to b's texts and returns
// it.
func (r *v3Reader) text(j int, b *readBufs) string {
	t := r.t
	start := b.texts.Len()
	if t.Nodes[j].Kind == jsontree.String {
		writeStr(&b.texts, t, t.Nodes[j])
		return b.texts.String()[start:]
	}
	nl, i := r.v2, 0
	line := func(contents []byte) {
		if i > 0 && nl {
			b.texts.WriteByte('\n')
		}
		jsontree.WriteUnescaped(&b.texts, contents)
		if i == 0 && !nl {
			// lines.JoinV3: lines that end with their line break (the
			// first one tells) are joined as they are, others with "\n".
			first := b.texts.String()[start:]
			nl = !strings.HasSuffix(first, "\n") && !strings.HasSuffix(first, "\r")
		}
		i++
	}
	if t.Lazy(j) && t.Nodes[j].Flags&jsontree.FlagStrings != 0 {
		// The strings read from their bytes, as nbformat's parse leaves
		// the lines of texts (checked: an array of strings).
		jsontree.EachString(t.Raw(j), line)
		return b.texts.String()[start:]
	}
	r.strings(j, func(s jsontree.Node) bool {
		line(t.Data[s.Start+1 : s.End-1])
		return true
	})
	return b.texts.String()[start:]
}

// writeStr writes the decoded string node nd of t to b.
func writeStr(b *strings.Builder, t *jsontree.Tape, nd jsontree.Node) {
	raw := t.Data[nd.Start+1 : nd.End-1]
	if nd.Flags&jsontree.FlagEscaped == 0 {
		b.Write(raw)
		return
	}
	jsontree.WriteUnescaped(b, raw)
}

// heading is the markdown text the upgrade makes of a heading cell: its
// level's "#"s, a space, and the lines of its source (a string, or a list
// of strings joined) each without its line break, joined by spaces.
func (r *v3Reader) heading(c *v3Cell, b *readBufs) string {
	var src string
	if c.src >= 0 && r.isText(c.src) {
		var tb readBufs
		src = r.text(c.src, &tb)
	}
	start := b.texts.Len()
	b.texts.WriteString(strings.Repeat("#", c.level))
	b.texts.WriteByte(' ')
	for i, l := range lines.Split(src) {
		if i > 0 {
			b.texts.WriteByte(' ')
		}
		b.texts.WriteString(strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
	}
	return b.texts.String()[start:]
}

// meta returns the message metadata of cell c: the cell's metadata as
// the upgrade leaves it (without trusted; for code, with the cell's
// collapsed), as metaMap reads it from the upgrade's typed cell; ok is
// false for values the reader declines: numbers other than ints, and
// values of a typed member's key that are not of its type or that ToMap
// converts (arrays and objects of other keys are kept, as the upgraded
// cell keeps them, as the bytes the upgrade writes).
func (r *v3Reader) meta(c *v3Cell) (map[string]any, bool) {
	t := r.t
	n := 0
	if c.md >= 0 && t.Nodes[c.md].Kind == jsontree.Object {
		n = int(t.Nodes[c.md].Len)
	}
	if c.collapsed >= 0 {
		n++
	}
	meta := make(map[string]any, n)
	ok := true
	if c.md >= 0 && t.Nodes[c.md].Kind == jsontree.Object {
		r.kids(c.md, func(k int) bool {
			key := t.KeyString(k)
			if key == "trusted" {
				return true
			}
			var v any
			if v, ok = r.metaValue(k, c.plan.kindOf(key)); ok {
				meta[key] = v
			}
			return ok
		})
	}
	if !ok {
		return nil, false
	}
	if c.collapsed >= 0 {
		meta["collapsed"] = t.Nodes[c.collapsed].Kind == jsontree.True
	}
	return meta, true
}

// metaValue returns the generic value of metadata value node j, of a key
// of the kind given (metaUntyped: not a typed member's); ok is false for
// what the reader declines (values a typed member of kind metaOther,
// metaStruct, metaInt or metaFloat holds are all declined).
func (r *v3Reader) metaValue(j int, kind metaKind) (any, bool) {
	t := r.t
	nd := &t.Nodes[j]
	switch nd.Kind {
	case jsontree.True, jsontree.False:
		return nd.Kind == jsontree.True, kind == metaUntyped || kind == metaBool || kind == metaAny
	case jsontree.String:
		return t.Str(j), kind == metaUntyped || kind == metaString || kind == metaAny
	case jsontree.Null:
		return nil, kind == metaUntyped
	case jsontree.Number:
		if nd.Flags&jsontree.FlagInt == 0 || kind != metaUntyped && kind != metaAny {
			return nil, false
		}
		n, err := strconv.ParseInt(string(t.Raw(j)), 10, 0)
		return int(n), err == nil
	case jsontree.Array, jsontree.Object:
		if kind != metaUntyped {
			return nil, false
		}
		// Kept by the upgraded cell as the bytes the upgrade writes.
		out, ok := nbimpl.V3MetaValue(t.Raw(j))
		return json.RawMessage(out), ok
	}
	return nil, false
}

// metaUntyped is the kind kindOf gives a key its type does not type.
const metaUntyped metaKind = 255

// kindOf returns the kind of the typed member of key k (metaUntyped for
// a key the type does not type).
func (p *metaPlan) kindOf(k string) metaKind {
	for i := range p.fields {
		if f := &p.fields[i]; f.name == k {
			return f.kind
		}
	}
	return metaUntyped
}
