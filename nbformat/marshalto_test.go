package nbformat_test

// Tests of MarshalTo: the file's bytes, Python's canonical bytes, Marshal's
// bytes when edited, write errors, no copy.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestMarshalToCorpus: MarshalTo writes a corpus file read and left
// unedited back as the file's own bytes, canonical output as Python
// nbformat's (corpus-canonical), and an edited notebook as Marshal does.
func TestMarshalToCorpus(t *testing.T) {
	t.Parallel()
	canonDir := corpus.CanonicalDir(t)
	n, canon := 0, 0
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			continue
		}
		n++
		var got bytes.Buffer
		if err := (nbformat.MarshalOptions{}).MarshalTo(&got, nb); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if !nb.Edited() && !bytes.Equal(got.Bytes(), data) {
			t.Errorf("%s: unedited MarshalTo differs from the file", e.Path)
		}
		if want, err := os.ReadFile(filepath.Join(canonDir, e.Path)); err == nil {
			got.Reset()
			if err := (nbformat.MarshalOptions{Canonical: true}).MarshalTo(&got, nb); err != nil {
				t.Errorf("%s: canonical: %v", e.Path, err)
			} else if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s: canonical MarshalTo differs from Python nbformat's bytes", e.Path)
			}
			canon++
		}
		if edit(nb) {
			want, werr := nbformat.Marshal(nb)
			got.Reset()
			gerr := (nbformat.MarshalOptions{}).MarshalTo(&got, nb)
			if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s: edited: MarshalTo (%v) differs from Marshal (%v)", e.Path, gerr, werr)
			}
		}
	}
	if n == 0 || canon == 0 {
		t.Fatalf("checked %d files, %d canonical", n, canon)
	}
}

// edit changes the source of nb's first code, markdown or raw cell.
func edit(nb *nbformat.Notebook) bool {
	for _, c := range nb.Cells {
		switch c := c.(type) {
		case *nbformat.CodeCell:
			c.Source.Set(c.Source.String() + "\n# edited")
		case *nbformat.MarkdownCell:
			c.Source.Set(c.Source.String() + "\n# edited")
		case *nbformat.RawCell:
			c.Source.Set(c.Source.String() + "\n# edited")
		default:
			continue
		}
		return true
	}
	return false
}

// errWriter fails every write.
type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

// TestMarshalToWriteError: a failing writer's error comes back wrapped.
func TestMarshalToWriteError(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk full")
	nb, err := nbformat.Unmarshal(readTestdata(t, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []nbformat.MarshalOptions{{}, {Canonical: true}} {
		err := o.MarshalTo(errWriter{boom}, nb)
		if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "nbformat: ") {
			t.Errorf("canonical=%v: got %v, want a wrapped %v", o.Canonical, err, boom)
		}
	}
	err = (nbformat.MarshalOptions{}).MarshalTo(errWriter{boom}, nbformat.New())
	if !errors.Is(err, boom) {
		t.Errorf("new notebook: got %v", err)
	}
}

// TestMarshalToNoCopy: writing an unedited notebook allocates no copy of
// it (Marshal allocates the whole file on top of what MarshalTo does).
func TestMarshalToNoCopy(t *testing.T) {
	var allocs []uint64
	for _, cells := range []int{500, 1000, 2000} {
		data := bigNotebook(t, cells)
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		var w countWriter
		got := allocated(func() {
			if err := (nbformat.MarshalOptions{}).MarshalTo(&w, nb); err != nil {
				t.Fatal(err)
			}
		})
		if w.n != len(data) {
			t.Fatalf("%d cells: wrote %d bytes, want %d", cells, w.n, len(data))
		}
		whole := allocated(func() {
			if _, err := nbformat.Marshal(nb); err != nil {
				t.Fatal(err)
			}
		})
		// The walk that finds the notebook unedited allocates per value,
		// not per byte; the copy of the file is what Marshal adds.
		if got > uint64(len(data))/4 || whole < got+uint64(len(data)) {
			t.Errorf("%d cells (%d bytes): MarshalTo allocated %d bytes, Marshal %d", cells, len(data), got, whole)
		}
		allocs = append(allocs, got)
	}
	t.Logf("bytes allocated for 500/1000/2000 cells: %v", allocs)
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// bigNotebook returns a notebook of n code cells with 2 KB outputs, written in
// the style of a file (indent 2) by hand, not by the code under test.
func bigNotebook(t testing.TB, n int) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("{\n  \"cells\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `    {"cell_type": "code", "execution_count": %d, "id": "c%07d", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["line %d\n", "%s\n"]}], "source": ["x = %d\n", "print(x)"]}`, i+1, i, i, strings.Repeat("more ", 400), i)
	}
	b.WriteString("\n  ],\n  \"metadata\": {},\n  \"nbformat\": 4,\n  \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BenchmarkMarshalTo writes an unedited notebook to a writer that
// discards it: Marshal's work without the copy of the file.
func BenchmarkMarshalTo(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		var w countWriter
		for b.Loop() {
			if err := (nbformat.MarshalOptions{}).MarshalTo(&w, nb); err != nil {
				b.Fatal(err)
			}
		}
	})
}
