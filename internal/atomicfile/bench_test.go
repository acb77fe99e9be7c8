package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRead reads a 1 MB file with its stamp.
func BenchmarkRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "a.ipynb")
	data := bytes.Repeat([]byte("x"), 1<<20)
	if _, err := Replace(path, data, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Read(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplace replaces a 1 MB file read before, with every check
// (lock, identity, content: the file is always recent, so in doubt).
func BenchmarkReplace(b *testing.B) {
	path := filepath.Join(b.TempDir(), "a.ipynb")
	data := bytes.Repeat([]byte("x"), 1<<20)
	st, err := Replace(path, data, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if st, err = Replace(path, data, Options{Expect: st}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFile is os.ReadFile on the same file, for comparison.
func BenchmarkReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "a.ipynb")
	data := bytes.Repeat([]byte("x"), 1<<20)
	if _, err := Replace(path, data, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
