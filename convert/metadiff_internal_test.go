package convert

// The generated metadata views (nbmap.MetaMap, nbmap.MetaEqual) against
// the reflective plans they replace (fastMeta, sameAsTyped).

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// nbmap.MetaMap gives what fastMeta gives (the map, whether the extra
// keys' map is shared, and whether it reads the metadata at all), and
// nbmap.MetaEqual answers as sameAsTyped does for that map and each of
// its changed copies, for every cell's and notebook's metadata of
// testdata and the whole corpus (read as a dialog is, version 3 upgraded)
// and for metadata built to hold every kind of typed member, set and not,
// mistyped extra values and nested raw JSON.
func TestGeneratedMetaMatchesPlans(t *testing.T) {
	yes, no, s, empty, one, half, nan := true, false, "x", "", 1, 0.5, math.NaN()
	raw := json.RawMessage(`{"a": [1, 2]}`)
	extras := []map[string]any{nil, {}, {"k": 1, "s": "v", "b": true, "n": nil, "f": 1.5, "r": raw},
		{"collapsed": "shadowed", "name": 2, "kernelspec": 3, "title": "t", "display_name": 4, "tags": raw, "format": false},
		{"m": map[string]any{"x": 1}}, {"l": []any{1}}, {"r": json.RawMessage(nil)}, {"i8": int8(3)}, {"f32": float32(0.1)},
		{"nested": json.RawMessage(`{"a": {"b": [{"c": null}]}}`)}}
	var mds []any
	for _, extra := range extras {
		mds = append(mds,
			&nbformat.CodeCellMetadata{AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Collapsed: &yes, Name: &s, Scrolled: "auto", AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Collapsed: &no, Scrolled: false, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: raw, Execution: &nbformat.CodeCellMetadataExecution{IopubStatusBusy: &s, AdditionalProperties: extra}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: one, Name: &empty},
			&nbformat.CodeCellMetadata{Scrolled: half, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: nan},
			&nbformat.CodeCellMetadata{Scrolled: map[string]any{"x": 1}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: json.RawMessage(nil)},
			&nbformat.CodeCellMetadata{Jupyter: &nbformat.CodeCellMetadataJupyter{SourceHidden: &yes, OutputsHidden: &no, AdditionalProperties: extra}},
			&nbformat.CodeCellMetadata{Tags: []string{"a"}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Tags: []string{}},
			&nbformat.MarkdownCellMetadata{AdditionalProperties: extra},
			&nbformat.MarkdownCellMetadata{Name: &s, Jupyter: &nbformat.MarkdownCellMetadataJupyter{SourceHidden: &yes}, AdditionalProperties: extra},
			&nbformat.RawCellMetadata{AdditionalProperties: extra},
			&nbformat.RawCellMetadata{Format: &s, Jupyter: &nbformat.RawCellMetadataJupyter{AdditionalProperties: extra}, AdditionalProperties: extra},
			&nbformat.NotebookMetadata{AdditionalProperties: extra},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{Name: "python3", AdditionalProperties: extra}, OrigNbformat: &one, Title: &s, AdditionalProperties: extra},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{AdditionalProperties: map[string]any{"name": 5, "display_name": ""}}},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{DisplayName: "Py", AdditionalProperties: map[string]any{"name": 5, "display_name": 1}}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{Name: "python", CodemirrorMode: half, AdditionalProperties: extra}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{CodemirrorMode: nan}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{CodemirrorMode: map[string]any{"name": "ipython"}}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{Name: "py", CodemirrorMode: "m", FileExtension: &s, Mimetype: &empty, PygmentsLexer: &s,
				AdditionalProperties: map[string]any{"codemirror_mode": 1, "file_extension": 2, "mimetype": 3}}},
			&nbformat.NotebookMetadata{Authors: []nbformat.Author{{}}, AdditionalProperties: extra},
			&nbformat.Author{Name: &s, AdditionalProperties: extra},
		)
	}
	mds = append(mds, (*nbformat.CodeCellMetadata)(nil), (*nbformat.NotebookMetadata)(nil), nbformat.CodeCellMetadata{}, 3, nil, &nbformat.Stream{})
	read := func(data []byte) {
		d, err := Unmarshal(data)
		if err != nil {
			return
		}
		work := d.org.work
		mds = append(mds, &work.Metadata)
		for _, c := range work.Cells {
			switch c := c.(type) {
			case *nbformat.CodeCell:
				mds = append(mds, &c.Metadata)
			case *nbformat.MarkdownCell:
				mds = append(mds, &c.Metadata)
			case *nbformat.RawCell:
				mds = append(mds, &c.Metadata)
			}
		}
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		read(data)
	}
	for _, data := range corpus.Files(t) {
		read(data)
	}
	nread, compared := 0, 0
	for i, md := range mds {
		where := fmt.Sprintf("metadata %d (%T)", i, md)
		want, wantSame, wantOK := fastMeta(md)
		got, gotSame, gotOK := nbmap.MetaMap(md)
		if gotOK != wantOK {
			t.Fatalf("%s: MetaMap reads it: %v, the plans: %v", where, gotOK, wantOK)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("%s: MetaMap differs from the plans (-plans +generated):\n%s", where, diff)
		}
		if (wantSame == nil) != (gotSame == nil) || wantSame != nil && fmt.Sprintf("%p", wantSame) != fmt.Sprintf("%p", gotSame) {
			t.Errorf("%s: MetaMap shares %p, the plans %p", where, gotSame, wantSame)
		}
		if !wantOK {
			if _, ok := nbmap.MetaEqual(map[string]any{}, md); ok {
				t.Errorf("%s: MetaEqual reads what the plans do not", where)
			}
			continue
		}
		nread++
		for j, m := range metaVariants(want) {
			wantEq, wantOK := sameAsTypedByPlans(m, md)
			gotEq, gotOK := nbmap.MetaEqual(m, md)
			if gotOK != wantOK || gotEq != wantEq {
				t.Errorf("%s, variant %d %v: MetaEqual %v (reads %v), sameAsTyped %v (reads %v)", where, j, m, gotEq, gotOK, wantEq, wantOK)
			}
			compared++
		}
	}
	t.Logf("%d metadata, %d read, %d comparisons", len(mds), nread, compared)
}
