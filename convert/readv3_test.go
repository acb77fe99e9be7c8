package convert_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// The version 2 and 3 notebooks of the tests that compare reading them
// directly with reading their upgrade: the corpus's, the project's
// testdata, and generated ones (v3Shapes).
func v3Inputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	for name, data := range v3Shapes() {
		in["generated: "+name] = data
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if nb, err := nbformat.Unmarshal(data); err == nil && nb.Nbformat < 4 {
			in[p] = data
		}
	}
	for e, data := range corpus.Files(t) {
		if nb, err := nbformat.Unmarshal(data); err == nil && nb.Nbformat < 4 {
			in[e.Path] = data
		}
	}
	return in
}

// v3Cells are cells of the shapes version 2 and 3 notebooks hold, odd
// ones included, each a JSON object (cell_type first, for the names).
var v3Cells = []string{
	// Code: input as a string, as lines (with and without their line
	// breaks, escaped ones, a first line ending in "\r" or in an escaped
	// backslash and an "n"), missing, of other types.
	`{"cell_type": "code", "collapsed": false, "input": "x = 1\ny = 2", "language": "python", "metadata": {}, "outputs": [], "prompt_number": 1}`,
	`{"cell_type": "code", "collapsed": true, "input": ["a = 1\n", "b = \"\\u00e9\\t\"\n", "c"], "language": "python", "metadata": {}, "outputs": []}`,
	`{"cell_type": "code", "input": ["no breaks", "here"], "metadata": {}, "outputs": [], "prompt_number": null}`,
	`{"cell_type": "code", "input": ["cr\r", "next"], "outputs": []}`,
	`{"cell_type": "code", "input": ["slash\\n", "next"], "outputs": []}`,
	`{"cell_type": "code", "input": [], "outputs": []}`,
	`{"cell_type": "code", "metadata": {}, "outputs": []}`,
	`{"cell_type": "code", "input": 3, "outputs": []}`,
	`{"cell_type": "code", "input": ["a", 1], "outputs": []}`,
	`{"cell_type": "code", "input": "x", "source": "ignored", "execution_count": 5, "id": "given", "outputs": []}`,
	// Code: prompt numbers and collapsed of every type.
	`{"cell_type": "code", "input": "x", "prompt_number": 1.5, "outputs": []}`,
	`{"cell_type": "code", "input": "x", "prompt_number": "2", "outputs": []}`,
	`{"cell_type": "code", "input": "x", "prompt_number": 123456789012345678901234567890, "outputs": []}`,
	`{"cell_type": "code", "input": "x", "prompt_number": -0, "outputs": []}`,
	`{"cell_type": "code", "input": "x", "collapsed": "yes", "outputs": []}`,
	`{"cell_type": "code", "input": "x", "collapsed": true, "metadata": {"collapsed": false, "scrolled": true}, "outputs": []}`,
	// Code: outputs of every version 3 type and odd ones.
	`{"cell_type": "code", "input": "1", "language": "python", "metadata": {}, "outputs": [{"output_type": "pyout", "prompt_number": 1, "text": ["1"], "html": "<b>1</b>", "png": "iVBORw0KGgo=", "metadata": {"png": {"width": 10}}}], "prompt_number": 1}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "pyout", "text": "no count"}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "pyerr", "ename": "ValueError", "evalue": "bad", "traceback": ["line 1", "line 2"]}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "stream", "stream": "stderr", "text": ["err\n", "more"]}, {"output_type": "stream", "text": "no name"}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "display_data", "svg": "<svg/>", "jpeg": "abc", "latex": ["$x$"], "javascript": "f()", "text": "t"}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "display_data", "json": "{\"a\": [1, 2]}", "text": "j"}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "execute_result", "data": {"text/plain": "v4 in v3"}, "metadata": {}, "execution_count": 1}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"output_type": "unknown", "x": 1}]}`,
	`{"cell_type": "code", "input": "1", "outputs": [{"text": "no type"}]}`,
	`{"cell_type": "code", "input": "1", "outputs": ["not an object"]}`,
	`{"cell_type": "code", "input": "1", "outputs": {"not": "a list"}}`,
	// Markdown, html, raw: sources of every form.
	`{"cell_type": "markdown", "metadata": {}, "source": "Some *text*"}`,
	`{"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "\n", "text"]}`,
	`{"cell_type": "markdown", "source": ["lines", "without", "breaks"]}`,
	`{"cell_type": "markdown", "source": []}`,
	`{"cell_type": "markdown", "metadata": {}}`,
	`{"cell_type": "markdown", "source": 7}`,
	`{"cell_type": "markdown", "source": "rendered", "rendered": ["<p>", "x</p>"]}`,
	`{"cell_type": "markdown", "source": "att", "attachments": {"a.png": {"image/png": "iVBORw0KGgo="}}}`,
	`{"cell_type": "html", "metadata": {}, "source": "<p>html</p>"}`,
	`{"cell_type": "raw", "metadata": {"format": "text/latex"}, "source": ["raw\n", "text"]}`,
	`{"cell_type": "raw", "source": "no metadata"}`,
	// Headings of every level, sources of every form.
	`{"cell_type": "heading", "level": 1, "metadata": {}, "source": "Title"}`,
	`{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Two ", "parts"]}`,
	`{"cell_type": "heading", "level": 3, "metadata": {}, "source": "Line one\nline two\r\nthree\u2028four"}`,
	`{"cell_type": "heading", "level": 4, "source": ["a\n", "b"]}`,
	`{"cell_type": "heading", "level": 5, "source": ""}`,
	`{"cell_type": "heading", "level": 6, "source": "Six"}`,
	`{"cell_type": "heading", "level": 0, "source": "Zero"}`,
	`{"cell_type": "heading", "level": -2, "source": "Negative"}`,
	`{"cell_type": "heading", "level": 7, "source": "Seven"}`,
	`{"cell_type": "heading", "level": 64, "source": "Deep"}`,
	`{"cell_type": "heading", "level": 65, "source": "Deeper"}`,
	`{"cell_type": "heading", "level": 2.0, "source": "Float"}`,
	`{"cell_type": "heading", "level": "3", "source": "String"}`,
	`{"cell_type": "heading", "level": null, "source": "Null"}`,
	`{"cell_type": "heading", "source": "No level"}`,
	`{"cell_type": "heading", "level": 2, "source": 5}`,
	`{"cell_type": "heading", "level": 2}`,
	`{"cell_type": "heading", "level": 2, "source": ["x", 1]}`,
	// Metadata: keys of every kind, typed ones of the wrong type, the
	// prompt marker, a declared attribute, trusted, escaped and repeated
	// keys, nested values.
	`{"cell_type": "markdown", "metadata": {"a": 1, "b": "x", "c": true, "d": null, "trusted": true}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"f": 1.5, "big": 123456789012345678901234567890}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"nested": {"b": 1, "a": [1, {"y": 2, "x": 1}]}, "list": []}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"slideshow": {"slide_type": "slide"}}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"name": "cell", "tags": ["a"]}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"name": 3}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"jupyter": {"source_hidden": true}}, "source": "m"}`,
	`{"cell_type": "markdown", "metadata": {"solveit_ai": true}, "source": "Question?` + "\\n\\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\\n\\n" + `Answer."}`,
	`{"cell_type": "markdown", "metadata": {"solveit_ai": false}, "source": "not a prompt"}`,
	`{"cell_type": "heading", "level": 1, "metadata": {"solveit_ai": 1}, "source": "heading prompt"}`,
	`{"cell_type": "code", "metadata": {"solveit_ai": true, "bookmark": true}, "input": "code marked", "outputs": []}`,
	`{"cell_type": "markdown", "metadata": {"bookmark": 1, "pinned": "yes"}, "source": "declared"}`,
	`{"cell_type": "markdown", "metadata": {"k\u00e9y": 1, "a": 1, "a": "twice"}, "source": "keys"}`,
	`{"cell_type": "markdown", "metadata": {"a": {"x": 1}, "a": 2}, "source": "repeated"}`,
	`{"cell_type": "markdown", "metadata": "not an object", "source": "m"}`,
	`{"cell_type": "code", "metadata": {"scrolled": "auto", "name": "c"}, "input": "s", "outputs": []}`,
	`{"cell_type": "code", "metadata": {"scrolled": null}, "input": "s", "outputs": []}`,
	`{"cell_type": "code", "metadata": {"tags": ["t"], "execution": {"iopub.status.busy": "x"}}, "input": "s", "outputs": []}`,
	`{"cell_type": "code", "metadata": {"collapsed": 1}, "input": "s", "outputs": []}`,
	`{"cell_type": "code", "metadata": {"trusted": false, "deletable": false}, "trusted": true, "input": "s", "outputs": []}`,
	// Cells the upgrade keeps as they are, or refuses.
	`{"cell_type": "unknown", "source": "u"}`,
	`{"cell_type": 3, "source": "u"}`,
	`{"source": "no type"}`,
	`{"cell_t\u0079pe": "markdown", "source": "escaped key"}`,
}

// v3Shapes returns generated version 2 and 3 notebooks: each of v3Cells
// alone, all of them in one worksheet and across worksheets, and
// worksheets of odd shapes.
func v3Shapes() map[string][]byte {
	out := map[string][]byte{}
	doc := func(version int, meta, worksheets string) []byte {
		return fmt.Appendf(nil, `{"metadata": %s, "nbformat": %d, "nbformat_minor": 0, "worksheets": %s}`, meta, version, worksheets)
	}
	sheet := func(cells ...string) string {
		return `{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}}`
	}
	const meta = `{"name": "nb", "signature": "sha256:0", "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, "other": [1]}`
	for _, version := range []int{2, 3} {
		for i, c := range v3Cells {
			out[fmt.Sprintf("v%d cell %d %.40s", version, i, c)] = doc(version, meta, "["+sheet(c)+"]")
		}
		out[fmt.Sprintf("v%d all cells", version)] = doc(version, meta, "["+sheet(v3Cells...)+"]")
		half := len(v3Cells) / 2
		out[fmt.Sprintf("v%d two worksheets", version)] = doc(version, `{}`, "["+sheet(v3Cells[:half]...)+", "+sheet(v3Cells[half:]...)+"]")
		var many []string // past idsOf's scan of ids: its maps
		for i := range 40 {
			many = append(many, `{"cell_type": "markdown", "source": "same"}`, fmt.Sprintf(`{"cell_type": "code", "input": "x = %d", "outputs": [{"output_type": "stream", "stream": "stdout", "text": "%d"}]}`, i%3, i))
		}
		out[fmt.Sprintf("v%d many cells", version)] = doc(version, `{"name": ""}`, "["+sheet(many...)+"]")
		for name, ws := range map[string]string{
			"no worksheets":           "[]",
			"worksheet without cells": `[{"metadata": {}}]`,
			"empty worksheet":         "[" + sheet() + "]",
			"cells not a list":        `[{"cells": {}}]`,
			"worksheet not an object": `[1]`,
			"worksheets not a list":   `{"cells": []}`,
			"cell not an object":      "[" + sheet(`"cell"`) + "]",
		} {
			out[fmt.Sprintf("v%d %s", version, name)] = doc(version, `{"name": ""}`, ws)
		}
		out[fmt.Sprintf("v%d without worksheets", version)] = fmt.Appendf(nil, `{"metadata": {}, "nbformat": %d, "nbformat_minor": 0}`, version)
		out[fmt.Sprintf("v%d without metadata", version)] = fmt.Appendf(nil, `{"nbformat": %d, "nbformat_minor": 0, "worksheets": [%s]}`, version, sheet(v3Cells[0]))
		out[fmt.Sprintf("v%d extra members", version)] = fmt.Appendf(nil, `{"metadata": {"name": "x"}, "nbformat": %d, "nbformat_minor": 0, "orig_nbformat": 2, "extra": {"a": 1}, "worksheets": [%s]}`, version, sheet(v3Cells[0], v3Cells[16]))
	}
	return out
}

// v3Registry declares attributes some of v3Cells' metadata holds.
func v3Registry(t *testing.T) *convert.Registry {
	t.Helper()
	reg, err := convert.NewRegistry(convert.Flag("bookmark", "bookmark"), convert.Descriptor{Attr: "pin", Key: "pinned"})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// A version 2 or 3 notebook read straight into messages gives the dialog
// reading its upgrade gives (the way it was read before): the same
// messages (kinds, contents, replies, ids, execution counts, metadata,
// attributes, attachments, outputs), notebook metadata, and the same
// bytes written, unedited and after each of a set of edits, by Marshal,
// ToNotebook, Diff and Merge; readings that fail fail alike. Over every
// version 2 and 3 notebook of the corpus and testdata, and generated ones
// of every shape (see v3Cells), with and without a registry.
func TestV3DirectReadAsUpgrade(t *testing.T) {
	testtier.Long(t)
	reg := v3Registry(t)
	direct, n := 0, 0
	for name, data := range v3Inputs(t) {
		for _, o := range []convert.Options{{}, {Registry: reg}, convert.ReparsingV3(convert.Options{})} {
			n++
			if compareV3Reads(t, name, data, o) {
				direct++
			}
		}
	}
	if direct == 0 {
		t.Fatal("no notebook was read directly")
	}
	t.Logf("%d readings compared, %d of them read directly", n, direct)
}

// compareV3Reads compares the two ways of reading data (see
// TestV3DirectReadAsUpgrade) and reports whether data was read directly
// (one notebook parsed: the upgrade, not made, parses none).
func compareV3Reads(t *testing.T, name string, data []byte, o convert.Options) bool {
	t.Helper()
	old := convert.ViaUpgrade(o)
	before := nbimpl.Unmarshals()
	dn, errN := o.Unmarshal(data)
	direct := nbimpl.Unmarshals()-before == 1 // (the upgrade parses its cells)
	do, errO := old.Unmarshal(data)
	if (errN == nil) != (errO == nil) || errN != nil && errN.Error() != errO.Error() {
		t.Errorf("%s: read directly: %v, through the upgrade: %v", name, errN, errO)
		return false
	}
	if errN != nil {
		return false
	}
	sameDialogs(t, name, dn, do)
	// Written unedited, then after each edit (on a fresh reading).
	sameWritten(t, name+": unedited", o, old, dn, do)
	for _, e := range v3Edits {
		dn, _ := o.Unmarshal(data)
		do, _ := old.Unmarshal(data)
		if !e.edit(dn) || !e.edit(do) {
			continue
		}
		sameWritten(t, name+": "+e.name, o, old, dn, do)
	}
	// Diff and Merge read the notebooks themselves.
	dn, _ = o.Unmarshal(data)
	if len(dn.Messages) > 0 {
		dn.Messages[0].Content += " (theirs)"
	}
	theirs, err := o.Marshal(dn)
	if err != nil {
		return direct // (as through the upgrade: sameWritten compared them)
	}
	cn, errN := o.Diff(data, theirs)
	co, errO := old.Diff(data, theirs)
	if fmt.Sprint(errN) != fmt.Sprint(errO) || fmt.Sprint(cn) != fmt.Sprint(co) {
		t.Errorf("%s: Diff differs: %v %v / %v %v", name, cn, errN, co, errO)
	}
	for _, in := range [][3][]byte{{data, data, theirs}, {data, theirs, data}} {
		rn, errN := o.Merge(in[0], in[1], in[2], dialog.MergeOptions{})
		ro, errO := old.Merge(in[0], in[1], in[2], dialog.MergeOptions{})
		if fmt.Sprint(errN) != fmt.Sprint(errO) || errN == nil && (!bytes.Equal(rn.Data, ro.Data) || len(rn.Conflicts) != len(ro.Conflicts)) {
			t.Errorf("%s: Merge differs (errors %v / %v)", name, errN, errO)
		}
	}
	return direct
}

// sameDialogs compares a dialog read directly (dn) with one read through
// the upgrade (do).
func sameDialogs(t *testing.T, name string, dn, do *dialog.Dialog) {
	t.Helper()
	if diff := cmp.Diff(do.Meta, dn.Meta); diff != "" {
		t.Errorf("%s: notebook metadata differs (-upgrade +direct):\n%s", name, diff)
	}
	if len(dn.Messages) != len(do.Messages) {
		t.Errorf("%s: %d messages, through the upgrade %d", name, len(dn.Messages), len(do.Messages))
		return
	}
	for i, mn := range dn.Messages {
		mo := do.Messages[i]
		if mn.ID != mo.ID || mn.Kind != mo.Kind || mn.Content != mo.Content || mn.Reply() != mo.Reply() {
			t.Errorf("%s: message %d: %s %s %q %q, through the upgrade %s %s %q %q", name, i, mn.ID, mn.Kind, mn.Content, mn.Reply(), mo.ID, mo.Kind, mo.Content, mo.Reply())
		}
		if diff := cmp.Diff(mo.ExecutionCount, mn.ExecutionCount); diff != "" {
			t.Errorf("%s: message %d: execution count differs:\n%s", name, i, diff)
		}
		for what, pair := range map[string][2]map[string]any{"metadata": {mo.Meta, mn.Meta}, "attributes": {mo.Attrs, mn.Attrs}} {
			if diff := cmp.Diff(pair[0], pair[1]); diff != "" {
				t.Errorf("%s: message %d: %s differ (-upgrade +direct):\n%s", name, i, what, diff)
			}
		}
		if diff := cmp.Diff(mo.Attachments, mn.Attachments); diff != "" {
			t.Errorf("%s: message %d: attachments differ:\n%s", name, i, diff)
		}
		if (mn.Outputs == nil) != (mo.Outputs == nil) || len(mn.Outputs) != len(mo.Outputs) {
			t.Errorf("%s: message %d: %d outputs (nil %v), through the upgrade %d (nil %v)", name, i, len(mn.Outputs), mn.Outputs == nil, len(mo.Outputs), mo.Outputs == nil)
			continue
		}
		for k, on := range mn.Outputs {
			oo := mo.Outputs[k]
			if on.Type() != oo.Type() {
				t.Errorf("%s: message %d output %d: type %q, through the upgrade %q", name, i, k, on.Type(), oo.Type())
			}
			gn, errN := on.Map()
			go_, errO := oo.Map()
			if fmt.Sprint(errN) != fmt.Sprint(errO) {
				t.Errorf("%s: message %d output %d: %v / %v", name, i, k, errN, errO)
			}
			if diff := cmp.Diff(go_, gn); diff != "" {
				t.Errorf("%s: message %d output %d differs (-upgrade +direct):\n%s", name, i, k, diff)
			}
			if !on.Equal(oo) || !oo.Equal(on) {
				t.Errorf("%s: message %d output %d: not Equal to the upgrade's", name, i, k)
			}
			if mn.Preview(1000) != mo.Preview(1000) {
				t.Errorf("%s: message %d: previews differ", name, i)
			}
		}
	}
}

// sameWritten compares what writing dn (read directly, with o) and do
// (read through the upgrade, with old), edited alike, gives.
func sameWritten(t *testing.T, name string, o, old convert.Options, dn, do *dialog.Dialog) {
	t.Helper()
	bn, errN := o.Marshal(dn)
	bo, errO := old.Marshal(do)
	if fmt.Sprint(errN) != fmt.Sprint(errO) || !bytes.Equal(bn, bo) {
		t.Errorf("%s: Marshal differs (errors %v / %v):\n%s\nthrough the upgrade:\n%s", name, errN, errO, bn, bo)
		return
	}
	// Again (the upgrade, if made, is made once), and as a notebook.
	an, errN := o.Marshal(dn)
	ao, errO := old.Marshal(do)
	if fmt.Sprint(errN) != fmt.Sprint(errO) || !bytes.Equal(an, ao) {
		t.Errorf("%s: a second Marshal differs (errors %v / %v)", name, errN, errO)
	}
	nn, errN := o.ToNotebook(dn)
	no, errO := old.ToNotebook(do)
	if fmt.Sprint(errN) != fmt.Sprint(errO) {
		t.Errorf("%s: ToNotebook: %v / %v", name, errN, errO)
		return
	}
	if errN == nil {
		wn, _ := nbformat.Marshal(nn)
		wo, _ := nbformat.Marshal(no)
		if !bytes.Equal(wn, wo) {
			t.Errorf("%s: ToNotebook's notebooks are written differently", name)
		}
	}
}

// v3Edits are edits made alike to both dialogs; edit reports whether it
// applies.
var v3Edits = []struct {
	name string
	edit func(d *dialog.Dialog) bool
}{
	{"first content", func(d *dialog.Dialog) bool {
		if len(d.Messages) == 0 {
			return false
		}
		d.Messages[0].Content += "\nedited"
		return true
	}},
	{"last content", func(d *dialog.Dialog) bool {
		if len(d.Messages) == 0 {
			return false
		}
		d.Messages[len(d.Messages)-1].Content = "replaced"
		return true
	}},
	{"metadata", func(d *dialog.Dialog) bool {
		for _, m := range d.Messages {
			if m.Meta == nil {
				m.Meta = map[string]any{}
			}
			m.Meta["edited"] = true
		}
		return len(d.Messages) > 0
	}},
	{"outputs", func(d *dialog.Dialog) bool {
		for _, m := range d.Messages {
			if len(m.Outputs) > 0 {
				m.Outputs = m.Outputs[1:]
				return true
			}
		}
		return false
	}},
	{"execution count", func(d *dialog.Dialog) bool {
		for _, m := range d.Messages {
			if m.Kind == dialog.Code {
				n := 42
				m.ExecutionCount = &n
				return true
			}
		}
		return false
	}},
	{"removed", func(d *dialog.Dialog) bool {
		if len(d.Messages) == 0 {
			return false
		}
		d.Messages = d.Messages[1:]
		return true
	}},
	{"added", func(d *dialog.Dialog) bool {
		d.Messages = append(d.Messages, &dialog.Message{ID: "added-message", Kind: dialog.Note, Content: "new"})
		return true
	}},
	{"notebook metadata", func(d *dialog.Dialog) bool {
		if d.Meta == nil {
			d.Meta = map[string]any{}
		}
		d.Meta["edited"] = "yes"
		return true
	}},
}

// The upgrade of a version 3 notebook read directly is made once, when
// first needed, however many goroutines need it at once: Marshal calls of
// an edited dialog (which write over the upgrade) and looks inside its
// outputs race to make it (run under -race), and every one gets what
// reading the upgrade at once gives. Looking inside outputs makes it once
// (one parse, the upgrade's, for any number of looks).
func TestV3UpgradeMadeOnceConcurrently(t *testing.T) {
	data := []byte(`{"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [` +
		strings.Join([]string{v3Cells[0], v3Cells[16], v3Cells[18], v3Cells[19], v3Cells[28], v3Cells[39]}, ", ") + `], "metadata": {}}]}`)
	edit := func(d *dialog.Dialog) { d.Messages[0].Content = "edited" }
	do, err := convert.ViaUpgrade(convert.Options{}).Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	edit(do)
	want, err := convert.ViaUpgrade(convert.Options{}).Marshal(do)
	if err != nil {
		t.Fatal(err)
	}
	wantOut, err := do.Messages[1].Outputs[0].Map()
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		d, err := convert.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		edit(d)
		const n = 4
		got := make([][]byte, n)
		outs := make([]map[string]any, n)
		errs := make([]error, 2*n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { got[i], errs[i] = convert.Marshal(d) })
			wg.Go(func() { outs[i], errs[n+i] = d.Messages[1].Outputs[0].Map() })
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || errs[n+i] != nil {
				t.Fatal(errs[i], errs[n+i])
			}
			if !bytes.Equal(got[i], want) {
				t.Fatalf("Marshal %d:\n%s\nthrough the upgrade:\n%s", i, got[i], want)
			}
			if diff := cmp.Diff(wantOut, outs[i]); diff != "" {
				t.Fatalf("output %d differs:\n%s", i, diff)
			}
		}
	}
	d, err := convert.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	before := nbimpl.Unmarshals()
	for range 3 {
		for _, m := range d.Messages {
			for _, o := range m.Outputs {
				if _, err := o.Map(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if got := nbimpl.Unmarshals() - before; got != 1 {
		t.Errorf("looking inside the outputs parsed %d notebooks, want 1 (the upgrade's, once)", got)
	}
}

// BenchmarkV3Corpus is the dialog round trip (convert.Unmarshal +
// Marshal, unedited) of every version 2 and 3 corpus notebook, one op
// being all of them, read directly and through the upgrade made at once
// (the way they were read before); Cold runs each file after a
// collection (as benchrun -buckets does). Skipped without the corpus.
func BenchmarkV3Corpus(b *testing.B) {
	var files [][]byte
	total := 0
	for _, data := range corpus.Files(b) {
		if nb, err := nbformat.Unmarshal(data); err == nil && nb.Nbformat < 4 {
			files = append(files, data)
			total += len(data)
		}
	}
	if len(files) == 0 {
		b.Skip("no version 2 or 3 notebook in the corpus")
	}
	for _, way := range []struct {
		name string
		o    convert.Options
	}{{"Direct", convert.Options{}}, {"Upgrade", convert.ViaUpgrade(convert.Options{})}} {
		roundTrip := func(data []byte) {
			d, err := way.o.Unmarshal(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := way.o.Marshal(d); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("RoundTrip/"+way.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					roundTrip(data)
				}
			}
		})
		b.Run("ColdRoundTrip/"+way.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					b.StopTimer()
					runtime.GC()
					b.StartTimer()
					roundTrip(data)
				}
			}
		})
	}
}

// FuzzV3DirectReadAsUpgrade checks TestV3DirectReadAsUpgrade's property
// (the messages and the bytes written, unedited and with the first
// message changed) on mutations of the generated version 2 and 3
// notebooks.
func FuzzV3DirectReadAsUpgrade(f *testing.F) {
	for _, data := range v3Shapes() {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, old := convert.Options{}, convert.ViaUpgrade(convert.Options{})
		dn, errN := o.Unmarshal(data)
		do, errO := old.Unmarshal(data)
		if (errN == nil) != (errO == nil) || errN != nil && errN.Error() != errO.Error() {
			t.Fatalf("read directly: %v, through the upgrade: %v", errN, errO)
		}
		if errN != nil {
			return
		}
		sameDialogs(t, "fuzz", dn, do)
		sameWritten(t, "fuzz: unedited", o, old, dn, do)
		dn, _ = o.Unmarshal(data)
		do, _ = old.Unmarshal(data)
		if v3Edits[0].edit(dn) && v3Edits[0].edit(do) {
			sameWritten(t, "fuzz: "+v3Edits[0].name, o, old, dn, do)
		}
	})
}
