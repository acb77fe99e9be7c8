package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// BenchmarkUneditedCheck measures, over every corpus notebook under
// 20 KB (one op being all of them), what deciding that a notebook just
// read is unedited costs: Generated is the comparison of codec_gen.go
// (Validate and Marshal each make one), Walk the reflective walk that
// decided it before.
func BenchmarkUneditedCheck(b *testing.B) {
	var nbs []*Notebook
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		nb, err := Unmarshal(data)
		if err != nil {
			continue
		}
		nbs = append(nbs, nb)
		total += len(data)
	}
	if len(nbs) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	run := func(name string, f func(nb *Notebook)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, nb := range nbs {
					f(nb)
				}
			}
		})
	}
	run("Generated", func(nb *Notebook) {
		if !nb.unedited() {
			b.Fatal("not equal")
		}
	})
	run("Walk", func(nb *Notebook) {
		e := nb.newEncoder()
		v := reflectDocument(nb)
		if !e.equal(v, infoOf(v.Type()), jsontree.Root) {
			b.Fatal("not equal")
		}
	})
}
