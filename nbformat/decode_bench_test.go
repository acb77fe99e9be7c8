package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// BenchmarkDecodeSmallCorpus measures the decode step alone (tape → typed
// notebook) over every corpus notebook under 20 KB, one op being all of
// them, parsed beforehand: Plan is the decoder of decode.go, Reflective
// the reflective one it replaced (decode_oracle_test.go). It is skipped
// without the shared corpus.
func BenchmarkDecodeSmallCorpus(b *testing.B) {
	var tapes []*jsontree.Tape
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		nb, err := Unmarshal(data)
		if err != nil {
			continue
		}
		tapes = append(tapes, nb.src.tape)
		total += len(data)
	}
	if len(tapes) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	run := func(name string, f func(t *jsontree.Tape)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range tapes {
					f(t)
				}
			}
		})
	}
	run("Plan", func(t *jsontree.Tape) { decodeNotebook(t) })
	run("Reflective", func(t *jsontree.Tape) {
		var doc Document
		oracleDecode(t, jsontree.Root, &doc)
	})
}
