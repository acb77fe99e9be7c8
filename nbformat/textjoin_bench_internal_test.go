package nbformat

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// BenchmarkWriteJoined is WriteJoined of the sources of the small corpus
// notebooks that it decodes (lines to join, or escapes), one op being all
// of them: the texts' part of reading a dialog. It is skipped without the
// shared corpus.
func BenchmarkWriteJoined(b *testing.B) {
	var raws [][]byte
	total := 0
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		nb, err := Unmarshal(data)
		if err != nil {
			continue
		}
		for _, c := range nb.Cells {
			src := SourceOf(c)
			if src.raw == nil {
				continue
			}
			if _, shared := nbstyle.Unescaped(src.raw); shared {
				continue
			}
			raws = append(raws, src.raw)
			total += len(src.raw)
		}
	}
	if len(raws) == 0 {
		b.Skip("no corpus")
	}
	var sb strings.Builder
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		sb = strings.Builder{}
		sb.Grow(total)
		for _, raw := range raws {
			nbstyle.WriteJoined(&sb, raw)
		}
	}
	b.ReportMetric(float64(len(raws)), "texts")
}
