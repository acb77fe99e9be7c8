package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheck is the work of 'ipynb check FILE' (read, validate, the
// notebook and the dialog round trips), over testdata/*.ipynb and the
// files in IPYNB_BENCH_FILES.
func BenchmarkCheck(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(shipped, "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			for b.Loop() {
				if r := check(e, input{path: p}); r.io {
					b.Fatal(r.Detail)
				}
			}
		})
	}
}
