package v3write

// Helpers of the tests: Python's reference downgrade, corpus version 3
// notebooks, upgrades and JSON comparisons.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// pyResult is what scripts/reference/v3downgrade.py reports of a file.
type pyResult struct {
	Major     *int    `json:"major"`
	Valid     *bool   `json:"valid"`
	Upgrade   *string `json:"upgrade"`
	Downgrade *string `json:"downgrade"`
	Error     *string `json:"error"`
}

// python returns Debian's Python with nbformat, skipping t without it.
func python(t testing.TB) string {
	t.Helper()
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(py); err == nil && exec.Command(p, "-c", "import nbformat").Run() == nil {
			return p
		}
	}
	t.Skip("Python nbformat not found")
	return ""
}

// reference runs scripts/reference/v3downgrade.py, in one process, on
// the files (name → bytes; names of one folder once "/" becomes "_").
func reference(t testing.TB, files map[string][]byte) map[string]pyResult {
	t.Helper()
	py := python(t)
	src, out := t.TempDir(), t.TempDir()
	flat := func(name string) string { return strings.ReplaceAll(name, "/", "_") }
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, flat(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join("..", "..", "scripts", "reference", "v3downgrade.py")
	cmd := exec.Command(py, script, src, out)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, msg)
	}
	res := make(map[string]pyResult, len(files))
	for name := range files {
		data, err := os.ReadFile(filepath.Join(out, flat(name)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r pyResult
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		res[name] = r
	}
	return res
}

// corpusV3 returns the version 3 notebooks of the shared corpus (path →
// bytes), skipping t without the corpus.
func corpusV3(t testing.TB) map[string][]byte {
	t.Helper()
	dir := corpus.Dir(t)
	files := map[string][]byte{}
	k := 0 // the version 3 files met: the tier keeps its sample of them
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ipynb") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if nb, err := nbformat.Unmarshal(data); err == nil && nb.Nbformat == 3 {
			if k++; !testtier.Sample(k - 1) {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			files[rel] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no version 3 notebooks in the corpus")
	}
	return files
}

// tryUpgrade returns the cells and metadata of the upgrade of a version
// 3 file.
func tryUpgrade(data []byte) ([]nbformat.Cell, map[string]any, error) {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		return nil, nil, err
	}
	if err := nbformat.Upgrade(nb); err != nil {
		return nil, nil, err
	}
	meta, err := nbmap.ToMap(&nb.Metadata)
	if err != nil {
		return nil, nil, err
	}
	return nb.Cells, meta, nil
}

// oursCells names each cell of cells as ours' cell at its index.
func oursCells(cells []nbformat.Cell) []Cell {
	out := make([]Cell, len(cells))
	for i, c := range cells {
		out[i] = Cell{Cell: c, From: Ours, Index: i}
	}
	return out
}

// canonicalV4 is what Python nbformat writes for the version 4 notebook
// of these cells and metadata, without cell ids (nbformat_minor 4): what
// the reference's "upgrade" of a file holding them is.
func canonicalV4(t testing.TB, cells []nbformat.Cell, meta map[string]any) []byte {
	t.Helper()
	nb := nbformat.New()
	nb.NbformatMinor = 4
	for _, c := range cells {
		c = cloneCell(t, c)
		nbformat.SetCellID(c, "")
		nb.Cells = append(nb.Cells, c)
	}
	if err := nbmap.FromMap(meta, &nb.Metadata); err != nil {
		t.Fatal(err)
	}
	out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cloneCell copies a cell through its JSON.
func cloneCell(t testing.TB, c nbformat.Cell) nbformat.Cell {
	t.Helper()
	nb := nbformat.New()
	nb.Cells = []nbformat.Cell{c}
	data, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return cp.Cells[0]
}

// decode decodes JSON text (fatal if it is not JSON).
func decode(t testing.TB, data []byte) any {
	t.Helper()
	v, err := nbformat.Decode(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return v
}

// jsonDiff returns the differences of two JSON texts as values.
func jsonDiff(t testing.TB, want, got []byte) string {
	t.Helper()
	return cmp.Diff(decode(t, want), decode(t, got))
}

// cellBytes returns the bytes of the cells of a version 3 file, in order.
func cellBytes(t testing.TB, data []byte) [][]byte {
	t.Helper()
	tp, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	if ws := tp.Lookup(jsontree.Root, "worksheets"); ws >= 0 {
		for _, w := range tp.ChildList(ws) {
			if cs := tp.Lookup(w, "cells"); cs >= 0 {
				for _, c := range tp.ChildList(cs) {
					out = append(out, tp.Raw(c))
				}
			}
		}
	}
	return out
}

// outside returns data without its worksheets' cells arrays (what must
// stay as it was when only cells change).
func outside(t testing.TB, data []byte) []byte {
	t.Helper()
	tp, err := jsontree.Parse(data, jsontree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	last := 0
	if ws := tp.Lookup(jsontree.Root, "worksheets"); ws >= 0 {
		for _, w := range tp.ChildList(ws) {
			if cs := tp.Lookup(w, "cells"); cs >= 0 {
				b = append(b, data[last:tp.Nodes[cs].Start]...)
				last = int(tp.Nodes[cs].End)
			}
		}
	}
	return append(b, data[last:]...)
}

// encodeJSON writes generic JSON.
func encodeJSON(v any) ([]byte, error) { return nbjson.Encode(v) }

// textBundle returns a bundle holding the given MIME type → text pairs.
func textBundle(pairs ...string) nbformat.MimeBundle {
	var b nbformat.MimeBundle
	for i := 0; i+1 < len(pairs); i += 2 {
		b.SetText(pairs[i], pairs[i+1])
	}
	return b
}
