package convert_test

// Issue 10: the dialog host API, each behaviour against the bytes the
// seed's own module writes (the oracle; see oracle_test.go).

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/truthy"
	"github.com/nbdialog/ipynb/nbformat"
)

var attachmentTypes = []struct{ id, mime, data string }{
	{"notes.txt", "text/plain", "hello\nworld"},
	{"pic.svg", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>` + "\n"},
	{"code.js", "application/javascript", "alert(1);\n"},
	{"data.json", "application/json", `{"a": [1, 2]}`},
	{"page.html", "text/html", "<b>é</b>"},
	{"img.png", "image/png", "\x89PNG\r\n\x1a\n\x00\xff"},
}

// Attachments of every type are stored base64-encoded and decoded on
// reading, as the seed (and Jupyter) do.
func TestOracleAttachmentsEveryType(t *testing.T) {
	t.Parallel()
	var py strings.Builder
	py.WriteString("dlg = Dialog(name='att')\nm = dlg.mk_message('see', msg_type='note', id='a77a0001')\np = dlg.mk_message('what?', msg_type='prompt', output='this', id='a77a0002')\n")
	d := &convert.File{Dialog: &dialog.Dialog{Name: "att"}}
	var atts []dialog.Attachment
	for _, a := range attachmentTypes {
		lit, _ := json.Marshal([]byte(a.data)) // base64, which Python decodes
		py.WriteString("m.mk_attachment(__import__('base64').b64decode(" + string(lit) + "), '" + a.mime + "', '" + a.id + "')\n")
		atts = append(atts, dialog.Attachment{ID: a.id, MIME: a.mime, Data: []byte(a.data)})
	}
	py.WriteString("p.mk_attachment(b'<svg/>', 'image/svg+xml', 'p.svg')\n")
	want := oracleWrite(t, py.String())

	d.Make(dialog.Note, "see", dialog.MakeOptions{ID: "a77a0001", Attachments: atts})
	d.Make(dialog.Prompt, "what?", dialog.MakeOptions{ID: "a77a0002", Reply: "this", Attachments: []dialog.Attachment{dialog.Attachment{ID: "p.svg", MIME: "image/svg+xml", Data: []byte("<svg/>")}}})
	got, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from the seed's bytes %s", firstDiff(want, got))
	}
	// Reading the seed's file gives the data back, whatever the type.
	back, err := convert.Unmarshal(want, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(atts, func(i, j int) bool { return atts[i].ID < atts[j].ID }) // the file's order
	if diff := cmp.Diff(atts, back.Messages[0].Attachments); diff != "" {
		t.Errorf("attachments read back (-want +got):\n%s", diff)
	}
	if a := back.Messages[1].Attachments; len(a) != 1 || string(a[0].Data) != "<svg/>" {
		t.Errorf("prompt attachment read back as %q", a)
	}
}

// A value that is not base64 (a writer that stored raw text) is kept as
// read, and written back unchanged when the message is edited.
func TestAttachmentNotBase64Kept(t *testing.T) {
	t.Parallel()
	src := []byte(`{"cells": [{"attachments": {"raw.txt": {"text/plain": "hello world"}, "svg": {"image/svg+xml": ["<svg>\n", "</svg>"]}},
 "cell_type": "markdown", "id": "r0000001", "metadata": {}, "source": "note"}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
`)
	d, err := convert.Unmarshal(src, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	atts := d.Messages[0].Attachments
	if len(atts) != 2 || string(atts[0].Data) != "hello world" || string(atts[1].Data) != "<svg>\n</svg>" {
		t.Fatalf("attachments %q", atts)
	}
	d.Messages[0].Content = "edited note"
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(src, []byte(`"source": "note"`), []byte(`"source": "edited note"`), 1)
	if !bytes.Equal(out, want) {
		t.Errorf("edit changed more than the source %s", firstDiff(want, out))
	}
}

// Declared keys given through Meta are promoted and converted, falsy ones
// omitted (the seed promotes meta_attrs keys at birth; cell_meta converts).
func TestOracleDeclaredKeysInMeta(t *testing.T) {
	t.Parallel()
	want := oracleWrite(t, `
class FlagMsg(Message):
    meta_attrs = dict(collapsed='collapsed', skipped='skipped', bookmark='bookmark')
    def cell_meta(self):
        m = super().cell_meta()
        if 'collapsed' in m: m['collapsed'] = bool(m['collapsed'])
        return m
class FlagDlg(Dialog): msg_cls = FlagMsg
dlg = FlagDlg(name='flags')
dlg.mk_message('x = 1', msg_type='code', meta={'collapsed': 1, 'other': 'kept'}, id='f1a90001')
dlg.mk_message('hidden?', msg_type='note', meta={'skipped': 0, 'bookmark': 0}, id='f1a90002')
dlg.mk_message('bookmarked', msg_type='note', meta={'skipped': 1, 'bookmark': 7}, id='f1a90003')
dlg.mk_message('both', msg_type='note', meta={'bookmark': 1}, bookmark=2, id='f1a90004')
`)
	descs := []convert.Descriptor{convert.Flag("collapsed", "collapsed"), {Attr: "skipped", Key: "skipped"},
		{Attr: "bookmark", Key: "bookmark"}}
	d := &convert.File{Dialog: &dialog.Dialog{Name: "flags"}}
	d.Make(dialog.Code, "x = 1", dialog.MakeOptions{Meta: map[string]any{"collapsed": 1, "other": "kept"}, ID: "f1a90001"})
	d.Make(dialog.Note, "hidden?", dialog.MakeOptions{Meta: map[string]any{"skipped": 0, "bookmark": 0}, ID: "f1a90002"})
	d.Make(dialog.Note, "bookmarked", dialog.MakeOptions{Meta: map[string]any{"skipped": 1, "bookmark": 7}, ID: "f1a90003"})
	d.Make(dialog.Note, "both", dialog.MakeOptions{Meta: map[string]any{"bookmark": 1}, ID: "f1a90004", Attrs: map[string]any{"bookmark": 2}})
	var repairs []nbformat.Repair
	got, err := convert.Marshal(d, convert.WriteOptions{Descriptors: descs, Repaired: func(r nbformat.Repair) { repairs = append(repairs, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from the seed's bytes %s", firstDiff(want, got))
	}
	if len(repairs) != 0 {
		t.Errorf("repairs %v", repairs)
	}
}

// Nothing given to a message is dropped silently: what healing would
// remove from a new or changed message, or from changed notebook
// metadata, is an error naming the place; what it removes from the file
// as read is a reported repair.
func TestLostValuesAreErrors(t *testing.T) {
	t.Parallel()
	d := &convert.File{Dialog: &dialog.Dialog{Name: "lost"}}
	d.Make(dialog.Note, "fine", dialog.MakeOptions{ID: "10570001"})
	m, _ := d.Make(dialog.Code, "x", dialog.MakeOptions{Meta: map[string]any{"collapsed": 1, "scrolled": "sideways"}, ID: "10570002"})
	_, err := convert.Marshal(d, convert.WriteOptions{})
	var lv *convert.Error
	if !errors.As(err, &lv) || lv.Op != "write" || !errors.Is(err, convert.ErrInvalidValue) || lv.Message != "10570002" {
		t.Fatalf("Marshal = %v", err)
	}
	for _, want := range []string{"message 10570002", "/cells/1/metadata/collapsed", "/cells/1/metadata/scrolled"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := convert.WriteFile(d, filepath.Join(t.TempDir(), "lost.ipynb"), convert.WriteOptions{}); !errors.Is(err, convert.ErrInvalidValue) {
		t.Errorf("WriteFile = %v", err)
	}
	m.Meta = nil
	d.Meta = map[string]any{"kernelspec": 5}
	if _, err := convert.Marshal(d, convert.WriteOptions{}); !errors.As(err, &lv) || lv.Message != "" || !strings.Contains(err.Error(), "notebook metadata: /metadata/kernelspec") {
		t.Errorf("invalid notebook metadata: %v", err)
	}
	d.Meta = nil
	m.Attrs = map[string]any{"undeclared": 1}
	if _, err := convert.Marshal(d, convert.WriteOptions{}); !errors.Is(err, convert.ErrNoPlace) || !strings.Contains(err.Error(), `attribute "undeclared" has no descriptor`) {
		t.Errorf("undeclared attribute: %v", err)
	}

	// Parts a cell has no place for.
	count := 3
	for _, bad := range []*dialog.Message{
		{ID: "n0", Kind: dialog.Note, Outputs: codeOutput("1")},
		{ID: "r0", Kind: dialog.Raw, ExecutionCount: &count},
		{ID: "c0", Kind: dialog.Code, Attachments: []dialog.Attachment{{ID: "a", MIME: "image/png"}}},
		{ID: "p0", Kind: dialog.Prompt, Outputs: codeOutput("1")},
		{ID: "p1", Kind: dialog.Prompt, Outputs: []dialog.Output{
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": true}, "data": map[string]any{"text/markdown": "a"}}),
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": 1}, "data": map[string]any{"text/markdown": "b"}})}},
		{ID: "p2", Kind: dialog.Prompt, Outputs: []dialog.Output{
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": true}, "data": map[string]any{"text/markdown": "a", "text/plain": "a"}})}},
		{ID: "p3", Kind: dialog.Prompt, Outputs: []dialog.Output{
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": true, "model": "x"}, "data": map[string]any{"text/markdown": "a"}})}},
		{ID: "p4", Kind: dialog.Prompt, Outputs: []dialog.Output{
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": 1}, "data": map[string]any{"text/markdown": "a"}, "transient": map[string]any{}})}},
	} {
		nd := &convert.File{Dialog: &dialog.Dialog{Name: "x"}}
		nd.Messages = []*dialog.Message{bad}
		if _, err := convert.Marshal(nd, convert.WriteOptions{}); !errors.Is(err, convert.ErrNoPlace) || !strings.Contains(err.Error(), "message "+bad.ID) {
			t.Errorf("%s: %v", bad.ID, err)
		}
	}

	// A file with invalid metadata, read and edited elsewhere and in the
	// invalid cell itself: its invalidity is healed and reported.
	src := []byte(`{"cells": [
 {"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"collapsed": "yes"}, "outputs": [], "source": "a"},
 {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "b"}
], "metadata": {"kernelspec": 3}, "nbformat": 4, "nbformat_minor": 5}
`)
	f, err := convert.Unmarshal(src, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Messages[0].Content = "a edited"
	f.Messages[1].Content = "b edited"
	var repairs []string
	out, err := convert.Marshal(f, convert.WriteOptions{Repaired: func(r nbformat.Repair) { repairs = append(repairs, string(r.Pointer)) }})
	if err != nil {
		t.Fatalf("healing the file as read: %v", err)
	}
	if diff := cmp.Diff([]string{"/cells/0/metadata/collapsed", "/metadata/kernelspec"}, repairs, sortStrings); diff != "" {
		t.Errorf("repairs (-want +got):\n%s", diff)
	}
	if !bytes.Contains(out, []byte("a edited")) || bytes.Contains(out, []byte(`"yes"`)) {
		t.Errorf("written %s", out)
	}
	// Giving the invalid cell a new invalid value is the caller's doing.
	f2, _ := convert.Unmarshal(src, convert.ReadOptions{})
	f2.Messages[0].Meta["collapsed"] = "no"
	if _, err := convert.Marshal(f2, convert.WriteOptions{}); !errors.As(err, &lv) || lv.Message != "c1" {
		t.Errorf("a new invalid value in an invalid cell: %v", err)
	}
}

var sortStrings = cmp.Transformer("sort", func(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
})

// A dialog read (or written) with a registry writes with it: plain Save
// after an edit gives the seed's bytes for the same edit (edits.py's
// unskip, with the seed's meta_attrs skipped and pinned).
func TestOracleRegistryCarried(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	path := copyTestdata(t, "dialog.ipynb", src)
	edited := t.TempDir()
	runOracle(t, "edits.py", src, edited)
	d, err := convert.ReadFile(path, convert.ReadOptions{Descriptors: seedDescriptors})
	if err != nil {
		t.Fatal(err)
	}
	var unskipped bool
	for _, m := range d.Messages {
		if truthy.Of(m.Attrs["skipped"]) {
			m.Attrs["skipped"], unskipped = 0, true
			break
		}
	}
	if !unskipped {
		t.Fatal("testdata/dialog.ipynb has no skipped message")
	}
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	sameFile(t, filepath.Join(edited, "unskip", "dialog.ipynb"), path)
	// Still carried after the save, and after WriteFile with a registry.
	d.Messages[2].Attrs["pinned"] = 0
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatalf("second save: %v", err)
	}
	d2 := &convert.File{Dialog: &dialog.Dialog{Name: "new"}}
	d2.Make(dialog.Note, "n", dialog.MakeOptions{Attrs: map[string]any{"skipped": true}})
	p2 := filepath.Join(t.TempDir(), "new.ipynb")
	if err := convert.WriteFile(d2, p2, convert.WriteOptions{Descriptors: seedDescriptors}); err != nil {
		t.Fatal(err)
	}
	d2.Messages[0].Content = "edited"
	if err := d2.Save(convert.SaveOptions{}); err != nil {
		t.Fatalf("save after WriteFile with a registry: %v", err)
	}
	// An explicit registry still wins over the carried one.
	d2.Messages[0].Content = "edited again"
	if _, err := convert.Marshal(d2, convert.WriteOptions{Descriptors: []convert.Descriptor{}}); !errors.Is(err, convert.ErrNoPlace) {
		t.Errorf("explicit empty registry: %v", err)
	}
}

// The Solveit registry writes what dialoghelper writes: its int flags as
// booleans (heading_collapsed too, its file type), bookmark as held, falsy
// values omitted; and reads them back as ints.
func TestOracleSolveitRegistry(t *testing.T) {
	t.Parallel()
	want := oracleWrite(t, `
class SMsg(Message):
    meta_attrs = dict(skipped='skipped', pinned='pinned', heading_collapsed='heading_collapsed', bookmark='bookmark',
                      o_collapsed='collapsed', i_collapsed='hide_input')
    def cell_meta(self):
        m = super().cell_meta()
        for k in ('skipped', 'pinned', 'collapsed', 'hide_input', 'heading_collapsed'):
            if k in m: m[k] = bool(m[k])
        return m
class SDlg(Dialog): msg_cls = SMsg
dlg = SDlg(name='solveit')
dlg.mk_message('# Head', msg_type='note', heading_collapsed=1, bookmark=3, skipped=1, id='50170001')
dlg.mk_message('x', msg_type='code', o_collapsed=1, i_collapsed=1, pinned=0, id='50170002')
dlg.mk_message('q', msg_type='prompt', output='a', pinned=1, o_collapsed=0, id='50170003')
`)
	d := &convert.File{Dialog: &dialog.Dialog{Name: "solveit"}}
	d.Make(dialog.Note, "# Head", dialog.MakeOptions{ID: "50170001", Attrs: map[string]any{"heading_collapsed": 1, "bookmark": 3, "skipped": 1}})
	d.Make(dialog.Code, "x", dialog.MakeOptions{ID: "50170002", Attrs: map[string]any{"o_collapsed": 1, "i_collapsed": 1, "pinned": 0}})
	d.Make(dialog.Prompt, "q", dialog.MakeOptions{Reply: "a", ID: "50170003", Attrs: map[string]any{"pinned": 1, "o_collapsed": 0}})
	opts := convert.Options{Registry: convert.MustRegistry(convert.Solveit())}
	got, err := opts.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from the seed's bytes %s", firstDiff(want, got))
	}
	back, err := opts.Unmarshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"o_collapsed": 1, "i_collapsed": 1}, back.Messages[1].Attrs); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if a, b := convert.Solveit(), convert.Solveit(); &a[0] == &b[0] {
		t.Error("Solveit returns a shared slice")
	}
}

// The seed's _clean_out_meta: __type is left out of the outputs of the
// messages written, and the message's own outputs keep it.
func TestOracleTransientOutputMeta(t *testing.T) {
	t.Parallel()
	want := oracleWrite(t, `
dlg = Dialog(name='out')
m = dlg.mk_message('1+1', msg_type='code', id='0e700001', output=[
    dict(output_type='execute_result', execution_count=1, data={'text/plain': '2'}, metadata={'__type': 'int'}),
    dict(output_type='display_data', data={'text/plain': 'x'}, metadata={'__type': 'X', 'keep': 1})])
`)
	d := &convert.File{Dialog: &dialog.Dialog{Name: "out"}}
	m, _ := d.Make(dialog.Code, "1+1", dialog.MakeOptions{ID: "0e700001", Outputs: []dialog.Output{
		dialog.NewOutput(map[string]any{"output_type": "execute_result", "execution_count": 1, "data": map[string]any{"text/plain": "2"}, "metadata": map[string]any{"__type": "int"}}),
		dialog.NewOutput(map[string]any{"output_type": "display_data", "data": map[string]any{"text/plain": "x"}, "metadata": map[string]any{"__type": "X", "keep": 1}}),
	}})
	got, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from the seed's bytes %s", firstDiff(want, got))
	}
	if g, _ := m.Outputs[1].Map(); g["metadata"].(map[string]any)["__type"] != "X" {
		t.Error("Marshal changed the message's outputs")
	}
	// An unedited cell keeps it: the file is written back byte for byte.
	data, err := os.ReadFile(filepath.Join("testdata", "parity", "outputs.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	rd, _ := convert.Unmarshal(data, convert.ReadOptions{})
	if out, _ := convert.Marshal(rd, convert.WriteOptions{}); !bytes.Equal(out, data) {
		t.Errorf("unedited file changed %s", firstDiff(data, out))
	}
}

// Notebooks without cell ids (4.0–4.4, version 3) get ids from position
// and content: the same on every reading, usable on the next, and not
// written to the file (a version 3 dialog, once edited, is written as 4.5
// with the ids shown).
func TestStableIDsWithoutFileIDs(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"v4.4.ipynb", "kaggle.ipynb", "colab.ipynb", "v3.ipynb"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		first, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		second, _ := convert.Unmarshal(bytes.Clone(data), convert.ReadOptions{})
		if diff := cmp.Diff(messageIDs(first.Dialog), messageIDs(second.Dialog)); diff != "" {
			t.Errorf("%s: ids differ between readings:\n%s", name, diff)
		}
		seen := map[string]bool{}
		for _, id := range messageIDs(first.Dialog) {
			if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(id) || seen[id] {
				t.Errorf("%s: id %q", name, id)
			}
			seen[id] = true
		}
		third, _ := convert.Unmarshal(data, convert.ReadOptions{})
		m, err := third.Get(first.Messages[1].ID)
		if err != nil || m.Content != first.Messages[1].Content {
			t.Errorf("%s: id seen once not usable again: %v", name, err)
		}
		m.Content += " edited"
		out, err := convert.Marshal(third, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Minor int `json:"nbformat_minor"`
			Cells []map[string]any
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, c := range doc.Cells {
			_, has := c["id"]
			if name == "v3.ipynb" {
				if !has || c["id"] != first.Messages[i].ID {
					t.Errorf("%s upgraded: cell %d id %v, shown as %s", name, i, c["id"], first.Messages[i].ID)
				}
			} else if has {
				t.Errorf("%s: an id was written to a 4.%d file", name, doc.Minor)
			}
		}
	}
	// Position and content both count: the same text at two places, and
	// two texts at one place, get different ids.
	a, _ := convert.Unmarshal([]byte(`{"cells": [{"cell_type": "raw", "metadata": {}, "source": "same"}, {"cell_type": "raw", "metadata": {}, "source": "same"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`), convert.ReadOptions{})
	b, _ := convert.Unmarshal([]byte(`{"cells": [{"cell_type": "raw", "metadata": {}, "source": "other"}, {"cell_type": "raw", "metadata": {}, "source": "same"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`), convert.ReadOptions{})
	if a.Messages[0].ID == a.Messages[1].ID || a.Messages[0].ID == b.Messages[0].ID || a.Messages[1].ID != b.Messages[1].ID {
		t.Errorf("ids %v %v", messageIDs(a.Dialog), messageIDs(b.Dialog))
	}
}

func messageIDs(d *dialog.Dialog) []string {
	var ids []string
	for _, m := range d.Messages {
		ids = append(ids, m.ID)
	}
	return ids
}
