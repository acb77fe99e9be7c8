package convert

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// smallV4 returns the corpus notebooks under 20 KB of version 4 that read
// as dialogs, parsed (skipping b without the shared corpus).
func smallV4(b *testing.B) (nbs []*nbformat.Notebook, datas [][]byte) {
	for _, data := range corpus.Files(b) {
		if len(data) >= 20<<10 || !bytes.Contains(data, []byte(`"nbformat": 4`)) {
			continue
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		if _, err := (options{}).toDialog(nb, data); err != nil {
			continue
		}
		nbs, datas = append(nbs, nb), append(datas, data)
	}
	if len(nbs) == 0 {
		b.Skip("no small version 4 dialog in the corpus")
	}
	return nbs, datas
}

// BenchmarkReadParts is the dialog layer's own part of the round trip of
// the small version 4 corpus notebooks, one op being all of them, without
// nbformat's: ToDialog reads the notebooks parsed once (messages,
// snapshots, ids, metadata), Unchanged is Marshal's check that each
// dialog read is unchanged (its messages against their snapshots), and
// NotebookMeta reads the notebooks' metadata alone.
func BenchmarkReadParts(b *testing.B) {
	nbs, datas := smallV4(b)
	ds := make([]*File, len(nbs))
	for i, nb := range nbs {
		d, err := options{}.toDialog(nb, datas[i])
		if err != nil {
			b.Fatal(err)
		}
		ds[i] = d
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range nbs {
					f(i)
				}
			}
			b.ReportMetric(float64(len(nbs)), "files")
		})
	}
	run("ToDialog", func(i int) {
		if _, err := (options{}).toDialog(nbs[i], datas[i]); err != nil {
			b.Fatal(err)
		}
	})
	run("Unchanged", func(i int) {
		if !(options{}).unchanged(ds[i].Dialog, ds[i].org) {
			b.Fatal("a dialog read is changed")
		}
	})
	run("NotebookMeta", func(i int) {
		if _, _, err := metaMap(&nbs[i].Metadata); err != nil {
			b.Fatal(err)
		}
	})
}
