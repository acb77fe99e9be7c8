package convert_test

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
)

// BenchmarkSmallV4 is BenchmarkSmallCorpus's Unmarshal, Marshal and
// RoundTrip on the version 4 notebooks only (the version 3 ones take the
// upgrade's path): the per-message costs of reading a version 4 dialog and
// of checking it unchanged. It is skipped without the shared corpus.
func BenchmarkSmallV4(b *testing.B) {
	var files [][]byte
	var dialogs []*dialog.Dialog
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 || !bytes.Contains(data, []byte(`"nbformat": 4`)) {
			continue
		}
		d, err := convert.Unmarshal(data)
		if err != nil {
			continue
		}
		files = append(files, data)
		dialogs = append(dialogs, d)
	}
	if len(files) == 0 {
		b.Skip("no small version 4 dialog in the corpus")
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range files {
					f(i)
				}
			}
			b.ReportMetric(float64(len(files)), "files")
		})
	}
	run("Unmarshal", func(i int) {
		if _, err := convert.Unmarshal(files[i]); err != nil {
			b.Fatal(err)
		}
	})
	run("Marshal", func(i int) {
		if _, err := convert.Marshal(dialogs[i]); err != nil {
			b.Fatal(err)
		}
	})
	run("RoundTrip", func(i int) {
		d, err := convert.Unmarshal(files[i])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Marshal(d); err != nil {
			b.Fatal(err)
		}
	})
}
