package convert_test

// Tests that an edited message read with metadata the schema refuses is written
// with that metadata removed and the repair reported.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/nbformat"
)

// pyLostRaw writes, with Python nbformat, for each KEY VAL pair of its
// arguments after OUT (the Nth pair into OUT/N), in.ipynb: a notebook whose
// markdown cell has metadata the schema refuses (an array or object where
// the schema wants a string, or a string where it wants a list) — as read
// from a file Python wrote, indented — and OUT/want.ipynb: the same with
// the cell's source edited ("e" appended) and the invalid key removed, as
// nbformat.write writes it.
const pyLostRaw = `
import sys, os, nbformat
import json
args = sys.argv[2:]
for n in range(len(args) // 2):
  out = os.path.join(sys.argv[1], str(n))
  os.mkdir(out)
  key, val = args[2*n], json.loads(args[2*n+1])
  nb = nbformat.v4.new_notebook()
  nb.nbformat_minor = 4
  nb.cells.append(nbformat.v4.new_markdown_cell("x\ny"))
  nb.cells.append(nbformat.v4.new_code_cell("1"))
  for c in nb.cells:
      c.pop("id", None)
  nb.cells[0].metadata[key] = val
  with open(os.path.join(out, "in.ipynb"), "w", encoding="utf-8") as f:
      f.write(nbformat.writes(nb, version=4))
  nb.cells[0].source += "e"
  del nb.cells[0].metadata[key]
  with open(os.path.join(out, "want.ipynb"), "w", encoding="utf-8") as f:
      f.write(nbformat.writes(nb, version=4))
`

// A message read with cell metadata the schema refuses, then edited, is
// written with that metadata removed (a repair reported to Repaired, as
// for every invalidity of the file as read), whatever the file's spacing:
// the value in the message is the value read. (It was refused as a value
// the caller gave, an *Error (Op "write"), when the file held it indented:
// lostValue compared the message's compacted json.RawMessage with the
// cell's, the file's bytes, byte for byte.) Expected bytes: Python
// nbformat's write of the same edit.
func TestEditedMessageKeepsReadInvalidMetaIndented(t *testing.T) {
	t.Parallel()
	py := nbtest.NbformatPython()
	if py == "" {
		t.Skip("Python nbformat not found")
	}
	cases := []struct{ key, val string }{
		{"name", `["s", "ü"]`},
		{"name", `{"a": [1, 2]}`},
		{"tags", `{"k": "v"}`},
		{"jupyter", `[1, {"b": null}]`},
	}
	top := t.TempDir()
	args := []string{"-c", pyLostRaw, top}
	for _, c := range cases {
		args = append(args, c.key, c.val)
	}
	if msg, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("Python: %v\n%s", err, msg)
	}
	for i, c := range cases {
		dir := filepath.Join(top, strconv.Itoa(i))
		data, err := os.ReadFile(filepath.Join(dir, "in.ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "want.ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d.Messages[0].Content += "e"
		var repairs []nbformat.Repair
		got, err := convert.Marshal(d, convert.WriteOptions{Repaired: func(r nbformat.Repair) { repairs = append(repairs, r) }})
		if err != nil {
			t.Errorf("%s %s: %v", c.key, c.val, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s %s: differs from Python's write of the edit %s", c.key, c.val, firstDiff(want, got))
		}
		if len(repairs) != 1 || repairs[0].Pointer != nbformat.Pointer("/cells/0/metadata/"+c.key) {
			t.Errorf("%s %s: repairs %v, want the key's removal", c.key, c.val, repairs)
		}
	}
}
