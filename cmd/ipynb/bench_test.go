package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchFiles runs run as a sub-benchmark over testdata/*.ipynb and the
// files in IPYNB_BENCH_FILES, reporting bytes and allocations.
func benchFiles(b *testing.B, run func(b *testing.B, path string)) {
	paths, _ := filepath.Glob(filepath.Join(shipped, "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			run(b, p)
		})
	}
}

// BenchmarkCheck is the work of 'ipynb check FILE' (read, validate, the
// notebook and the dialog round trips), over testdata/*.ipynb and the
// files in IPYNB_BENCH_FILES.
func BenchmarkCheck(b *testing.B) {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	benchFiles(b, func(b *testing.B, p string) {
		for b.Loop() {
			if r := check(e, input{path: p}); r.io {
				b.Fatal(r.Detail)
			}
		}
	})
}

// BenchmarkShow is the work of 'ipynb show FILE' (read, the dialog, the
// summary with each message's outputs sized), over testdata/*.ipynb and
// the files in IPYNB_BENCH_FILES.
func BenchmarkShow(b *testing.B) {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	benchFiles(b, func(b *testing.B, p string) {
		for b.Loop() {
			if st := runShow(e, []string{p}); st != exitOK {
				b.Fatalf("exit %d", st)
			}
		}
	})
}
