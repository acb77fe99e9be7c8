package nbformat_test

// Benchmarks of reading, validating and writing the testdata notebooks.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Benchmarks run over testdata/*.ipynb and the files named in
// IPYNB_BENCH_FILES (separated by the OS list separator, e.g.
// IPYNB_BENCH_FILES=../../shared/bench/big-real.ipynb). BenchmarkJSONValid
// is the floor: encoding/json merely scanning the same bytes. Compare with
// Python nbformat on the same files: scripts/bench-compare.

type benchFile struct {
	name string
	data []byte
}

func benchFiles(b *testing.B) []benchFile {
	b.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	var files []benchFile
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".ipynb")
		files = append(files, benchFile{name, data})
	}
	return files
}

func benchEach(b *testing.B, f func(b *testing.B, data []byte)) {
	for _, bf := range benchFiles(b) {
		b.Run(bf.name, func(b *testing.B) {
			b.SetBytes(int64(len(bf.data)))
			b.ReportAllocs()
			f(b, bf.data)
		})
	}
}

// BenchmarkRoundTrip is Unmarshal + Validate + Marshal.
func BenchmarkRoundTrip(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = nbformat.Validate(nb)
			if _, err := nbformat.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkJSONValid(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			if !json.Valid(data) && !strings.Contains(string(data), "NaN") {
				b.Fatal("invalid")
			}
		}
	})
}

func BenchmarkUnmarshal(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			if _, err := nbformat.Unmarshal(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValidate validates one unedited notebook again and again: the
// problems of the bytes read are found once, so this is the unedited check
// (see BenchmarkValidateFirst for the first validation).
func BenchmarkValidate(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			_ = nbformat.Validate(nb)
		}
	})
}

// BenchmarkValidateFirst is the first Validate of a notebook just read.
func BenchmarkValidateFirst(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			b.StopTimer()
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			_ = nbformat.Validate(nb)
		}
	})
}

func BenchmarkMarshal(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := nbformat.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMarshalEdited marshals after editing the middle cell (the
// layout-preserving path rather than the unchanged fast path).
func BenchmarkMarshalEdited(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		if len(nb.Cells) == 0 {
			b.Skip("no cells")
		}
		if c, ok := nb.Cells[len(nb.Cells)/2].(*nbformat.CodeCell); ok {
			c.Source.Set("edited")
		} else if m, ok := nb.Cells[len(nb.Cells)/2].(*nbformat.MarkdownCell); ok {
			m.Source.Set("edited")
		}
		for b.Loop() {
			if _, err := nbformat.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMarshalCanonical(b *testing.B) {
	benchEach(b, func(b *testing.B, data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		if nb.Nbformat < 3 {
			b.Skip("no canonical form")
		}
		canonical := nbformat.MarshalOptions{Canonical: true}
		for b.Loop() {
			if _, err := canonical.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		}
	})
}
