package nbformat_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The generator of FuzzEditLayout: valid nbformat 4 notebooks built from a
// byte string, held as a model (ordered objects) and written with odd
// layouts: comma-first separators, tabs, CRLF, no whitespace at all,
// spaces before colons and commas, whitespace inside empty arrays and
// objects, escaped non-ASCII text, unsorted keys. Every container may
// change layout from its parent's.

// dice draws choices from a byte string (zeros once it is used up).
type dice struct {
	data []byte
	i    int
}

func (d *dice) byte() byte {
	if d.i >= len(d.data) {
		return 0
	}
	b := d.data[d.i]
	d.i++
	return b
}

// n returns a number in [0, k).
func (d *dice) n(k int) int {
	if k <= 1 {
		return 0
	}
	return int(d.byte()) % k
}

func (d *dice) pick(list []string) string { return list[d.n(len(list))] }

// obj is a JSON object of the model, its members in order. raw is the
// text it was written as; touched says an edit changed it or what is
// inside.
type obj struct {
	keys    []string
	vals    map[string]any // *obj, []any, string, float64, bool, nil
	raw     []byte
	touched bool
}

func newObj() *obj { return &obj{vals: map[string]any{}} }

func (o *obj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *obj) del(k string) {
	if _, ok := o.vals[k]; ok {
		delete(o.vals, k)
		o.keys = slices.DeleteFunc(o.keys, func(x string) bool { return x == k })
	}
}

func (o *obj) get(k string) any { return o.vals[k] }

// plain returns v as encoding/json decodes it.
func plain(v any) any {
	switch x := v.(type) {
	case *obj:
		m := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			m[k] = plain(x.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

var textBits = []string{"", "a", "x = 1\n", "print('hi')\n", "é", `"q"`, `back\slash`, "\ttab", "€\n", "\r\n", "line\n", "\u2028", "🙂", "<b>&</b>", "\n"}

func (d *dice) text() string {
	var b strings.Builder
	for range d.n(5) {
		b.WriteString(d.pick(textBits))
	}
	return b.String()
}

// multiline returns text stored as one string or as an array of lines.
func (d *dice) multiline() any {
	s := d.text()
	if d.n(2) == 0 {
		return s
	}
	list := []any{}
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		list = append(list, s[:i])
		s = s[i:]
	}
	return list
}

var metaKeys = []string{"k", "extra", "a b", "é", "solveit_ai", "z", "nested"}

// value returns an arbitrary JSON value (empty arrays and objects often).
func (d *dice) value(depth int) any {
	k := 6
	if depth <= 0 {
		k = 4
	}
	switch d.n(k) {
	case 0:
		return d.text()
	case 1:
		return float64(d.n(200)) - 50
	case 2:
		return []any{true, false, nil}[d.n(3)]
	case 3:
		return float64(d.n(1000)) / 8
	case 4:
		return d.object(depth - 1)
	default:
		list := []any{}
		for range d.n(4) {
			list = append(list, d.value(depth-1))
		}
		return list
	}
}

// object returns an object of arbitrary values (possibly empty).
func (d *dice) object(depth int) *obj {
	o := newObj()
	for range d.n(4) {
		o.set(d.pick(metaKeys), d.value(depth))
	}
	return o
}

// genNotebook returns a valid nbformat 4 notebook (nbformat_minor 5 gives
// every cell an id).
func (d *dice) genNotebook() *obj {
	nb := newObj()
	minor := []float64{0, 2, 4, 5}[d.n(4)]
	meta := newObj()
	if d.n(2) == 0 {
		ks := newObj()
		ks.set("display_name", "Python 3")
		ks.set("name", "python3")
		meta.set("kernelspec", ks)
	}
	if d.n(2) == 0 {
		li := newObj()
		li.set("name", "python")
		meta.set("language_info", li)
	}
	if d.n(2) == 0 {
		meta.set("nested", d.object(2))
	}
	for range d.n(3) {
		meta.set(d.pick(metaKeys), d.value(2))
	}
	cells := []any{}
	for i := range d.n(6) {
		cells = append(cells, d.cell(i, minor == 5))
	}
	nb.set("cells", cells)
	nb.set("metadata", meta)
	nb.set("nbformat", 4.0)
	nb.set("nbformat_minor", minor)
	shuffle(d, nb.keys)
	return nb
}

// shuffle permutes list, usually not at all (sorted keys are the common
// case).
func shuffle[T any](d *dice, list []T) {
	if d.n(3) != 0 {
		return
	}
	for i := len(list) - 1; i > 0; i-- {
		j := d.n(i + 1)
		list[i], list[j] = list[j], list[i]
	}
}

func (d *dice) cellMeta(kind string) *obj {
	m := newObj()
	switch d.n(4) {
	case 0:
		m.set("tags", []any{})
	case 1:
		m.set("tags", []any{"a", "b"})
	}
	if kind == "code" && d.n(3) == 0 {
		m.set("collapsed", d.n(2) == 0)
	}
	if kind == "raw" && d.n(3) == 0 {
		m.set("format", "text/plain")
	}
	if d.n(3) == 0 {
		m.set("nested", d.object(2))
	}
	for range d.n(3) {
		m.set(d.pick(metaKeys), d.value(2))
	}
	return m
}

func (d *dice) cell(i int, ids bool) *obj {
	kind := []string{"markdown", "code", "raw"}[d.n(3)]
	c := newObj()
	c.set("cell_type", kind)
	if kind == "code" {
		var count any
		if d.n(2) == 0 {
			count = float64(d.n(50))
		}
		c.set("execution_count", count)
	}
	if ids {
		c.set("id", fmt.Sprintf("cell-%d", i))
	}
	c.set("metadata", d.cellMeta(kind))
	if kind == "code" {
		outs := []any{}
		for range d.n(4) {
			outs = append(outs, d.output())
		}
		c.set("outputs", outs)
	}
	c.set("source", d.multiline())
	shuffle(d, c.keys)
	return c
}

func (d *dice) bundle() *obj {
	b := newObj()
	for range d.n(3) {
		switch d.n(3) {
		case 0:
			b.set("text/plain", d.multiline())
		case 1:
			b.set("text/html", d.multiline())
		default:
			b.set("application/json", d.object(1))
		}
	}
	return b
}

func (d *dice) output() *obj {
	o := newObj()
	switch d.n(4) {
	case 0:
		o.set("output_type", "stream")
		o.set("name", []string{"stdout", "stderr"}[d.n(2)])
		o.set("text", d.multiline())
	case 1:
		o.set("output_type", "display_data")
		o.set("data", d.bundle())
		o.set("metadata", newObj())
	case 2:
		o.set("output_type", "execute_result")
		o.set("execution_count", float64(d.n(50)))
		o.set("data", d.bundle())
		o.set("metadata", newObj())
	default:
		o.set("output_type", "error")
		o.set("ename", "ValueError")
		o.set("evalue", d.text())
		tb := []any{}
		for range d.n(3) {
			tb = append(tb, d.text())
		}
		o.set("traceback", tb)
	}
	slices.Sort(o.keys)
	shuffle(d, o.keys)
	return o
}

// ---- writing ----

// layout is how one container is written.
type layout struct {
	nl         string // newline; "" writes the container on one line
	unit       string // one level of indentation
	commaFirst bool   // separators put the comma at the start of the line
	pre, post  string // around a comma on one line
	colon      string
	empty      string // inside an empty container
}

// fileLayout is the layout most containers of a file share.
func (d *dice) fileLayout() layout {
	return layout{
		nl:         []string{"\n", "\r\n", "", "\n"}[d.n(4)],
		unit:       d.pick([]string{" ", "  ", "\t", "    ", ""}),
		commaFirst: d.n(3) == 0,
		pre:        d.pick([]string{"", "", " ", "\t"}),
		post:       d.pick([]string{"", " ", " ", "  "}),
		colon:      d.pick([]string{": ", ":", " : ", " :", ":\t"}),
		empty:      d.pick([]string{"", "", " ", "\n", "\r\n "}),
	}
}

// writer writes the model with a layout that varies by container.
type writer struct {
	d     *dice
	file  layout
	ascii bool // non-ASCII text escaped as \uXXXX
	buf   []byte
}

// local returns the layout of the next container: usually the file's,
// sometimes another.
func (w *writer) local() layout {
	if w.d.n(5) != 0 {
		return w.file
	}
	return w.d.fileLayout()
}

func (w *writer) ws() string { return w.d.pick([]string{"", " ", "   ", "\t", "\n", "\r\n", "\n "}) }

func (w *writer) value(v any, ind string) {
	start := len(w.buf)
	switch x := v.(type) {
	case *obj:
		w.container('{', '}', len(x.keys), ind, func(i int, l layout, ind string) {
			w.quote(x.keys[i])
			w.buf = append(w.buf, l.colon...)
			w.value(x.vals[x.keys[i]], ind)
		})
		x.raw = append([]byte(nil), w.buf[start:]...)
	case []any:
		w.container('[', ']', len(x), ind, func(i int, _ layout, ind string) { w.value(x[i], ind) })
	case string:
		w.quote(x)
	case float64:
		w.buf = strconv.AppendFloat(w.buf, x, 'g', -1, 64)
	case bool:
		w.buf = strconv.AppendBool(w.buf, x)
	case nil:
		w.buf = append(w.buf, "null"...)
	default:
		panic(fmt.Sprintf("model holds a %T", v))
	}
}

// container writes n members or elements between open and close.
func (w *writer) container(open, close byte, n int, ind string, elem func(i int, l layout, ind string)) {
	l := w.local()
	odd := w.d.n(6) == 0 // whitespace drawn at random around everything
	w.buf = append(w.buf, open)
	if n == 0 {
		if odd {
			w.buf = append(w.buf, w.ws()...)
		} else {
			w.buf = append(w.buf, l.empty...)
		}
		w.buf = append(w.buf, close)
		return
	}
	inner := ind + l.unit
	for i := range n {
		switch {
		case odd && i == 0:
			w.buf = append(w.buf, w.ws()...)
		case odd:
			w.buf = append(w.buf, w.ws()...)
			w.buf = append(w.buf, ',')
			w.buf = append(w.buf, w.ws()...)
		case l.nl == "" && i > 0:
			w.buf = append(w.buf, l.pre...)
			w.buf = append(w.buf, ',')
			w.buf = append(w.buf, l.post...)
		case l.nl == "":
		case l.commaFirst && i > 0:
			w.buf = append(w.buf, l.nl...)
			w.buf = append(w.buf, ind...)
			w.buf = append(w.buf, ',')
			w.buf = append(w.buf, l.post...)
		case l.commaFirst:
			w.buf = append(w.buf, l.nl...)
			w.buf = append(w.buf, inner...)
		default:
			if i > 0 {
				w.buf = append(w.buf, l.pre...)
				w.buf = append(w.buf, ',')
			}
			w.buf = append(w.buf, l.nl...)
			w.buf = append(w.buf, inner...)
		}
		elem(i, l, inner)
	}
	switch {
	case odd:
		w.buf = append(w.buf, w.ws()...)
	case l.nl != "":
		w.buf = append(w.buf, l.nl...)
		w.buf = append(w.buf, ind...)
	}
	w.buf = append(w.buf, close)
}

// quote writes s as a JSON string.
func (w *writer) quote(s string) {
	w.buf = append(w.buf, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.buf = append(w.buf, '\\', byte(r))
		case r == '\n':
			w.buf = append(w.buf, `\n`...)
		case r == '\r':
			w.buf = append(w.buf, `\r`...)
		case r == '\t':
			w.buf = append(w.buf, `\t`...)
		case r < 0x20 || w.ascii && r >= 0x80:
			if r >= 0x10000 {
				r -= 0x10000
				w.buf = fmt.Appendf(w.buf, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				w.buf = fmt.Appendf(w.buf, `\u%04x`, r)
			}
		default:
			w.buf = utf8.AppendRune(w.buf, r)
		}
	}
	w.buf = append(w.buf, '"')
}

// genFile returns a notebook model, the bytes it is written as and how
// much of data it used.
func genFile(data []byte) (*obj, []byte, int) {
	d := &dice{data: data}
	nb := d.genNotebook()
	w := &writer{d: d, file: d.fileLayout(), ascii: d.n(4) == 0}
	w.buf = append(w.buf, w.ws()...)
	w.value(nb, "")
	w.buf = append(w.buf, w.file.nl...)
	return nb, w.buf, d.i
}
