package nbformat

import (
	"encoding/json"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
)

// BenchmarkSmallCorpusParse is the first step of Unmarshal alone: the
// shaped parse of every corpus notebook under 20 KB (one op parsing each
// once), beside json.Valid on the same bytes. It is skipped without the
// shared corpus.
func BenchmarkSmallCorpusParse(b *testing.B) {
	var files [][]byte
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		if _, err := Unmarshal(data); err != nil {
			continue
		}
		files = append(files, data)
		total += len(data)
	}
	if len(files) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	lim := jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth, MaxNodes: nblimits.DefaultMaxValues, MaxString: nblimits.DefaultMaxString}
	run := func(name string, f func(data []byte)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					f(data)
				}
			}
		})
	}
	run("ParseShaped", func(data []byte) {
		if _, err := jsontree.ParseShaped(data, lim, notebookShape()); err != nil {
			b.Fatal(err)
		}
	})
	run("JSONValid", func(data []byte) { json.Valid(data) })
}
