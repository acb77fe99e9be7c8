package nbformat_test

import (
	"io"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// BenchmarkUneditedSmallCorpus measures, over every corpus notebook under
// 20 KB (one op being all of them), the calls whose cost for an unedited
// notebook is mostly the unedited check: Edited, Validate (the bytes read
// being validated once, then remembered), Marshal and MarshalTo of
// notebooks already read; and Unmarshal, which takes the snapshot the
// check compares with.
func BenchmarkUneditedSmallCorpus(b *testing.B) {
	var files [][]byte
	var nbs []*nbformat.Notebook
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			continue
		}
		_ = nbformat.Validate(nb)
		files = append(files, data)
		nbs = append(nbs, nb)
		total += len(data)
	}
	if len(nbs) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for i := range nbs {
					f(i)
				}
			}
		})
	}
	run("Unmarshal", func(i int) {
		if _, err := nbformat.Unmarshal(files[i]); err != nil {
			b.Fatal(err)
		}
	})
	run("Edited", func(i int) {
		if nbs[i].Edited() {
			b.Fatal("edited")
		}
	})
	run("Validate", func(i int) { _ = nbformat.Validate(nbs[i]) })
	run("Marshal", func(i int) {
		if _, err := nbformat.Marshal(nbs[i]); err != nil {
			b.Fatal(err)
		}
	})
	run("MarshalTo", func(i int) {
		if err := (nbformat.MarshalOptions{}).MarshalTo(io.Discard, nbs[i]); err != nil {
			b.Fatal(err)
		}
	})
}
