package convert_test

// The seed's examples and its file and lookup operations, against the
// bytes and answers of the seed's own module (the oracle; see
// oracle_test.go).

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

var pyStrings = regexp.MustCompile(`'([^']*)'`)

// The seed's own example (seed_example.py), each message made in one
// statement with Make, gives the seed's bytes: dlg.write(dir) and the
// dialog with the two later prompts.
func TestOracleSeedExample(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	stdout := runOracle(t, "seed_example.py", out)
	lines := strings.Split(string(stdout), "\n")
	ids := pyStrings.FindAllStringSubmatch(lines[0], -1)
	later := strings.Fields(lines[2])
	if len(ids) != 5 || len(later) != 2 {
		t.Fatalf("seed_example.py printed %q", stdout)
	}
	id := func(i int) string { return ids[i][1] }

	d := &convert.File{Dialog: &dialog.Dialog{Name: "dlg"}}
	d.Make(dialog.Note, "A *test* dialog", dialog.MakeOptions{ID: id(0), Attachments: []dialog.Attachment{dialog.Attachment{ID: id(4), MIME: "image/png", Data: []byte("not really a png")}}})
	d.Make(dialog.Code, "1+1", dialog.MakeOptions{ID: id(1), Outputs: codeOutput("2")})
	d.Make(dialog.Prompt, "Add them.", dialog.MakeOptions{ID: id(2), Reply: "The answer is **2**."})
	if _, err := d.Make(dialog.Raw, "plain text", dialog.MakeOptions{ID: id(3)}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeIn(d, dir); err != nil {
		t.Fatal(err)
	}
	sameFile(t, filepath.Join(out, "dlg.ipynb"), filepath.Join(dir, "dlg.ipynb"))

	d.Make(dialog.Prompt, "What is 2+2?", dialog.MakeOptions{ID: later[0], Reply: "The answer is 4."})
	if _, err := d.Make(dialog.Prompt, "Hello?", dialog.MakeOptions{ID: later[1], Reply: ""}); err != nil {
		t.Fatal(err)
	}
	got, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(out, "dlg_full.ipynb"))
	if !bytes.Equal(got, want) {
		t.Errorf("dlg_full.ipynb differs from the seed's %s", firstDiff(want, got))
	}
}

func sameFile(t *testing.T, wantPath, gotPath string) {
	t.Helper()
	want, err := os.ReadFile(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(gotPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the seed's %s: %s", gotPath, wantPath, firstDiff(want, got))
	}
}

// A subset written into a folder that does not exist yet, in one call:
// the seed's dlg.write(dir, msgs=…), whose atomic save creates the
// folders.
func TestOracleWriteSubset(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	runOracle(t, "-c", `import sys
from pathlib import Path
from aidialog.dialog import *
from aidialog.ipynb import *
dlg = Dialog(name='sub', meta={'solveit_ver': 2})
a = dlg.mk_message('first', msg_type='note', id='5ab00001')
b = dlg.mk_message('1+1', msg_type='code', output=code_output('2'), id='5ab00002')
c = dlg.mk_message('Why?', msg_type='prompt', output='Because.', id='5ab00003')
j = dlg.mk_message('2+2', msg_type='code', output='[{"output_type": "execute_result", "execution_count": 2, "data": {"text/plain": "4"}, "metadata": {"x": 1.5}}]', id='5ab00004')
dlg.write(Path(sys.argv[1])/'a'/'b', msgs=[c, j, a])
dlg.write(Path(sys.argv[1])/'none', msgs=[])
`, out)
	d := &convert.File{Dialog: &dialog.Dialog{Name: "sub"}}
	d.Meta = map[string]any{"solveit_ver": 2}
	a, _ := d.Make(dialog.Note, "first", dialog.MakeOptions{ID: "5ab00001"})
	d.Make(dialog.Code, "1+1", dialog.MakeOptions{Outputs: codeOutput("2"), ID: "5ab00002"})
	c, _ := d.Make(dialog.Prompt, "Why?", dialog.MakeOptions{Reply: "Because.", ID: "5ab00003"})
	j, err := d.Make(dialog.Code, "2+2", dialog.MakeOptions{ID: "5ab00004", OutputsJSON: `[{"output_type": "execute_result", "execution_count": 2, "data": {"text/plain": "4"}, "metadata": {"x": 1.5}}]`})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeSubset(d, filepath.Join(dir, "a", "b"), []*dialog.Message{c, j, a}); err != nil {
		t.Fatal(err)
	}
	sameFile(t, filepath.Join(out, "a", "b", "sub.ipynb"), filepath.Join(dir, "a", "b", "sub.ipynb"))
	if err := writeSubset(d, filepath.Join(dir, "none"), nil); err != nil {
		t.Fatal(err)
	}
	sameFile(t, filepath.Join(out, "none", "sub.ipynb"), filepath.Join(dir, "none", "sub.ipynb"))
	if d.Path != "" {
		t.Errorf("a subset write made %s the dialog's file", d.Path)
	}
	// Whole dialogs too: Write and WriteFile create missing folders.
	if err := writeIn(d, filepath.Join(dir, "w", "x")); err != nil {
		t.Fatal(err)
	}
	if err := convert.WriteFile(d, filepath.Join(dir, "f", "g", "h.ipynb"), convert.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "w", "x", "sub.ipynb"), filepath.Join(dir, "f", "g", "h.ipynb")} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	// A folder in the way is an error, not a panic or a partial write.
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeIn(d, filepath.Join(dir, "file", "x")); err == nil || !strings.HasPrefix(err.Error(), "convert: ") {
		t.Errorf("writing under a file: %v", err)
	}
}

// read_ipynb(…, name=): the name given, else the file's stem.
func TestReadFileName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "dialog.ipynb", dir)
	d, err := convert.ReadFile(strings.TrimSuffix(path, ".ipynb"), convert.ReadOptions{Name: "renamed"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "renamed" || d.Path != path {
		t.Errorf("name %q path %q", d.Name, d.Path)
	}
	if d, _ := convert.ReadFile(path, convert.ReadOptions{}); d.Name != "dialog" {
		t.Errorf("default name %q", d.Name)
	}
}

// The seed document's other examples, against the seed's bytes: a
// bookmark attribute, metadata preservation, healing a schema-invalid file.
func TestOracleSeedDocExamples(t *testing.T) {
	t.Parallel()
	want := oracleWrite(t, `
class NoteMsg(Message): meta_attrs = dict(bookmark='bookmark')
class NoteDlg(Dialog): msg_cls = NoteMsg
dlg = NoteDlg(name='t', meta=dict(my_app=dict(version=1)))
dlg.mk_message('marked', msg_type='note', bookmark=9, id='b0000001')
m = dlg.mk_message('plain', msg_type='note', id='b0000002')
m.meta['my_app_flag'] = dict(level=3)
`)
	descs := []convert.Descriptor{{Attr: "bookmark", Key: "bookmark"}}
	d := &convert.File{Dialog: &dialog.Dialog{Name: "t"}}
	d.Meta = map[string]any{"my_app": map[string]any{"version": 1}}
	d.Make(dialog.Note, "marked", dialog.MakeOptions{ID: "b0000001", Attrs: map[string]any{"bookmark": 9}})
	d.Make(dialog.Note, "plain", dialog.MakeOptions{Meta: map[string]any{"my_app_flag": map[string]any{"level": 3}}, ID: "b0000002"})
	got, err := convert.Marshal(d, convert.WriteOptions{Descriptors: descs})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("bookmark and metadata differ from the seed's bytes %s", firstDiff(want, got))
	}

	bad := `{"cells": [{"cell_type": "markdown", "id": "aaaa1111", "metadata": {}, "source": "hi", "outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	healedWant := runOracle(t, "-c", `import sys
from aidialog.dialog import *
from aidialog.ipynb import *
sys.stdout.buffer.write(write_ipynb(reads_ipynb(sys.argv[1])).encode())`, bad)
	hd, err := convert.Unmarshal([]byte(bad), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var repairs []nbformat.Repair
	healed, err := convert.Marshal(hd, convert.WriteOptions{Repaired: func(r nbformat.Repair) { repairs = append(repairs, r) }})
	if err != nil {
		t.Fatal(err)
	}
	// The seed rewrites the file canonically; ours keeps its one-line style.
	nb, err := nbformat.Unmarshal(healed)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(canon, healedWant) {
		t.Errorf("healed notebook differs from the seed's %s", firstDiff(healedWant, canon))
	}
	if len(repairs) != 1 || repairs[0].Pointer != "/cells/0/outputs" {
		t.Errorf("repairs %v", repairs)
	}
	// Edited, the cell is written anew from its message: the stray
	// outputs are still reported, not dropped silently.
	hd.Messages[0].Content = "hi there"
	repairs = nil
	if _, err := convert.Marshal(hd, convert.WriteOptions{Repaired: func(r nbformat.Repair) { repairs = append(repairs, r) }}); err != nil {
		t.Fatal(err)
	}
	if len(repairs) != 1 || repairs[0].Pointer != "/cells/0/outputs" || !strings.Contains(repairs[0].What, "written anew") {
		t.Errorf("repairs of the edited cell %v", repairs)
	}
}
