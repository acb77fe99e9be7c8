package nbformat

import (
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// BenchmarkUneditedCheck measures, over every corpus notebook under
// 20 KB (one op being all of them), what deciding that a notebook just
// read is unedited costs: Take is the snapshot taken when reading, Match
// the check against it (Validate and Marshal each make one), Walk the
// reflective walk that decided it before (and still decides for edited
// notebooks).
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
	// Into room of the size reading gives it, as reading does.
	rooms := map[*Notebook][]byte{}
	regions := map[*Notebook][]snapRegion{}
	for _, nb := range nbs {
		rooms[nb] = make([]byte, snapRoom(len(nb.src.tape.Nodes)))
		regions[nb] = slices.Clone(nb.src.snap.regions)
	}
	run("Take", func(nb *Notebook) {
		var s snapshot
		s.take(&nb.Document, nb.src.tape.Data, rooms[nb], regions[nb])
	})
	run("Match", func(nb *Notebook) {
		if !nb.src.snap.matches(&nb.Document) {
			b.Fatal("no match")
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
