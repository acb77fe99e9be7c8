package convert_test

// Benchmarks of the dialog round trip on testdata files, small corpus notebooks
// and the corpus's size classes.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// BenchmarkRoundTrip is convert.Unmarshal + Marshal of an unedited dialog,
// over testdata/*.ipynb and the files in IPYNB_BENCH_FILES.
func BenchmarkRoundTrip(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
			continue // not a dialog (invalid files are healed, so they differ)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := convert.Unmarshal(data, convert.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSmallCorpus is the dialog round trip of every unedited corpus
// notebook under 20 KB, one op being all of them: the per-file fixed cost
// of the dialog layer (issue 13). RoundTrip is convert.Unmarshal +
// Marshal, Unmarshal and Marshal each alone (Marshal of the dialogs read
// once), ToNotebookMarshal ToNotebook + nbformat.Marshal of the dialogs
// read, EditedMarshal Marshal of the dialogs with their first message
// changed, InvalidRoundTrip the round trip of the invalid notebooks alone
// (written through Heal), and V4/... Unmarshal, Marshal and RoundTrip of
// the version 4 ones alone. It is skipped without the shared corpus.
func BenchmarkSmallCorpus(b *testing.B) {
	var files [][]byte
	var dialogs []*convert.File
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			continue
		}
		files = append(files, data)
		dialogs = append(dialogs, d)
	}
	if len(files) == 0 {
		b.Skip("no small dialog in the corpus")
	}
	all := make([]int, len(files))
	for i := range all {
		all[i] = i
	}
	// runOn benchmarks f over the files of the indexes idx.
	runOn := func(name string, idx []int, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			n := 0
			for _, i := range idx {
				n += len(files[i])
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				for _, i := range idx {
					f(i)
				}
			}
			b.ReportMetric(float64(len(idx)), "files")
		})
	}
	run := func(name string, f func(i int)) { runOn(name, all, f) }
	roundTrip := func(i int) {
		d, err := convert.Unmarshal(files[i], convert.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	unmarshal := func(i int) {
		if _, err := convert.Unmarshal(files[i], convert.ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	marshal := func(i int) {
		if _, err := convert.Marshal(dialogs[i], convert.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	run("RoundTrip", roundTrip)
	// The version 4 notebooks alone (the version 3 ones take a path of
	// their own): the per-message costs of reading a version 4 dialog and
	// of checking it unchanged.
	var v4 []int
	for i, data := range files {
		if bytes.Contains(data, []byte(`"nbformat": 4`)) {
			v4 = append(v4, i)
		}
	}
	runOn("V4/Unmarshal", v4, unmarshal)
	runOn("V4/Marshal", v4, marshal)
	runOn("V4/RoundTrip", v4, roundTrip)
	// The round trip of the invalid ones alone (their dialogs are written
	// through Heal).
	var invalid []int
	for i, data := range files {
		if nb, err := nbformat.Unmarshal(data); err == nil && nbformat.Validate(nb) != nil {
			invalid = append(invalid, i)
		}
	}
	runOn("InvalidRoundTrip", invalid, roundTrip)
	run("Unmarshal", unmarshal)
	run("Marshal", marshal)
	// The unchanged dialogs written as Options.Marshal advises for an
	// io.Writer: ToNotebook, then nbformat's writer (which finds the
	// notebook unedited).
	run("ToNotebookMarshal", func(i int) {
		nb, err := convert.ToNotebook(dialogs[i], convert.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := nbformat.Marshal(nb); err != nil {
			b.Fatal(err)
		}
	})
	// Marshal of each dialog with its first message changed (read again
	// for it): written through nbformat.Marshal, which finds the cells
	// left unedited.
	edited := make([]*convert.File, len(files))
	for i, data := range files {
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Messages) > 0 {
			d.Messages[0].Content += "\nedited"
		}
		edited[i] = d
	}
	run("EditedMarshal", func(i int) {
		if _, err := convert.Marshal(edited[i], convert.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkCorpusBucket is the dialog round trip (convert.Unmarshal +
// Marshal) of the unedited corpus notebooks of each size class of issue
// 13 (benchrun -buckets), one op being all the files of the class, beside
// the nbformat round trip (Unmarshal + Validate + Marshal) and the floor,
// encoding/json scanning the same bytes. The Cold variants collect garbage
// before each file (timer stopped), as benchrun -buckets and
// scripts/bench-compare do, so that the costs of a heap just collected
// (span caches emptied, pools halved, stacks shrunk) are in every file's
// time. It is skipped without the shared corpus.
func BenchmarkCorpusBucket(b *testing.B) {
	type bucket struct {
		name     string
		from, to int
		files    [][]byte
		total    int
	}
	buckets := []*bucket{
		{name: "Under20KB", from: 0, to: 20e3},
		{name: "20KBto200KB", from: 20e3, to: 200e3},
		{name: "200KBto2MB", from: 200e3, to: 2e6},
		{name: "Over2MB", from: 2e6, to: 1 << 62},
	}
	for _, data := range corpus.Files(b) {
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
			continue
		}
		for _, k := range buckets {
			if len(data) >= k.from && len(data) < k.to {
				k.files = append(k.files, data)
				k.total += len(data)
			}
		}
	}
	for _, k := range buckets {
		if len(k.files) == 0 {
			continue
		}
		run := func(name string, f func(data []byte)) {
			b.Run(k.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(k.total))
				b.ReportAllocs()
				for b.Loop() {
					for _, data := range k.files {
						f(data)
					}
				}
				b.ReportMetric(float64(len(k.files)), "files")
			})
			b.Run(k.name+"/Cold"+name, func(b *testing.B) {
				b.SetBytes(int64(k.total))
				b.ReportAllocs()
				for b.Loop() {
					for _, data := range k.files {
						b.StopTimer()
						runtime.GC()
						b.StartTimer()
						f(data)
					}
				}
				b.ReportMetric(float64(len(k.files)), "files")
			})
		}
		run("Dialog", func(data []byte) {
			d, err := convert.Unmarshal(data, convert.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		})
		run("Nbformat", func(data []byte) {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = nbformat.Validate(nb)
			if _, err := nbformat.Marshal(nb); err != nil {
				b.Fatal(err)
			}
		})
		run("JSONValid", func(data []byte) { json.Valid(data) })
	}
}
