package convert_test

// Tests that ToNotebook and nbformat's MarshalTo write what Marshal returns for
// every corpus dialog.

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestCorpusDialogMarshalTo: ToNotebook and nbformat's MarshalTo (the way
// to write a dialog to an io.Writer) write what Marshal returns for every
// corpus dialog: a valid notebook's own bytes unedited, the healed
// notebook for an invalid one, and the same bytes after an edit.
func TestCorpusDialogMarshalTo(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			continue
		}
		for step := range 2 {
			if step == 1 {
				if len(d.Messages) == 0 {
					break
				}
				d.Messages[0].Content += "\nedited"
			}
			want, werr := convert.Marshal(d, convert.WriteOptions{})
			var got bytes.Buffer
			gerr := marshalTo(&got, d)
			if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s (step %d): MarshalTo (%v) differs from Marshal (%v)", e.Path, step, gerr, werr)
			}
			if step == 0 && e.Schema == "valid" && !bytes.Equal(got.Bytes(), data) {
				t.Errorf("%s: unedited MarshalTo differs from the file %s", e.Path, firstDiff(data, got.Bytes()))
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("no corpus dialogs")
	}
}

// marshalTo writes d to w: ToNotebook, then nbformat's MarshalTo.
func marshalTo(w io.Writer, d *convert.File) error {
	nb, err := convert.ToNotebook(d, convert.WriteOptions{})
	if err != nil {
		return err
	}
	return nbformat.MarshalOptions{}.MarshalTo(w, nb)
}

// BenchmarkMarshalTo is convert.Unmarshal + marshalTo (to a writer that
// discards) of an unedited dialog: BenchmarkRoundTrip without the copy of
// the file that Marshal returns.
func BenchmarkMarshalTo(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
			continue
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := convert.Unmarshal(data, convert.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := marshalTo(io.Discard, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
