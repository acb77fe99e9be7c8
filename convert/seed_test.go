package convert_test

// Every example of the seed (../shared/seed/ipynb-module.txt, "ipynb import
// and export"), in the order the seed gives them.

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// seedDialog builds the seed's dialog: a note with an attachment, a code
// message with an output, a prompt with a reply, a raw message.
func seedDialog() (d *convert.File, note, code, prompt, raw *dialog.Message) {
	d = &convert.File{Dialog: &dialog.Dialog{Name: "dlg"}}
	d.Random = rand.NewChaCha8([32]byte{7})
	note = d.Add(dialog.Note, "A *test* dialog")
	d.Attach(note, []byte("not really a png"), "image/png")
	code = d.Add(dialog.Code, "1+1")
	code.Outputs = codeOutput("2")
	prompt = d.Add(dialog.Prompt, "Add them.")
	prompt.SetReply("The answer is **2**.")
	raw = d.Add(dialog.Raw, "plain text")
	return
}

func cellMeta(t *testing.T, c nbformat.Cell) map[string]any {
	t.Helper()
	cell, err := nbmap.ToMap(c)
	if err != nil {
		t.Fatalf("cell %T: %v", c, err)
	}
	m, ok := cell["metadata"].(map[string]any)
	if !ok {
		t.Fatalf("cell %T: metadata %#v", c, cell["metadata"])
	}
	return m
}

func TestSeedDialogSummary(t *testing.T) {
	t.Parallel()
	d, _, _, _, _ := seedDialog()
	rows := strings.Split(strings.TrimSuffix(d.Summary(120, 20), "\n"), "\n")
	if rows[0] != "dlg" || len(rows) != 6 {
		t.Fatalf("summary:\n%s", d.Summary(120, 20))
	}
	for i, want := range []string{":n:A *test* dialog", ":c:1+1 ⇒ out(", ":p:Add them. ⇒ reply(20)", "> The answer is **2**.", ":r:plain text"} {
		if !strings.Contains(rows[i+1], want) {
			t.Errorf("row %d = %q, want it to contain %q", i+1, rows[i+1], want)
		}
	}
}

// Message().to_cell()['metadata'] == {}
func TestSeedEmptyMessageMetadata(t *testing.T) {
	t.Parallel()
	c, err := convert.Options{}.ToCell(&dialog.Message{ID: "a1b2c3d4", Kind: dialog.Code})
	if err != nil {
		t.Fatal(err)
	}
	if md := cellMeta(t, c); len(md) != 0 {
		t.Errorf("metadata = %v, want {}", md)
	}
}

// meta_attrs: bookmark is promoted and demoted; absent values are not written.
func TestSeedBookmarkDescriptor(t *testing.T) {
	t.Parallel()
	reg, err := convert.NewRegistry(convert.Descriptor{Attr: "bookmark", Key: "bookmark"})
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{Registry: reg}
	bookmarkCell, err := opts.ToCell(&dialog.Message{ID: "b1", Kind: dialog.Note, Attrs: map[string]any{"bookmark": 9}})
	if err != nil {
		t.Fatal(err)
	}
	if got := cellMeta(t, bookmarkCell)["bookmark"]; got != 9 {
		t.Errorf("bookmark = %v, want 9", got)
	}
	plain, err := opts.ToCell(&dialog.Message{ID: "b2", Kind: dialog.Note})
	if err != nil {
		t.Fatal(err)
	}
	if md := cellMeta(t, plain); len(md) != 0 {
		t.Errorf("metadata = %v, want {} (absent values are not written)", md)
	}
	// back = NoteDlg('t').cell2msg(bookmark_cell)
	back, err := opts.ToMessage(bookmarkCell)
	if err != nil {
		t.Fatal(err)
	}
	if back.Attrs["bookmark"] != 9 {
		t.Errorf("back.bookmark = %v, want 9", back.Attrs["bookmark"])
	}
	if len(back.Meta) != 0 {
		t.Errorf("back.meta = %v, want {} (promoted out of meta)", back.Meta)
	}
}

// FlagMsg(collapsed=1).to_cell()['metadata']['collapsed'] is True
func TestSeedFlagDescriptor(t *testing.T) {
	t.Parallel()
	reg, err := convert.NewRegistry(convert.Flag("collapsed", "collapsed"))
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{Registry: reg}
	c, err := opts.ToCell(&dialog.Message{ID: "f1", Kind: dialog.Code, Attrs: map[string]any{"collapsed": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.(*nbformat.CodeCell).Metadata.Collapsed; got == nil || !*got {
		t.Errorf("collapsed = %v, want the schema boolean true", got)
	}
	if err := nbformat.Validate(notebookOf(c)); err != nil {
		t.Errorf("cell not valid: %v", err)
	}
	back, err := opts.ToMessage(c)
	if err != nil {
		t.Fatal(err)
	}
	if back.Attrs["collapsed"] != 1 {
		t.Errorf("read back as %v, want the int flag 1", back.Attrs["collapsed"])
	}
	off, _ := opts.ToCell(&dialog.Message{ID: "f2", Kind: dialog.Code, Attrs: map[string]any{"collapsed": 0}})
	if off.(*nbformat.CodeCell).Metadata.Collapsed != nil {
		t.Error("a zero flag was written")
	}
}

func notebookOf(cells ...nbformat.Cell) *nbformat.Notebook {
	nb := nbformat.New()
	nb.Cells = cells
	return nb
}

// Prompts serialize as markdown with the reply after the separator.
func TestSeedPromptCell(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "p"}
	pr := d.Add(dialog.Prompt, "What is 2+2?")
	pr.SetReply("The answer is 4.")
	prCell, err := convert.Options{}.ToCell(pr)
	if err != nil {
		t.Fatal(err)
	}
	md, ok := prCell.(*nbformat.MarkdownCell)
	if !ok {
		t.Fatalf("cell_type %s, want markdown", prCell.Type())
	}
	if cellMeta(t, md)["solveit_ai"] != true {
		t.Error("solveit_ai is not true")
	}
	src := md.Source.String()
	for _, want := range []string{"What is 2+2?", convert.ReplySeparator, "The answer is 4."} {
		if !strings.Contains(src, want) {
			t.Errorf("source %q lacks %q", src, want)
		}
	}
	// A prompt without a reply gets no separator.
	empty := d.Add(dialog.Prompt, "Hello?")
	empty.SetReply("")
	c, _ := convert.Options{}.ToCell(empty)
	if strings.Contains(nbformat.SourceOf(c).String(), convert.ReplySeparator) {
		t.Error("separator written without a reply")
	}
	// pr_back = dlg.cell2msg(pr_cell)
	back, err := convert.Options{}.ToMessage(prCell)
	if err != nil {
		t.Fatal(err)
	}
	if back.Content != "What is 2+2?" || back.Kind != dialog.Prompt || back.Reply() != "The answer is 4." {
		t.Errorf("back = %q %s %q", back.Content, back.Kind, back.Reply())
	}
}

// write_ipynb, Dialog.write, ipynb_cells, read_ipynb, save.
func TestSeedWriteReadSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, _, _, _, _ := seedDialog()
	if err := convert.WriteFile(d, filepath.Join(dir, "dlg.ipynb"), convert.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := writeIn(d, dir); err != nil {
		t.Fatal(err)
	}
	cells, err := convert.Cells(dir, d.Name, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != len(d.Messages) {
		t.Fatalf("%d cells, %d messages", len(cells), len(d.Messages))
	}
	first, ok := cells[0].(*nbformat.MarkdownCell)
	if !ok || first.Source.String() != "A *test* dialog" || string(first.ID) != d.Messages[0].ID || len(cellMeta(t, first)) != 0 {
		t.Fatalf("first cell %#v", cells[0])
	}
	if len(first.Attachments) != 1 {
		t.Fatalf("attachments %v", first.Attachments)
	}
	for id, b := range first.Attachments {
		if got, _ := b.Text("image/png"); got != "bm90IHJlYWxseSBhIHBuZw==" {
			t.Errorf("attachment %s image/png = %q", id, got)
		}
		if len(id) != 36 {
			t.Errorf("attachment id %q is not a uuid", id)
		}
	}
	// A prefix and a suffix wrap the cells.
	wrapped, _ := convert.Cells(dir, d.Name, []nbformat.Cell{nbformat.NewRawCell("pre")}, []nbformat.Cell{nbformat.NewRawCell("post")})
	if len(wrapped) != len(cells)+2 || nbformat.SourceOf(wrapped[0]).String() != "pre" || nbformat.SourceOf(wrapped[len(wrapped)-1]).String() != "post" {
		t.Errorf("prefix/suffix: %d cells", len(wrapped))
	}
	if none, err := convert.Cells(dir, "missing", nil, nil); none != nil || err != nil {
		t.Errorf("missing file: %v %v", none, err)
	}

	back, err := convert.ReadFile(filepath.Join(dir, "dlg"), convert.ReadOptions{}) // .ipynb added
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != "dlg" || back.Path != filepath.Join(dir, "dlg.ipynb") || back.ModTime.IsZero() {
		t.Errorf("name %q path %q modtime %v", back.Name, back.Path, back.ModTime)
	}
	if diff := cmp.Diff(summaryRows(d.Dialog), summaryRows(back.Dialog)); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
	if g, _ := back.Messages[1].Outputs[0].Map(); g["data"].(map[string]any)["text/plain"] != "2" {
		t.Errorf("code output %v", back.Messages[1].Outputs)
	}
	if got := back.Messages[0].Attachments; len(got) != 1 || string(got[0].Data) != "not really a png" || got[0].MIME != "image/png" {
		t.Errorf("attachments %v", got)
	}

	// Saving an unedited dialog is a byte no-op.
	path := filepath.Join(dir, "dlg.ipynb")
	before, _ := os.ReadFile(path)
	fi1, _ := os.Stat(path)
	if err := back.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	fi2, _ := os.Stat(path)
	if !bytes.Equal(before, after) || !fi1.ModTime().Equal(fi2.ModTime()) {
		t.Error("saving an unedited dialog changed the file")
	}
	var _ []*dialog.Message = back.Messages
	err = (&convert.File{Dialog: &dialog.Dialog{Name: "unread"}}).Save(convert.SaveOptions{})
	if err == nil || !strings.Contains(err.Error(), "no path") {
		t.Errorf("Save of an unread dialog = %v", err)
	}
}

func summaryRows(d *dialog.Dialog) []string {
	var rows []string
	for _, m := range d.Messages {
		rows = append(rows, m.ID+"|"+string(m.Kind)+"|"+m.Content+"|"+m.Reply())
	}
	return rows
}

// Metadata preservation: unknown cell and notebook metadata survive.
func TestSeedMetadataPreservation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, note, _, _, _ := seedDialog()
	note.Meta = map[string]any{"my_app_flag": map[string]any{"level": 3}}
	d.Meta = map[string]any{"my_app": map[string]any{"version": 1}}
	if err := writeIn(d, dir); err != nil {
		t.Fatal(err)
	}
	back, err := convert.ReadFile(filepath.Join(dir, "dlg"), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Objects and arrays of unknown metadata come back as their JSON text.
	decoded := func(x any) any {
		raw, ok := x.(json.RawMessage)
		if !ok {
			t.Fatalf("%T, not json.RawMessage", x)
		}
		g, err := nbformat.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if diff := cmp.Diff(map[string]any{"level": 3}, decoded(back.Messages[0].Meta["my_app_flag"])); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(map[string]any{"version": 1}, decoded(back.Meta["my_app"])); diff != "" {
		t.Error(diff)
	}
}

// Round-trip fidelity: every shipped notebook reproduces exactly.
func TestSeedRoundTripFidelity(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nbformat.Validate(nb) != nil {
			continue // invalid files are healed, not preserved
		}
		d, err := convert.ReadFile(p, convert.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: not byte-identical", p)
		}
	}
}

// Schema-invalid files are healed: the content survives, the invalidity
// does not.
func TestSeedHealing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	badCells := []any{map[string]any{"cell_type": "markdown", "id": "aaaa1111", "metadata": map[string]any{}, "source": "hi", "outputs": []any{}}}
	raw, _ := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": badCells})
	path := filepath.Join(dir, "bad.ipynb")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if nbformat.Validate(nb) == nil {
		t.Fatal("the bad notebook validates")
	}
	d, err := convert.ReadFile(filepath.Join(dir, "bad"), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	healed, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := nbformat.Unmarshal(healed)
	if err != nil {
		t.Fatal(err)
	}
	if err := nbformat.Validate(back); err != nil {
		t.Errorf("healed notebook invalid: %v", err)
	}
	if !bytes.Contains(healed, []byte("hi")) {
		t.Error("content lost")
	}
}
