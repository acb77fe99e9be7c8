package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// BenchmarkSmallCorpusValidateTape is the validation part of the round
// trip alone: locateProblems (the schema, then unique cell ids) on the
// tapes Unmarshal reads every corpus notebook under 20 KB into, one op
// being all of them. It is skipped without the shared corpus.
func BenchmarkSmallCorpusValidateTape(b *testing.B) {
	var tapes []*jsontree.Tape
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
		if err != nil {
			continue
		}
		tapes = append(tapes, t)
		total += len(data)
	}
	if len(tapes) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range tapes {
			locateProblems(t)
		}
	}
	b.ReportMetric(float64(len(tapes)), "files")
}
