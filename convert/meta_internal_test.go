package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/nbformat"
)

// metaMap gives what nbgeneric.ToMap gives for every cell's metadata in
// the corpus and for the zero metadata of each cell type, taking its fast
// path for empty metadata only.
func TestMetaMapMatchesToMap(t *testing.T) {
	check := func(where string, md any) bool {
		t.Helper()
		want, err := nbgeneric.ToMap(md)
		if err != nil {
			t.Fatal(err)
		}
		got, err := metaMap(md)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: metaMap differs from ToMap (-want +got):\n%s", where, diff)
		}
		if emptyStruct(md) != (len(want) == 0) {
			t.Errorf("%s: emptyStruct %v for metadata %v", where, emptyStruct(md), want)
		}
		return emptyStruct(md)
	}
	check("zero code cell metadata", &nbformat.CodeCellMetadata{})
	check("zero markdown cell metadata", &nbformat.MarkdownCellMetadata{})
	check("zero raw cell metadata", &nbformat.RawCellMetadata{})
	empty, cells := 0, 0
	for e, data := range corpus.Files(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		for _, c := range nb.Cells {
			var md any
			switch c := c.(type) {
			case *nbformat.CodeCell:
				md = &c.Metadata
			case *nbformat.MarkdownCell:
				md = &c.Metadata
			case *nbformat.RawCell:
				md = &c.Metadata
			default:
				continue
			}
			cells++
			if check(e.Path, md) {
				empty++
			}
		}
	}
	t.Logf("%d cells, %d with empty metadata", cells, empty)
}
