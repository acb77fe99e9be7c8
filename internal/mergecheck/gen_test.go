package mergecheck

// Notebooks the merge property test starts from: synthetic ones of several
// shapes and versions, and real ones from testdata and the corpus.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The generator's notebooks: a tree (see json_test.go) and the style it is
// written in. Every cell's text begins with a line holding the cell's
// token («b3» for base's cell 3, «o1»/«t1» for cells ours/theirs
// inserted), which edits never change: the checker finds cells by it.

type doc struct {
	nb *obj
	st style
}

func (d *doc) clone() *doc { return &doc{clone(d.nb).(*obj), d.st} }

func (d *doc) bytes() []byte { return d.st.write(d.nb) }

func (d *doc) major() int { return number(d.nb.vals["nbformat"]) }
func (d *doc) minor() int { return number(d.nb.vals["nbformat_minor"]) }

// cells returns the cell list (a version 3 notebook's first worksheet's).
func (d *doc) cells() []any {
	if d.major() == 3 {
		ws, _ := d.nb.vals["worksheets"].([]any)
		if len(ws) == 0 {
			return nil
		}
		cs, _ := ws[0].(*obj).vals["cells"].([]any)
		return cs
	}
	cs, _ := d.nb.vals["cells"].([]any)
	return cs
}

func (d *doc) setCells(cs []any) {
	if cs == nil {
		cs = []any{}
	}
	if d.major() == 3 {
		d.nb.vals["worksheets"].([]any)[0].(*obj).set("cells", cs)
		return
	}
	d.nb.set("cells", cs)
}

// find returns the index of the cell with token tok, or -1.
func (d *doc) find(tok string) int {
	for i, c := range d.cells() {
		if m := tokenRe.FindStringSubmatch(cellText(c.(*obj), d.major())); m != nil && m[1] == tok {
			return i
		}
	}
	return -1
}

func (d *doc) tokens() []string {
	var ts []string
	for _, c := range d.cells() {
		if m := tokenRe.FindStringSubmatch(cellText(c.(*obj), d.major())); m != nil {
			ts = append(ts, m[1])
		}
	}
	return ts
}

func cellText(c *obj, major int) string {
	s, _ := joined(c.vals[textMember(c, major)])
	return s
}

// setText sets a cell's text, split into lines as Jupyter does unless
// the cell holds it as one string.
func setText(c *obj, major int, text string) {
	m := textMember(c, major)
	if _, one := c.vals[m].(string); one {
		c.set(m, text)
		return
	}
	c.set(m, splitLines(text))
}

func splitLines(text string) []any {
	ls := []any{}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

func num(n int) json.Number { return json.Number(fmt.Sprint(n)) }

// kindOf is a cell's kind: code, markdown, raw, heading (version 3) or
// prompt (a markdown cell with metadata.solveit_ai true).
func kindOf(c *obj) string {
	k := str(c.vals["cell_type"])
	if k == "markdown" {
		if v, _ := at(c, "/metadata/solveit_ai"); v == true {
			return "prompt"
		}
	}
	return k
}

// lone is a string holding the lone surrogate escape u (see markLone).
func lone(u int) string { return fmt.Sprintf("%c%04x", sentinel, u) }

// makeCell makes a new cell of a kind (prompt: a Solveit prompt), with
// token tok, its contents drawn from r.
func makeCell(r *rand.Rand, kind, tok string, major, minor int) *obj {
	c := newObj()
	if major == 4 && minor >= 5 {
		c.set("id", fmt.Sprintf("%06x%s", r.Uint32()&0xffffff, tok))
	}
	ct := kind
	if kind == "prompt" {
		ct = "markdown"
	}
	if major == 3 && kind == "raw" && r.IntN(2) == 0 {
		ct = "heading"
	}
	c.set("cell_type", ct)
	text := "«" + tok + "»"
	for i := range r.IntN(4) {
		text += fmt.Sprintf("\n%s.%d %s", tok, i+1, []string{"text", "x = 1", "# title", "- item"}[r.IntN(4)])
	}
	if r.IntN(8) == 0 {
		text += "\n" + tok + ".s lone " + lone(0xd83d)
	}
	if kind == "prompt" {
		text += separator + tok + ".r1 answer"
		if r.IntN(2) == 0 {
			text += "\n" + tok + ".r2 more"
		}
	}
	if major == 3 && ct == "code" {
		c.set("collapsed", false)
		c.set("input", splitLines(text))
		c.set("language", "python")
	} else if r.IntN(4) == 0 {
		c.set("source", text)
	} else {
		c.set("source", splitLines(text))
	}
	if ct == "heading" {
		c.set("level", num(1+r.IntN(3)))
	}
	c.set("metadata", makeCellMeta(r, kind, tok))
	switch {
	case ct == "code" && major == 3:
		c.set("outputs", makeOutputs(r, tok, major))
		if r.IntN(2) == 0 {
			c.set("prompt_number", num(1+r.IntN(30)))
		}
	case ct == "code":
		if r.IntN(3) == 0 {
			c.set("execution_count", nil)
		} else {
			c.set("execution_count", num(1+r.IntN(30)))
		}
		c.set("outputs", makeOutputs(r, tok, major))
	case major == 4 && (ct == "markdown" || ct == "raw") && r.IntN(3) == 0:
		c.set("attachments", newObj(tok+".png", newObj("image/png", b64(tok))))
	}
	return c
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte("png:" + s)) }

func makeCellMeta(r *rand.Rand, kind, tok string) *obj {
	m := newObj()
	if kind == "prompt" {
		m.set("solveit_ai", true)
	}
	if r.IntN(3) == 0 {
		m.set("tags", []any{"t-" + tok, "shared"})
	}
	if r.IntN(3) == 0 {
		m.set("colab", newObj("base_uri", "https://localhost:8080/", "height", num(100+r.IntN(300))))
	}
	if r.IntN(4) == 0 {
		m.set("deep", newObj("a", newObj("b", newObj("c", num(r.IntN(9)), "d", []any{num(1), "two"}))))
	}
	if r.IntN(5) == 0 {
		m.set("collapsed", r.IntN(2) == 0)
	}
	if r.IntN(8) == 0 {
		m.set("note", "lone "+lone(0xdc00+r.IntN(256)))
	}
	return m
}

func makeOutputs(r *rand.Rand, tok string, major int) []any {
	outs := []any{}
	for i := range r.IntN(3) {
		outs = append(outs, makeOutput(r.IntN(5), fmt.Sprintf("%s.out%d", tok, i), major, 1+r.IntN(30)))
	}
	return outs
}

// makeOutput makes an output of a kind (0 stream, 1 result, 2 display
// with an image, 3 error, 4 JSON data) showing text.
func makeOutput(kind int, text string, major, count int) *obj {
	if major == 3 {
		switch kind {
		case 0, 4:
			return newObj("output_type", "stream", "stream", "stdout", "text", []any{text + "\n"})
		case 1:
			return newObj("metadata", newObj(), "output_type", "pyout", "prompt_number", num(count), "text", []any{"'" + text + "'"})
		case 2:
			return newObj("metadata", newObj(), "output_type", "display_data", "png", b64(text), "text", []any{"<" + text + ">"})
		}
		return newObj("ename", "ValueError", "evalue", text, "output_type", "pyerr", "traceback", []any{"Traceback", text})
	}
	switch kind {
	case 0:
		return newObj("name", "stdout", "output_type", "stream", "text", []any{text + "\n"})
	case 1:
		return newObj("data", newObj("text/plain", []any{"'" + text + "'"}), "execution_count", num(count), "metadata", newObj(), "output_type", "execute_result")
	case 2:
		return newObj("data", newObj("image/png", b64(text), "text/plain", []any{"<" + text + ">"}), "metadata", newObj("image/png", newObj("width", num(10))), "output_type", "display_data")
	case 3:
		return newObj("ename", "ValueError", "evalue", text, "output_type", "error", "traceback", []any{"Traceback", text})
	}
	return newObj("data", newObj("application/json", newObj("v", text, "n", []any{num(1), json.Number("2.5"), nil})), "metadata", newObj(), "output_type", "display_data")
}

// The shapes of synthetic base notebooks.
var shapes = []string{"mixed", "dialog", "code", "tiny", "empty", "colab", "meta"}

// synthBase makes a base notebook of a shape in version major.minor.
func synthBase(r *rand.Rand, shape string, major, minor int) *doc {
	n := 2 + r.IntN(6)
	kinds := []string{"markdown", "code", "raw", "prompt"}
	switch shape {
	case "dialog":
		kinds = []string{"prompt", "prompt", "code", "markdown"}
	case "code":
		kinds = []string{"code", "code", "code", "markdown"}
	case "tiny":
		n = 1
	case "empty":
		n = 0
	}
	if major == 3 {
		kinds = []string{"markdown", "code", "raw"}
	}
	meta := newObj("kernelspec", newObj("display_name", "Python 3", "language", "python", "name", "python3"))
	if r.IntN(2) == 0 {
		meta.set("language_info", newObj("codemirror_mode", newObj("name", "ipython", "version", num(3)), "name", "python", "version", "3.11.4"))
	}
	switch shape {
	case "dialog":
		meta.set("solveit_dialog_mode", "learning")
		meta.set("solveit_ver", num(2))
	case "colab":
		meta.set("colab", newObj("provenance", []any{}, "name", "nb.ipynb"))
	case "meta":
		meta.set("deep", newObj("x", newObj("y", newObj("z", num(1), "w", "lone "+lone(0xd800)))))
	}
	var cells []any
	for i := range n {
		cells = append(cells, makeCell(r, kinds[r.IntN(len(kinds))], fmt.Sprintf("b%d", i), major, minor))
	}
	if cells == nil {
		cells = []any{}
	}
	d := &doc{st: jupyterStyle}
	if major == 3 {
		meta.set("name", "nb")
		d.nb = newObj("metadata", meta, "nbformat", num(3), "nbformat_minor", num(0), "worksheets", []any{newObj("cells", cells, "metadata", newObj())})
		return d
	}
	d.nb = newObj("cells", cells, "metadata", meta, "nbformat", num(4), "nbformat_minor", num(minor))
	if shape == "colab" {
		d.nb = newObj("nbformat", num(4), "nbformat_minor", num(minor), "metadata", meta, "cells", cells)
		d.st = colabStyle
	} else if r.IntN(3) == 0 {
		d.st = styles[r.IntN(len(styles))]
	}
	return d
}

// A realBase is a notebook file to start cases from.
type realBase struct {
	name string
	data []byte
}

// realBases lists testdata's notebooks and, when ../shared/corpus is
// there, every every-th of its schema-valid notebooks (all: every 1).
func realBases(every int) []realBase {
	var bs []realBase
	names, _ := filepath.Glob("../../testdata/*.ipynb")
	corpus := "../../../shared/corpus"
	if man, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.tsv")); err == nil {
		for i, row := range strings.Split(string(man), "\n")[1:] {
			c := strings.Split(row, "\t")
			if len(c) == 7 && c[6] == "valid" && i%every == 0 {
				names = append(names, filepath.Join(corpus, c[0]))
			}
		}
	}
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil && len(data) < 2<<20 {
			bs = append(bs, realBase{strings.TrimPrefix(n, "../../"), data})
		}
	}
	return bs
}

// fromReal makes a base from a real notebook: its first cells (at most
// 8), each given a token line, in version 4.5 or 4.4 as r decides; nil
// if the notebook does not suit (not version 4, or 3 when v3 is off;
// invalid; too big).
func fromReal(r *rand.Rand, b realBase, v3 bool) *doc {
	p := parsedReal(b)
	if p == nil {
		return nil
	}
	d := p.clone()
	if major := d.major(); major != 4 && !(major == 3 && v3) {
		return nil
	}
	cs := d.cells()
	cs = cs[:min(len(cs), 8)]
	minor := d.minor()
	if d.major() == 4 && r.IntN(3) == 0 {
		minor = []int{4, 5}[r.IntN(2)]
		d.nb.set("nbformat_minor", num(minor))
	}
	for i, c := range cs {
		c := c.(*obj)
		setText(c, d.major(), fmt.Sprintf("«b%d»\n", i)+cellText(c, d.major()))
		if d.major() == 4 && minor < 5 {
			c.del("id")
		} else if _, ok := c.get("id"); !ok && d.major() == 4 {
			c.set("id", fmt.Sprintf("id-b%d", i))
		}
	}
	d.setCells(cs)
	data := d.bytes()
	if len(data) > 256<<10 || validNotebook(data) != nil {
		return nil
	}
	return d
}

// parsed holds the real notebooks read so far (nil: not a valid one),
// their first 8 cells only.
var parsed = struct {
	sync.Mutex
	m map[string]*doc
}{m: map[string]*doc{}}

func parsedReal(b realBase) *doc {
	parsed.Lock()
	defer parsed.Unlock()
	if d, ok := parsed.m[b.name]; ok {
		return d
	}
	v, err := parseJSON(b.data)
	nb, ok := v.(*obj)
	var d *doc
	if err == nil && ok && validNotebook(b.data) == nil {
		d = &doc{nb: nb, st: detectStyle(b.data)}
		cs := d.cells()
		d.setCells(cs[:min(len(cs), 8)])
	}
	parsed.m[b.name] = d
	return d
}

// detectStyle guesses the style a file is written in.
func detectStyle(data []byte) style {
	s := style{sorted: true, noNL: len(data) == 0 || data[len(data)-1] != '\n'}
	if i := strings.IndexByte(string(data), '\n'); i >= 0 && i+1 < len(data) {
		rest := string(data[i+1:])
		s.indent = rest[:len(rest)-len(strings.TrimLeft(rest, " "))]
	}
	if strings.Contains(string(data), `\u00`) {
		s.ascii = true
	}
	v, err := parseJSON(data)
	if o, ok := v.(*obj); ok && err == nil && len(o.keys) > 0 && o.keys[0] != "cells" {
		s.sorted = false
	}
	return s
}
