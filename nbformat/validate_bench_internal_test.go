package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// BenchmarkSmallCorpusValidateTape measures the validation part of the
// round trip, locateProblems (the schema, then unique cell ids), over
// every corpus notebook under 20 KB, one op being all of them. Validation
// follows the parse that built the tape, whose bytes are then in cache,
// so it is measured that way: ParseValidate parses (as Unmarshal does)
// and validates, Parse only parses; validating costs the difference.
// Validate alone validates tapes parsed beforehand (from memory, not
// cache), ValidateTwice validates each twice in a row (the second time
// from cache: it costs the difference). It is skipped without the shared
// corpus.
func BenchmarkSmallCorpusValidateTape(b *testing.B) {
	var files [][]byte
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
		files = append(files, data)
		tapes = append(tapes, t)
		total += len(data)
	}
	if len(files) == 0 {
		b.Skip("no small notebook in the corpus")
	}
	parse := func(data []byte) *jsontree.Tape {
		t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	run := func(name string, f func(k int)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for k := range files {
					f(k)
				}
			}
			b.ReportMetric(float64(len(files)), "files")
		})
	}
	run("Parse", func(k int) { parse(files[k]) })
	run("ParseValidate", func(k int) { locateProblems(parse(files[k])) })
	run("Validate", func(k int) { locateProblems(tapes[k]) })
	run("ValidateTwice", func(k int) { locateProblems(tapes[k]); locateProblems(tapes[k]) })
}
