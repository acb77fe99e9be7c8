package convert_test

// Benchmarks of merging edited copies of the big notebook, beside reading and
// writing its three files.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// bigEdits returns ../shared/bench/big-real.ipynb and two edited copies:
// ours edits the first code cell's source, theirs the last markdown
// cell's and clears the outputs of the last code cell with outputs.
func bigEdits(b *testing.B) (base, ours, theirs []byte) {
	s := corpus.Shared()
	if s == "" {
		b.Skip("no ../shared/bench")
	}
	base, err := os.ReadFile(filepath.Join(s, "bench", "big-real.ipynb"))
	if err != nil {
		b.Skip(err)
	}
	edit := func(f func(d *dialog.Dialog)) []byte {
		d, err := convert.Unmarshal(base, convert.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		f(d.Dialog)
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	ours = edit(func(d *dialog.Dialog) {
		for _, m := range d.Messages {
			if m.Kind == dialog.Code {
				m.Content += "\n# edited by ours"
				return
			}
		}
	})
	theirs = edit(func(d *dialog.Dialog) {
		doneNote, doneOut := false, false
		for i := len(d.Messages) - 1; i >= 0 && !(doneNote && doneOut); i-- {
			m := d.Messages[i]
			if m.Kind == dialog.Note && !doneNote {
				m.Content = "Edited by theirs.\n" + m.Content
				doneNote = true
			}
			if m.Kind == dialog.Code && len(m.Outputs) > 0 && !doneOut {
				m.Outputs = []dialog.Output{}
				doneOut = true
			}
		}
	})
	return base, ours, theirs
}

// BenchmarkMergeBig is convert.Merge of two edited copies of the 31 MB
// benchmark notebook; compare with BenchmarkReadWrite3Big.
func BenchmarkMergeBig(b *testing.B) {
	base, ours, theirs := bigEdits(b)
	b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := merge(base, ours, theirs, dialog.MergeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Conflicts) > 0 {
			b.Fatal(res.Conflicts)
		}
	}
}

// BenchmarkReadWrite3Big reads and writes the three files of
// BenchmarkMergeBig once each, as dialogs: the yardstick of the merge.
func BenchmarkReadWrite3Big(b *testing.B) {
	base, ours, theirs := bigEdits(b)
	b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range [][]byte{base, ours, theirs} {
			d, err := convert.Unmarshal(data, convert.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadWrite3BigNotebook reads and writes the three files once
// each as notebooks (no dialogs): the stricter yardstick.
func BenchmarkReadWrite3BigNotebook(b *testing.B) {
	base, ours, theirs := bigEdits(b)
	b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range [][]byte{base, ours, theirs} {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := nbformat.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		}
	}
}
