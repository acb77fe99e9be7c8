package nbformat_test

// A property test of the writer on edits of notebooks with odd layouts: what
// the edits did not touch is written as read.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzEditLayout checks the writer on edits of notebooks with odd layouts
// (see editprop_gen_test.go): for any notebook the input generates and
// any edits it chooses (set a cell's source, replace a cell by a new one,
// insert or remove cells and outputs, set or delete metadata keys of the
// notebook and of cells, empty the outputs or the cells), the bytes
// written are JSON, read back (by encoding/json) as the model edited the
// same way, read and write again unchanged, and keep byte for byte every
// cell, output and notebook metadata the edits did not touch. Interesting
// inputs are kept in testdata/fuzz/FuzzEditLayout.
func FuzzEditLayout(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 16 {
		f.Add(randomBytes(r, 1000))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkEditLayout(t, data) })
}

// TestEditLayoutProperty runs the checks of FuzzEditLayout on generated
// inputs (fewer with -short).
func TestEditLayoutProperty(t *testing.T) {
	t.Parallel()
	n := 4000
	if !testtier.Full() {
		n = 400
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		data := randomBytes(r, 1000)
		checkEditLayout(t, data)
		if t.Failed() {
			t.Fatalf("input %d: %q (add it to testdata/fuzz/FuzzEditLayout)", i, data)
		}
	}
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// editRun is one notebook being edited, read by the package (nb) and held
// as a model (m), with the dice that choose the edits.
type editRun struct {
	t     testing.TB
	d     *dice
	nb    *nbformat.Notebook
	m     *obj
	ids   bool     // nbformat 4.5: new cells have ids
	edits []string // what was done, for failure messages
}

func checkEditLayout(t testing.TB, data []byte) {
	m, in, used := genFile(data)
	if !json.Valid(in) {
		t.Fatalf("the generator wrote invalid JSON:\n%s", in)
	}
	nb, err := nbformat.Unmarshal(in)
	if err != nil {
		t.Fatalf("Unmarshal: %v\n%s", err, in)
	}
	if out, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("unedited round trip: %v\n%q\n%q", err, in, out)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Fatalf("the generator wrote an invalid notebook: %v\n%s", err, in)
	}
	d := &dice{data: data, i: used}
	r := &editRun{t: t, d: d, nb: nb, m: m, ids: m.get("nbformat_minor") == 5.0}
	for range 1 + d.n(4) {
		r.edit()
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatalf("Marshal after %q: %v\n%s", r.edits, err, in)
	}
	if !json.Valid(out) {
		t.Fatalf("after %q the output is not JSON:\n%s\nfrom\n%s", r.edits, out, in)
	}
	var got any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(joinMultiline(plain(m), ""), joinMultiline(got, "")); diff != "" {
		t.Fatalf("after %q the output reads differently (-want +got):\n%s\noutput:\n%s\ninput:\n%s", r.edits, diff, out, in)
	}
	r.checkKept(in, out)
	back, err := nbformat.Unmarshal(out)
	if err != nil {
		t.Fatalf("after %q the output does not read: %v\n%s", r.edits, err, out)
	}
	if again, err := nbformat.Marshal(back); err != nil || !bytes.Equal(again, out) {
		t.Fatalf("after %q the output does not round-trip: %v", r.edits, err)
	}
	if err := nbformat.Validate(back); err != nil {
		t.Fatalf("after %q the output is not a valid notebook: %v\n%s", r.edits, err, out)
	}
}

// checkKept checks that what the edits did not touch is written as read.
func (r *editRun) checkKept(in, out []byte) {
	t := r.t
	var doc struct {
		Cells    []json.RawMessage `json:"cells"`
		Metadata json.RawMessage   `json:"metadata"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if meta := r.m.get("metadata").(*obj); !meta.touched && !bytes.Equal(meta.raw, doc.Metadata) {
		t.Fatalf("after %q the notebook metadata changed: %s → %s\ninput:\n%s", r.edits, meta.raw, doc.Metadata, in)
	}
	for i, c := range r.cells() {
		c := c.(*obj)
		if c.raw == nil {
			continue // new
		}
		if !c.touched {
			if !bytes.Equal(c.raw, doc.Cells[i]) {
				t.Fatalf("after %q the unedited cell %d changed:\n%s\n→\n%s\ninput:\n%s", r.edits, i, c.raw, doc.Cells[i], in)
			}
			continue
		}
		var cell struct {
			Metadata json.RawMessage   `json:"metadata"`
			Outputs  []json.RawMessage `json:"outputs"`
		}
		if err := json.Unmarshal(doc.Cells[i], &cell); err != nil {
			t.Fatal(err)
		}
		if meta := c.get("metadata").(*obj); meta.raw != nil && !meta.touched && !bytes.Equal(meta.raw, cell.Metadata) {
			t.Fatalf("after %q the unedited metadata of cell %d changed: %s → %s\ninput:\n%s", r.edits, i, meta.raw, cell.Metadata, in)
		}
		outs, _ := c.get("outputs").([]any)
		for j, o := range outs {
			if o := o.(*obj); o.raw != nil && !o.touched && !bytes.Equal(o.raw, cell.Outputs[j]) {
				t.Fatalf("after %q the unedited output %d of cell %d changed:\n%s\n→\n%s\ninput:\n%s", r.edits, j, i, o.raw, cell.Outputs[j], in)
			}
		}
	}
}

func (r *editRun) cells() []any { return r.m.get("cells").([]any) }

// edit applies one edit, chosen by the dice, to the notebook and the model.
func (r *editRun) edit() {
	cells := r.cells()
	n := len(cells)
	d := r.d
	i := d.n(max(n, 1))
	switch op := d.n(16); {
	case op == 0 && n > 0:
		text := d.text()
		r.note("set the source of cell %d to %q", i, text)
		c := r.nb.Cells[i]
		s := nbformat.SourceOf(c)
		s.Set(text)
		switch c := c.(type) {
		case *nbformat.CodeCell:
			c.Source = s
		case *nbformat.MarkdownCell:
			c.Source = s
		case *nbformat.RawCell:
			c.Source = s
		}
		r.touch(cells[i]).set("source", text)
	case op == 1 && n > 0:
		c, mc := r.newCell()
		r.note("replace cell %d by a new %s cell", i, c.Type())
		r.nb.Cells[i] = c
		cells[i] = mc
	case op == 2:
		i = d.n(n + 1)
		c, mc := r.newCell()
		r.note("insert a new %s cell at %d", c.Type(), i)
		r.nb.Cells = slices.Insert(slices.Clone(r.nb.Cells), i, c)
		r.m.set("cells", slices.Insert(cells, i, any(mc)))
	case op == 3 && n > 0:
		r.note("remove cell %d", i)
		r.nb.Cells = slices.Delete(slices.Clone(r.nb.Cells), i, i+1)
		r.m.set("cells", slices.Delete(cells, i, i+1))
	case op == 4 || op == 5:
		c, mc, ok := r.codeCell(i)
		if !ok {
			return
		}
		outs := mc.get("outputs").([]any)
		if op == 5 && len(outs) > 0 {
			j := d.n(len(outs))
			r.note("remove output %d of cell %d", j, i)
			c.Outputs = slices.Delete(slices.Clone(c.Outputs), j, j+1)
			r.touch(mc).set("outputs", slices.Delete(outs, j, j+1))
			return
		}
		name, text := []string{"stdout", "stderr"}[d.n(2)], d.text()
		r.note("add a %s output %q to cell %d", name, text, i)
		c.Outputs = append(slices.Clone(c.Outputs), nbformat.NewStream(name, text))
		o := newObj()
		o.set("name", name)
		o.set("output_type", "stream")
		o.set("text", text)
		r.touch(mc).set("outputs", append(outs, o))
	case op == 6:
		c, mc, ok := r.codeCell(i)
		if !ok {
			return
		}
		r.note("empty the outputs of cell %d", i)
		c.Outputs = []nbformat.Output{}
		r.touch(mc).set("outputs", []any{})
	case op == 7 || op == 8:
		key, v := d.pick(metaKeys), d.value(2)
		r.note("set notebook metadata %q to %v", key, plain(v))
		if r.nb.Metadata.AdditionalProperties == nil {
			r.nb.Metadata.AdditionalProperties = map[string]any{}
		}
		r.nb.Metadata.AdditionalProperties[key] = plain(v)
		r.touch(r.m.get("metadata")).set(key, v)
	case op == 9 && n > 0:
		key, v := d.pick(metaKeys), d.value(2)
		r.note("set metadata %q of cell %d to %v", key, i, plain(v))
		extra := cellExtra(r.nb.Cells[i])
		if *extra == nil {
			*extra = map[string]any{}
		}
		(*extra)[key] = plain(v)
		r.touch(cells[i])
		r.touch(cells[i].(*obj).get("metadata")).set(key, v)
	case op == 10:
		key := d.pick(metaKeys)
		if n > 0 && d.n(2) == 0 {
			r.note("delete metadata %q of cell %d", key, i)
			delete(*cellExtra(r.nb.Cells[i]), key)
			r.touch(cells[i])
			r.touch(cells[i].(*obj).get("metadata")).del(key)
			return
		}
		r.note("delete notebook metadata %q", key)
		delete(r.nb.Metadata.AdditionalProperties, key)
		r.touch(r.m.get("metadata")).del(key)
	case op == 12:
		r.editOutput(i)
	case op == 13 && n > 0:
		tags := []string{"a", "b", "c"}[:d.n(3)]
		r.note("set the tags of cell %d to %q", i, tags)
		list := []any{}
		for _, tag := range tags {
			list = append(list, tag)
		}
		switch c := r.nb.Cells[i].(type) {
		case *nbformat.CodeCell:
			c.Metadata.Tags = slices.Clone(tags)
		case *nbformat.MarkdownCell:
			c.Metadata.Tags = slices.Clone(tags)
		case *nbformat.RawCell:
			c.Metadata.Tags = slices.Clone(tags)
		}
		r.touch(cells[i])
		r.touch(cells[i].(*obj).get("metadata")).set("tags", list)
	case op == 14:
		title := d.text()
		r.note("set the notebook title to %q", title)
		r.nb.Metadata.Title = &title
		r.touch(r.m.get("metadata")).set("title", title)
	case op == 15:
		r.editNested(i)
	case op == 11 && d.n(4) == 0:
		r.note("empty the cells")
		r.nb.Cells = []nbformat.Cell{}
		r.m.set("cells", []any{})
	}
}

// editNested sets or deletes a key inside an object that is the value of
// a metadata key (of the notebook, or of cell i), the way a caller edits
// metadata the package keeps as JSON text: decode, change, set back.
func (r *editRun) editNested(i int) {
	d := r.d
	meta, extra, where := r.m.get("metadata").(*obj), &r.nb.Metadata.AdditionalProperties, "the notebook"
	if cells := r.cells(); len(cells) > 0 && d.n(2) == 0 {
		meta, extra, where = cells[i].(*obj).get("metadata").(*obj), cellExtra(r.nb.Cells[i]), fmt.Sprintf("cell %d", i)
	}
	var key string
	for _, k := range meta.keys {
		if _, isObj := meta.get(k).(*obj); isObj && k != "kernelspec" && k != "language_info" {
			key = k
		}
	}
	if key == "" {
		return
	}
	var m map[string]any
	switch x := (*extra)[key].(type) {
	case json.RawMessage: // as read
		if err := json.Unmarshal(x, &m); err != nil {
			r.t.Fatal(err)
		}
	case map[string]any: // set by an earlier edit
		m = x
	default:
		r.t.Fatalf("metadata %q of %s is kept as %T", key, where, x)
	}
	if where != "the notebook" {
		r.touch(r.cells()[i])
	}
	r.touch(meta)
	nested := r.touch(meta.get(key))
	inner := d.pick(metaKeys)
	if d.n(3) == 0 {
		r.note("delete %q inside metadata %q of %s", inner, key, where)
		delete(m, inner)
		nested.del(inner)
	} else {
		v := d.value(2)
		r.note("set %q inside metadata %q of %s to %v", inner, key, where, plain(v))
		m[inner] = plain(v)
		nested.set(inner, v)
	}
	(*extra)[key] = m
}

// editOutput changes an output of code cell i (or a later one) in place:
// a stream's text, an entry of a mime bundle, an error's value.
func (r *editRun) editOutput(i int) {
	c, mc, ok := r.codeCell(i)
	if !ok || len(c.Outputs) == 0 {
		return
	}
	d := r.d
	j := d.n(len(c.Outputs))
	r.touch(mc)
	mo := r.touch(mc.get("outputs").([]any)[j])
	text := d.text()
	switch o := c.Outputs[j].(type) {
	case *nbformat.Stream:
		r.note("set the text of output %d of cell %d to %q", j, i, text)
		o.Text.Set(text)
		mo.set("text", text)
	case *nbformat.ErrorOutput:
		r.note("set the evalue of output %d of cell %d to %q", j, i, text)
		o.Evalue = text
		mo.set("evalue", text)
	case *nbformat.ExecuteResult:
		r.editBundle(&o.Data, r.touch(mo.get("data")), i, j, text)
	case *nbformat.DisplayData:
		r.editBundle(&o.Data, r.touch(mo.get("data")), i, j, text)
	default:
		r.t.Fatalf("a generated notebook holds a %T", o)
	}
}

func (r *editRun) editBundle(b *nbformat.MimeBundle, mb *obj, i, j int, text string) {
	mime := r.d.pick([]string{"text/plain", "text/html", "application/json", "text/markdown"})
	switch r.d.n(3) {
	case 0:
		r.note("delete %s of output %d of cell %d", mime, j, i)
		b.Delete(mime)
		mb.del(mime)
	case 1:
		if mime == "application/json" {
			v := newObj()
			v.set(r.d.pick(metaKeys), r.d.value(2))
			r.note("set %s of output %d of cell %d to %v", mime, j, i, plain(v))
			if err := b.SetJSON(mime, plain(v)); err != nil {
				r.t.Fatal(err)
			}
			mb.set(mime, v)
			return
		}
		fallthrough
	default:
		if mime == "application/json" {
			mime = "text/plain"
		}
		r.note("set %s of output %d of cell %d to %q", mime, j, i, text)
		b.SetText(mime, text)
		mb.set(mime, text)
	}
}

func (r *editRun) note(format string, args ...any) {
	r.edits = append(r.edits, fmt.Sprintf(format, args...))
}

// touch marks a model object edited and returns it.
func (r *editRun) touch(v any) *obj {
	o := v.(*obj)
	o.touched = true
	return o
}

// codeCell returns code cell i (or the first code cell after it).
func (r *editRun) codeCell(i int) (*nbformat.CodeCell, *obj, bool) {
	for k := range r.nb.Cells {
		j := (i + k) % len(r.nb.Cells)
		if c, ok := r.nb.Cells[j].(*nbformat.CodeCell); ok {
			return c, r.cells()[j].(*obj), true
		}
	}
	return nil, nil, false
}

// newCell returns a new cell made by the package's constructor, and the
// model of what it must be written as.
func (r *editRun) newCell() (nbformat.Cell, *obj) {
	kind, text := []string{"markdown", "code", "raw"}[r.d.n(3)], r.d.text()
	var c nbformat.Cell
	switch kind {
	case "code":
		c = nbformat.NewCodeCell(text)
	case "markdown":
		c = nbformat.NewMarkdownCell(text)
	default:
		c = nbformat.NewRawCell(text)
	}
	m := newObj()
	m.set("cell_type", kind)
	if kind == "code" {
		m.set("execution_count", nil)
		m.set("outputs", []any{})
	}
	if r.ids {
		m.set("id", string(nbformat.CellIDOf(c)))
	} else {
		nbformat.SetCellID(c, "")
	}
	m.set("metadata", newObj())
	m.set("source", text)
	m.touched = true
	return c, m
}

// cellExtra returns the AdditionalProperties of a cell's metadata.
func cellExtra(c nbformat.Cell) *map[string]any {
	switch c := c.(type) {
	case *nbformat.CodeCell:
		return &c.Metadata.AdditionalProperties
	case *nbformat.MarkdownCell:
		return &c.Metadata.AdditionalProperties
	case *nbformat.RawCell:
		return &c.Metadata.AdditionalProperties
	}
	panic(fmt.Sprintf("a generated notebook holds a %T", c))
}
