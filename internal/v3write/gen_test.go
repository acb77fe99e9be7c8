package v3write

// A generator of version 3 notebooks in random styles and shapes, for the
// tests.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// A generator of version 3 notebooks in many styles: indentation (none,
// 1, 2, 4 spaces, tabs), line endings, sorted or writer-ordered keys,
// texts as lists or strings, ASCII-escaped or raw UTF-8, unrun cells'
// prompt numbers null or left out, one or two worksheets; cells of every
// version 3 type, outputs of every type with version 3 keys and MIME-type
// keys.

// genStyle is how a generated file is written.
type genStyle struct {
	indent, newline string
	sorted          bool
	order           map[string][]string // unsorted: member order per cell or output type
	lines, ascii    bool
	nullCount       bool
	final           string
}

// gen generates notebooks.
type gen struct {
	r  *rand.Rand
	st genStyle
}

func newGen(r *rand.Rand) *gen {
	st := genStyle{
		indent:    []string{"", " ", "  ", "    ", "\t"}[r.IntN(5)],
		newline:   []string{"\n", "\n", "\r\n"}[r.IntN(3)],
		sorted:    r.IntN(2) == 0,
		lines:     r.IntN(4) > 0,
		ascii:     r.IntN(3) > 0,
		nullCount: r.IntN(2) == 0,
		final:     []string{"\n", ""}[r.IntN(2)],
		order:     map[string][]string{},
	}
	for _, typ := range []string{"code", "markdown", "heading", "raw", "html", "pyout", "display_data", "stream", "pyerr", "notebook", "worksheet"} {
		keys := []string{"cell_type", "output_type", "metadata", "input", "source", "outputs", "language", "collapsed", "prompt_number", "level", "text", "png", "html", "json", "stream", "ename", "evalue", "traceback", "nbformat", "nbformat_minor", "worksheets", "cells"}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		st.order[typ] = keys
	}
	return &gen{r: r, st: st}
}

// texts are the texts generated cells and outputs hold.
var genTexts = []string{
	"", "x = 1", "x = 1\n", "import os\nprint(os.getcwd())\n", "café ☕ naïve\n", "tab\there \"q\" \\",
	"first\u2028line\nsecond", "crlf\r\nlines\r\n", "a\rb", "\x1b[31mred\x1b[0m\n", "# Title", "## Sub\n\ntext",
	"<<<<<<< not a conflict\n", "emoji 🤖\nend", "long " + strings.Repeat("word ", 30) + "\n",
}

func (g *gen) text() string { return genTexts[g.r.IntN(len(genTexts))] }

// member is one member of an object being generated.
type gmember struct {
	k string
	v any
}

// gobj is an object being generated; typ names its member order.
type gobj struct {
	typ string
	ms  []gmember
}

// gtext is a text, stored as the style stores texts.
type gtext string

func (g *gen) notebook() []byte {
	nb := &gobj{typ: "notebook"}
	md := &gobj{typ: "meta"}
	md.ms = append(md.ms, gmember{"name", []string{"", "nb"}[g.r.IntN(2)]})
	if g.r.IntN(2) == 0 {
		md.ms = append(md.ms, gmember{"signature", "sha256:" + strings.Repeat("ab", 32)})
	}
	nb.ms = append(nb.ms, gmember{"metadata", md}, gmember{"nbformat", 3}, gmember{"nbformat_minor", 0})
	var sheets []any
	for range 1 + g.r.IntN(2) - g.r.IntN(2)*g.r.IntN(2) {
		var cells []any
		for range g.r.IntN(8) {
			cells = append(cells, g.cell())
		}
		sheets = append(sheets, &gobj{typ: "worksheet", ms: []gmember{{"cells", cells}, {"metadata", &gobj{}}}})
	}
	nb.ms = append(nb.ms, gmember{"worksheets", sheets})
	b := g.value(nil, nb, "")
	return append(b, g.st.final...)
}

func (g *gen) cell() *gobj {
	typ := []string{"code", "code", "markdown", "markdown", "heading", "raw", "html"}[g.r.IntN(7)]
	c := &gobj{typ: typ}
	c.ms = append(c.ms, gmember{"cell_type", typ}, gmember{"metadata", g.metadata()})
	switch typ {
	case "code":
		c.ms = append(c.ms, gmember{"input", gtext(g.text())}, gmember{"language", "python"}, gmember{"collapsed", g.r.IntN(3) == 0})
		if g.r.IntN(2) == 0 {
			c.ms = append(c.ms, gmember{"prompt_number", g.r.IntN(50)})
		} else if g.st.nullCount {
			c.ms = append(c.ms, gmember{"prompt_number", nil})
		}
		var outs []any
		for range g.r.IntN(4) {
			outs = append(outs, g.output())
		}
		c.ms = append(c.ms, gmember{"outputs", outs})
	case "heading":
		c.ms = append(c.ms, gmember{"level", 1 + g.r.IntN(6)}, gmember{"source", gtext(strings.ReplaceAll(g.text(), "\n", " "))})
	default:
		c.ms = append(c.ms, gmember{"source", gtext(g.text())})
	}
	return c
}

func (g *gen) metadata() *gobj {
	md := &gobj{typ: "meta"}
	switch g.r.IntN(4) {
	case 0:
		md.ms = append(md.ms, gmember{"tags", []any{"a", "b"}})
	case 1:
		md.ms = append(md.ms, gmember{"slideshow", &gobj{ms: []gmember{{"slide_type", "slide"}, {"z", 1.5}}}})
	}
	return md
}

func (g *gen) output() *gobj {
	switch g.r.IntN(4) {
	case 0:
		return &gobj{typ: "stream", ms: []gmember{{"output_type", "stream"}, {"stream", "stdout"}, {"text", gtext(g.text())}}}
	case 1:
		return &gobj{typ: "pyerr", ms: []gmember{{"output_type", "pyerr"}, {"ename", "E"}, {"evalue", "é"}, {"traceback", []any{"\x1b[0;31mE\x1b[0m", "line"}}}}
	}
	o := &gobj{typ: "display_data", ms: []gmember{{"output_type", "display_data"}}}
	if g.r.IntN(2) == 0 {
		o.typ = "pyout"
		o.ms = []gmember{{"output_type", "pyout"}, {"prompt_number", g.r.IntN(50)}}
	}
	o.ms = append(o.ms, gmember{"metadata", &gobj{}}, gmember{"text", gtext(g.text())})
	switch g.r.IntN(5) {
	case 0:
		o.ms = append(o.ms, gmember{"png", "iVBORw0KGgo="})
		for i := range o.ms {
			if o.ms[i].k == "metadata" {
				o.ms[i].v = &gobj{ms: []gmember{{"png", &gobj{ms: []gmember{{"width", 10}}}}}}
			}
		}
	case 1:
		o.ms = append(o.ms, gmember{"html", gtext("<b>x</b>\n<i>y</i>")})
	case 2:
		o.ms = append(o.ms, gmember{"json", gtext(`{"b": 1, "a": [1.5, "\u00e9"]}`)})
	case 3:
		o.ms = append(o.ms, gmember{"text/markdown", "*md*"})
	}
	return o
}

// value writes v at indentation ind.
func (g *gen) value(b []byte, v any, ind string) []byte {
	st := &g.st
	in := ind + st.indent
	nl := func(b []byte, ind string) []byte {
		if st.indent == "" {
			return b
		}
		return append(append(b, st.newline...), ind...)
	}
	switch x := v.(type) {
	case *gobj:
		ms := slices.Clone(x.ms)
		if st.sorted {
			slices.SortFunc(ms, func(a, b gmember) int { return strings.Compare(a.k, b.k) })
		} else if order, ok := st.order[x.typ]; ok {
			slices.SortStableFunc(ms, func(a, b gmember) int { return slices.Index(order, a.k) - slices.Index(order, b.k) })
		}
		if len(ms) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				b = append(b, ',')
			}
			b = nl(b, in)
			b = g.str(b, m.k)
			b = append(b, ": "...)
			b = g.value(b, m.v, in)
		}
		return append(nl(b, ind), '}')
	case []any:
		if len(x) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = nl(b, in)
			b = g.value(b, e, in)
		}
		return append(nl(b, ind), ']')
	case gtext:
		if !st.lines {
			return g.str(b, string(x))
		}
		var ls []any
		for _, l := range strings.SplitAfter(string(x), "\n") {
			if l != "" {
				ls = append(ls, l)
			}
		}
		return g.value(b, ls, ind)
	case string:
		return g.str(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	case bool:
		return strconv.AppendBool(b, x)
	case nil:
		return append(b, "null"...)
	}
	panic(fmt.Sprintf("gen: %T", v))
}

func (g *gen) str(b []byte, s string) []byte {
	b, _ = jsontree.AppendQuoted(b, s, jsontree.Escaping{ASCII: g.st.ascii})
	return b
}
