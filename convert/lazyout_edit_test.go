package convert_test

// Tests of edits of outputs read (what Python nbformat writes for the same
// edits) and of repeated cell ids in short and long notebooks.

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// outputEdits applies, with Python nbformat, the edits of
// TestReadOutputEditsMatchPython to the corpus files named, writing
// OUT/EDIT/PATH as nbformat.writes does (plus a final newline).
const outputEdits = `
import sys, os, nbformat
src, out = sys.argv[1], sys.argv[2]
for rel in sys.argv[3:]:
    with open(os.path.join(src, rel), encoding='utf-8', newline='') as f:
        text = f.read()
    for edit in ('move', 'edit', 'delete'):
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        withouts = [c for c in nb.cells if c.cell_type == 'code' and c.get('outputs')]
        a, b = withouts[0], withouts[-1]
        if edit == 'move':
            b.outputs.append(a.outputs.pop())
        elif edit == 'edit':
            s = next(o for c in withouts for o in c.outputs if o.output_type == 'stream')
            s.text = s.text + 'edited\n'
        else:
            a.outputs.pop(0)
        p = os.path.join(out, edit, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w', encoding='utf-8', newline='') as f:
            f.write(nbformat.writes(nb) + '\n')
`

// Edits of outputs read from a file, made through the dialog, write what
// Python nbformat writes for the same edits of the notebook, on every
// corpus file Python writes back unchanged: an output moved to another
// cell (written as it was read), a stream's text edited through Map and
// NewOutput, an output deleted. Only the edited cells change.
func TestReadOutputEditsMatchPython(t *testing.T) {
	t.Parallel()
	py := nbtest.NbformatPython()
	if py == "" {
		t.Skip("Python nbformat not found")
	}
	dir, entries := corpus.Entries(t)
	var paths []string
	for _, e := range entries {
		if e.Ref != "same" || e.Schema != "valid" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue // Python's edits are of version 4's cells
		}
		d, err := convert.ToDialog(nb, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a, b, s := editTargets(d.Dialog); a != nil && a != b && s != nil {
			paths = append(paths, e.Path)
		}
	}
	if !testtier.Full() && len(paths) > 20 {
		paths = paths[:20]
	}
	if len(paths) == 0 {
		t.Skip("no corpus file with outputs in two code cells and a stream")
	}
	out := t.TempDir()
	cmd := exec.Command(py, append([]string{"-c", outputEdits, dir, out}, paths...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("Python: %v\n%s", err, msg)
	}
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, edit := range []string{"move", "edit", "delete"} {
			want, err := os.ReadFile(filepath.Join(out, edit, p))
			if err != nil {
				t.Fatal(err)
			}
			d, err := convert.Unmarshal(data, convert.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a, b, s := editTargets(d.Dialog)
			switch edit {
			case "move":
				last := len(a.Outputs) - 1
				b.Outputs = append(b.Outputs, a.Outputs[last])
				a.Outputs = a.Outputs[:last]
			case "edit":
				g, err := s.msg.Outputs[s.i].Map()
				if err != nil {
					t.Fatal(err)
				}
				g["text"] = g["text"].(string) + "edited\n"
				s.msg.Outputs[s.i] = dialog.NewOutput(g)
			case "delete":
				a.Outputs = a.Outputs[1:]
			}
			got, err := convert.Marshal(d, convert.WriteOptions{})
			if err != nil {
				t.Fatalf("%s, %s: %v", p, edit, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s: differs from Python nbformat's bytes %s", p, edit, firstDiff(want, got))
			}
		}
	}
	t.Logf("%d files, 3 edits each", len(paths))
}

type outputAt struct {
	msg *dialog.Message
	i   int
}

// editTargets returns the first and last code messages with outputs and
// the first stream output.
func editTargets(d *dialog.Dialog) (first, last *dialog.Message, stream *outputAt) {
	for _, m := range d.Messages {
		if m.Kind != dialog.Code || len(m.Outputs) == 0 {
			continue
		}
		if first == nil {
			first = m
		}
		last = m
		for i, o := range m.Outputs {
			if stream == nil && o.Type() == "stream" {
				stream = &outputAt{m, i}
			}
		}
	}
	return first, last, stream
}

// Repeated cell ids are found in short notebooks (by scanning) as in long
// ones (through a map): the first cell keeps its id, each later one gets
// the id derived from its position, kind and content (the first 8 hex
// digits of the CRC-32C of "position NUL kind NUL content").
func TestRepeatedIDsShortAndLong(t *testing.T) {
	t.Parallel()
	for _, n := range []int{10, 31, 32, 33, 100} {
		var b strings.Builder
		b.WriteString(`{"cells": [`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"cell_type": "markdown", "id": "id%d", "metadata": {}, "source": "cell %d"}`, i%7, i)
		}
		b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
		d, err := convert.Unmarshal([]byte(b.String()), convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range d.Messages {
			want := fmt.Sprintf("id%d", i%7)
			if i >= 7 {
				sum := crc32.Checksum([]byte(fmt.Sprintf("%d\x00note\x00cell %d", i, i)), crc32.MakeTable(crc32.Castagnoli))
				want = fmt.Sprintf("%08x", sum)
			}
			if m.ID != want {
				t.Errorf("%d cells: message %d has id %s, want %s", n, i, m.ID, want)
			}
		}
	}
}
