package convert

// Tests that sameAsTyped answers as jsonvalue.Equal does against metaMap's
// object.

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// sameAsTyped answers as jsonvalue.Equal does against metaMap's object
// (the reference): for every corpus notebook's and cell's metadata and
// metadata built to hold every kind of typed member (required strings
// empty or not, shadowed extra keys, NaN, nested plans), compared with
// that object copied and with each of its copies changed one way (a key
// deleted, set to another value or to the same number of another type,
// a key added, a nested object's key changed or deleted); and it reads
// (ok) exactly the metadata nbmap.MetaMap reads.
func TestSameAsTypedMatchesEqual(t *testing.T) {
	t.Parallel()
	yes, s, one, half, nan := true, "x", 1, 0.5, math.NaN()
	raw := json.RawMessage(`{"a": [1, 2]}`)
	var mds []any
	for _, extra := range []map[string]any{nil, {}, {"k": 1, "s": "v", "b": true, "n": nil, "f": 1.5, "r": raw},
		{"collapsed": "shadowed", "name": 2, "kernelspec": 3, "title": "t"}, {"m": map[string]any{"x": 1}}} {
		mds = append(mds,
			&nbformat.CodeCellMetadata{AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Collapsed: &yes, Name: &s, Scrolled: "auto", AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: raw, Execution: &nbformat.CodeCellMetadataExecution{IopubStatusBusy: &s}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Jupyter: &nbformat.CodeCellMetadataJupyter{SourceHidden: &yes, AdditionalProperties: extra}},
			&nbformat.CodeCellMetadata{Tags: []string{"a"}, AdditionalProperties: extra},
			&nbformat.MarkdownCellMetadata{Name: &s, AdditionalProperties: extra},
			&nbformat.RawCellMetadata{Format: &s, AdditionalProperties: extra},
			&nbformat.NotebookMetadata{AdditionalProperties: extra},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{Name: "python3", AdditionalProperties: extra}, OrigNbformat: &one, Title: &s, AdditionalProperties: extra},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{AdditionalProperties: map[string]any{"name": 5, "display_name": ""}}},
			&nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{DisplayName: "Py", AdditionalProperties: map[string]any{"name": 5, "display_name": 1}}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{Name: "python", CodemirrorMode: half, AdditionalProperties: extra}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{CodemirrorMode: nan}},
			&nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{Name: "py", CodemirrorMode: "m", FileExtension: &s,
				AdditionalProperties: map[string]any{"codemirror_mode": 1, "file_extension": 2, "mimetype": 3}}},
			&nbformat.NotebookMetadata{Authors: []nbformat.Author{{}}, AdditionalProperties: extra},
		)
	}
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		mds = append(mds, &nb.Metadata)
		for _, c := range nb.Cells {
			switch c := c.(type) {
			case *nbformat.CodeCell:
				mds = append(mds, &c.Metadata)
			case *nbformat.MarkdownCell:
				mds = append(mds, &c.Metadata)
			case *nbformat.RawCell:
				mds = append(mds, &c.Metadata)
			}
		}
		_ = e
	}
	checked, typed := 0, 0
	for i, md := range mds {
		ref, _, fast, err := metaMapFast(md)
		if err != nil {
			t.Fatal(err)
		}
		for j, m := range metaVariants(ref) {
			same, ok := sameAsTyped(m, md)
			if ok != fast {
				t.Fatalf("metadata %d (%T): sameAsTyped reads it: %v, MetaMap: %v", i, md, ok, fast)
			}
			if !ok {
				continue
			}
			checked++
			if want := jsonvalue.Equal(m, ref); same != want {
				t.Errorf("metadata %d (%T), variant %d %v: sameAsTyped %v, jsonvalue.Equal %v (reference %v)", i, md, j, m, same, want, ref)
			}
		}
		if fast {
			typed++
		}
	}
	t.Logf("%d metadata read by MetaMap, %d comparisons", typed, checked)
}

// metaVariants returns copies of ref: one as it is, and one per change.
func metaVariants(ref map[string]any) []map[string]any {
	out := []map[string]any{cloneObject(ref)}
	add := func(change func(m map[string]any)) {
		m := cloneObject(ref)
		if m == nil {
			m = map[string]any{}
		}
		change(m)
		out = append(out, m)
	}
	add(func(m map[string]any) { m["__added"] = true })
	for k, v := range ref {
		add(func(m map[string]any) { delete(m, k) })
		add(func(m map[string]any) { m[k] = "__other" })
		add(func(m map[string]any) { m[k] = nil })
		switch v := v.(type) {
		case int:
			add(func(m map[string]any) { m[k] = float64(v) })
		case float64:
			add(func(m map[string]any) { m[k] = int(v) })
		case bool:
			add(func(m map[string]any) { m[k] = !v })
		case json.RawMessage:
			add(func(m map[string]any) { m[k] = json.RawMessage(string(v) + " ") })
			add(func(m map[string]any) { m[k] = json.RawMessage(nil) })
		case map[string]any:
			add(func(m map[string]any) { m[k].(map[string]any)["__added"] = 1 })
			add(func(m map[string]any) { m[k] = fmt.Sprint(v) })
			for kk := range v {
				add(func(m map[string]any) { delete(m[k].(map[string]any), kk) })
				add(func(m map[string]any) { m[k].(map[string]any)[kk] = "__other" })
			}
		}
	}
	return out
}
