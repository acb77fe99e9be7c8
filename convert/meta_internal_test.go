package convert

// Tests of metaMap against nbmap.ToMap on cell and notebook metadata, of
// decodeBase64 against Python's, and of metadata allocations.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// metaMap gives what nbmap.ToMap gives (the same Go types, compared
// by cmp) for every cell's metadata in the corpus, for metadata built to
// hold every kind of typed member and extra value (set, nil, scalars,
// objects, a typed member shadowing an extra key), and takes its fast
// path (no ToMap) wherever the typed members set hold scalars and the
// extra values are kept as they are: for most corpus cells.
func TestMetaMapMatchesToMap(t *testing.T) {
	t.Parallel()
	check := func(where string, md any) bool { return checkMetaMap(t, where, md) }
	yes, no, s, one, half := true, false, "x", 1, 0.5
	raw := json.RawMessage(`{"a": [1, 2]}`)
	extras := []map[string]any{nil, {}, {"k": 1, "s": "v", "b": true, "n": nil, "f": 1.5, "r": raw}, {"collapsed": "shadowed?"}, {"name": 2, "tags": raw}}
	slow := []map[string]any{{"m": map[string]any{"x": 1}}, {"l": []any{1}}, {"r": json.RawMessage(nil)}, {"i8": int8(3)}, {"f32": float32(0.1)}}
	for i, extra := range append(extras, slow...) {
		wantFast := i < len(extras)
		for j, md := range []any{
			&nbformat.CodeCellMetadata{AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Collapsed: &yes, Name: &s, Scrolled: "auto", AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Collapsed: &no, Scrolled: false, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: raw, AdditionalProperties: extra},
			&nbformat.MarkdownCellMetadata{AdditionalProperties: extra},
			&nbformat.RawCellMetadata{AdditionalProperties: extra},
		} {
			if fast := check(fmt.Sprintf("extra %d, metadata %d", i, j), md); fast != wantFast {
				t.Errorf("extra %d, metadata %d: fast path %v, want %v", i, j, fast, wantFast)
			}
		}
		for j, md := range []any{
			&nbformat.CodeCellMetadata{Tags: []string{"a"}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Jupyter: &nbformat.CodeCellMetadataJupyter{SourceHidden: &yes}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: map[string]any{"x": 1}, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: one, AdditionalProperties: extra},
			&nbformat.CodeCellMetadata{Scrolled: half, AdditionalProperties: extra},
		} {
			fast := check(fmt.Sprintf("extra %d, typed %d", i, j), md)
			if (j == 0 || j == 2) && fast {
				t.Errorf("extra %d, typed %d: fast path taken for a member only ToMap converts", i, j)
			}
		}
	}
	cells, fast := 0, 0
	for e, data := range corpus.Sample(t) {
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
				fast++
			}
		}
	}
	t.Logf("%d cells, %d by the fast path", cells, fast)
	if cells > 0 && fast < cells*9/10 {
		t.Errorf("%d of %d corpus cells by the fast path, want at least 90%%", fast, cells)
	}
}

// metaMap gives what nbmap.ToMap gives for a notebook's metadata: its
// typed members that are structs (kernelspec, language_info) read by
// their own views, their required members always there (but for an
// extra key of the name, a value of another type from an invalid file,
// while the member is empty), for every corpus notebook and for metadata
// built to hold every kind of member; the fast path is taken unless a
// member only ToMap converts is set (authors, an object kept decoded);
// and a dialog read (from testdata and the corpus) holds, and keeps as
// read, what ToMap gives.
func TestNotebookMetaMapMatchesToMap(t *testing.T) {
	t.Parallel()
	check := func(where string, md *nbformat.NotebookMetadata) bool { return checkMetaMap(t, where, md) }
	s, one := "x", 1
	raw := json.RawMessage(`{"name": "ipython", "version": 3}`)
	extras := []map[string]any{nil, {}, {"k": 1, "s": "v", "b": true, "n": nil, "f": 1.5, "r": raw}, {"kernelspec": 2, "name": 3}}
	for i, extra := range extras {
		for j, c := range []struct {
			md   nbformat.NotebookMetadata
			fast bool
		}{
			{nbformat.NotebookMetadata{}, true},
			{nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{DisplayName: "Python 3", Name: "python3", AdditionalProperties: map[string]any{"language": "python"}}}, true},
			{nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{AdditionalProperties: map[string]any{"name": 7, "display_name": "shown"}}}, true},
			{nbformat.NotebookMetadata{Kernelspec: &nbformat.Kernelspec{Name: "n", AdditionalProperties: map[string]any{"name": 7}}}, true},
			{nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{Name: "python", CodemirrorMode: raw, FileExtension: &s, Mimetype: &s, PygmentsLexer: &s,
				AdditionalProperties: map[string]any{"version": "3.11.4", "nbconvert_exporter": "python"}}}, true},
			{nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{CodemirrorMode: "python"}}, true},
			{nbformat.NotebookMetadata{LanguageInfo: &nbformat.LanguageInfo{CodemirrorMode: map[string]any{"name": "ipython"}}}, false},
			{nbformat.NotebookMetadata{Title: &s, OrigNbformat: &one, AdditionalProperties: map[string]any{"title": 5}}, true},
			{nbformat.NotebookMetadata{Authors: []nbformat.Author{{Name: &s}}}, false},
		} {
			md := c.md
			if md.AdditionalProperties == nil {
				md.AdditionalProperties = extra
			}
			if fast := check(fmt.Sprintf("extra %d, metadata %d", i, j), &md); fast != c.fast {
				t.Errorf("extra %d, metadata %d: fast path %v, want %v", i, j, fast, c.fast)
			}
		}
	}
	files, fast := 0, 0
	read := func(where string, data []byte) {
		d, err := Unmarshal(data, ReadOptions{})
		if err != nil {
			return
		}
		org := d.org
		work := org.work
		files++
		if check(where, &work.Metadata) {
			fast++
		}
		// What the dialog read holds, and keeps as read.
		want, err := nbmap.ToMap(&work.Metadata)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, d.Meta); diff != "" {
			t.Errorf("%s: the dialog's metadata differs from ToMap's (-want +got):\n%s", where, diff)
		}
		if diff := cmp.Diff(want, d.org.metaAsRead()); diff != "" {
			t.Errorf("%s: the metadata kept as read differs from ToMap's (-want +got):\n%s", where, diff)
		}
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		read(p, data)
	}
	for e, data := range corpus.Sample(t) {
		read(e.Path, data)
	}
	t.Logf("%d notebooks, %d by the fast path", files, fast)
	if files > 0 && fast < files*9/10 {
		t.Errorf("%d of %d corpus notebooks by the fast path, want at least 90%%", fast, files)
	}
}

// decodeBase64 reads what Python's base64 reads once the line breaks,
// spaces and tabs encoders put in are removed, and refuses the rest.
func TestDecodeBase64MatchesPython(t *testing.T) {
	t.Parallel()
	py := anyPython()
	if py == "" {
		t.Skip("python3 not found")
	}
	texts := []string{"aGVsbG8=", "aGVs\nbG8=", "aGVs\r\nbG8=\n", "aGVs bG8=", "aGVs\tbG8=", "aGVsbG8", "aGVsbG8=\n\n",
		"", "\n", "====", "aGVs*bG8=", "iVBORw0KGgo=\n", "aGVsbG8=aGVsbG8="}
	in, _ := json.Marshal(texts)
	out, err := exec.Command(py, "-c", `import base64, binascii, json, sys
res = []
for s in json.loads(sys.argv[1]):
    try:
        res.append(base64.b64decode("".join(s.split()), validate=True).hex())
    except (binascii.Error, ValueError):
        res.append(None)
print(json.dumps(res))`, string(in)).Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	var want []*string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(texts) {
		t.Fatalf("python3 said %s: %v", out, err)
	}
	for i, s := range texts {
		got, ok := decodeBase64(s)
		switch {
		case want[i] == nil && ok:
			t.Errorf("%q: decoded %x, Python refuses it", s, got)
		case want[i] != nil && (!ok || hex.EncodeToString(got) != *want[i]):
			t.Errorf("%q: %x (%v), Python reads %s", s, got, ok, *want[i])
		}
	}
}

// anyPython is Debian's python3 (or any python3), or "".
func anyPython() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(py); err == nil {
			return p
		}
	}
	return ""
}

// Reading a notebook's metadata shaped as most are (kernelspec,
// language_info with a codemirror_mode object, an extra key) allocates
// only its three maps (two blocks each) and the strings of its six typed
// string members: 12 allocations (it was 19 through ToMap, which boxes
// every value it converts through reflection and grows each map from
// empty).
func TestNotebookMetaAllocations(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {
		"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
		"language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py", "mimetype": "text/x-python",
			"name": "python", "nbconvert_exporter": "python", "pygments_lexer": "ipython3", "version": "3.11.4"},
		"toc": {"base_numbering": 1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	// The least of single runs: no pool is involved, but a collection
	// between runs could still charge a run with the runtime's own work.
	least := -1.0
	for range 5 {
		a := testing.AllocsPerRun(1, func() {
			if _, _, err := metaMap(&nb.Metadata); err != nil {
				t.Fatal(err)
			}
		})
		if least < 0 || a < least {
			least = a
		}
	}
	t.Logf("%.0f allocations", least)
	if least > 12 {
		t.Errorf("reading the notebook's metadata allocates %.0f times, want at most 12", least)
	}
}

// checkMetaMap fails t where metaMap's map of md differs from ToMap's (the
// reference), and reports whether metaMap took its fast path.
func checkMetaMap(t *testing.T, where string, md any) (fast bool) {
	t.Helper()
	want, err := nbmap.ToMap(md)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := metaMap(md)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: metaMap differs from ToMap (-want +got):\n%s", where, diff)
	}
	_, _, fast = nbmap.MetaMap(md)
	return fast
}
