package nbformat

// Tests of the version 3 upgrade over the tape: byte for byte the oracle's, on
// every rule, spelling and corpus notebook.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbv3"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// v3TapeCases are version 2 and 3 notebooks (their worksheets) exercising
// each rule of the upgrade (upgradeCellV3 and upgradeOutputV3 in the
// oracle), spelled in the ways that make the tape's bytes differ from the
// generic JSON's.
var v3TapeCases = []struct {
	name       string
	version    int
	worksheets string
}{
	{"empty", 3, `[]`},
	{"no cells", 3, `[{"metadata": {}}]`},
	{"cells not a list", 3, `[{"cells": {"a": 1}}]`},
	{"two worksheets", 3, `[{"cells": [{"cell_type": "markdown", "source": "a"}]}, {"cells": [{"cell_type": "raw", "source": ["b\n", "c"]}]}]`},
	{"code", 3, `[{"cells": [{"cell_type": "code", "input": ["import x\n", "x()"], "language": "python", "collapsed": false,
		"prompt_number": 3, "metadata": {"trusted": true, "tags": ["a"]}, "trusted": true,
		"outputs": [{"output_type": "stream", "stream": "stderr", "text": ["a\n", "b"]},
			{"output_type": "pyout", "prompt_number": 3, "text": ["1"], "png": "iVBOR\n", "metadata": {"png": {"width": 3}}},
			{"output_type": "display_data", "html": ["<b>", "</b>"], "svg": "<svg/>", "latex": ["$x$"], "javascript": "f()", "jpeg": "/9j/"},
			{"output_type": "pyerr", "ename": "E", "evalue": "v", "traceback": ["t1", "t2"]},
			{"output_type": "future", "text": ["x", "y"]},
			"not an object", 7]}]}]`},
	{"code without input or prompt number", 3, `[{"cells": [{"cell_type": "code", "metadata": {"collapsed": true}, "collapsed": true, "outputs": []}]}]`},
	{"code source replaced by input", 3, `[{"cells": [{"cell_type": "code", "source": "old", "input": "new"}]}]`},
	{"metadata not an object", 3, `[{"cells": [{"cell_type": "markdown", "source": "a", "metadata": [1, 2]}]}]`},
	{"lines joined with newlines", 3, `[{"cells": [{"cell_type": "markdown", "source": ["a", "b", "c"]}, {"cell_type": "markdown", "source": ["a\r", "b"]}]}]`},
	{"lines not all strings", 3, `[{"cells": [{"cell_type": "markdown", "source": ["a", 1]}, {"cell_type": "code", "input": [null]}]}]`},
	{"empty lines", 3, `[{"cells": [{"cell_type": "markdown", "source": []}, {"cell_type": "markdown", "source": [""]}]}]`},
	{"escapes", 3, `[{"cells": [{"cell_type": "markdown", "source": ["\u0041\/b\n", "\u00e9\u2028\t\"\\\n", "é\u001f"], "metadata": {"k\u00e9y": "\/"}}]}]`},
	{"escapes on a line end", 3, `[{"cells": [{"cell_type": "markdown", "source": ["a\u000a", "b"]}, {"cell_type": "markdown", "source": ["a\\n", "b"]}]}]`},
	{"rendered", 3, `[{"cells": [{"cell_type": "markdown", "source": "a", "rendered": ["<p>", "a</p>"]}]}]`},
	{"headings", 3, `[{"cells": [{"cell_type": "heading", "level": 2, "source": ["Title\n", "more"]},
		{"cell_type": "heading", "source": "no level"}, {"cell_type": "heading", "level": "3", "source": "string level"},
		{"cell_type": "heading", "level": 2.0, "source": "float level"}, {"cell_type": "heading", "level": 0, "source": "zero"},
		{"cell_type": "heading", "level": -1, "source": "negative"}, {"cell_type": "heading", "level": 99999999999999999999, "source": "huge"},
		{"cell_type": "heading", "level": 1, "source": ["a", 1]}, {"cell_type": "heading", "level": 1, "source": "a\u2028b\r\nc\u0085"}]}]`},
	{"html", 3, `[{"cells": [{"cell_type": "html", "source": ["<p>", "x</p>"]}]}]`},
	{"unknown cell type", 3, `[{"cells": [{"cell_type": "future", "source": ["a", "b"], "x": {"b": 1, "a": [1.0, -0, 1e400, 123456789012345678901234567890, 1.5e-7, true, null]}}, {"source": "no type"}, {"cell_type": 7}]}]`},
	{"duplicate keys", 3, `[{"cells": [{"cell_type": "markdown", "source": "first", "source": "second", "metadata": {"a": 1, "a": 2}},
		{"cell_type": "code", "input": "x", "outputs": [{"output_type": "stream", "text": "a", "text": "b", "stream": "stdout", "stream": "stderr"}]}]}]`},
	{"mime alias beside its type", 3, `[{"cells": [{"cell_type": "code", "input": "", "outputs": [{"output_type": "pyout", "text": "alias", "text/plain": "type", "data": {"x": 1}}]}]}]`},
	{"deep metadata", 3, `[{"cells": [{"cell_type": "markdown", "source": "", "metadata": {"a": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}]}]`},
	{"as deep as the reader takes", 3, `[{"cells": [{"cell_type": "markdown", "source": "", "metadata": {"a": ` + strings.Repeat("[", defaultMaxDepth-8) + strings.Repeat("]", defaultMaxDepth-8) + `}}]}]`},
	{"many metadata keys", 3, `[{"cells": [{"cell_type": "markdown", "source": "", "metadata": {` + manyKeys(40) + `}}]}]`},
	{"version 2 lines", 2, `[{"cells": [{"cell_type": "code", "input": ["a", "b"], "outputs": [{"output_type": "stream", "text": ["x", "y"]}]}, {"cell_type": "markdown", "source": ["a\n", "b"]}]}]`},
	{"JSON data", 3, `[{"cells": [{"cell_type": "code", "input": "", "outputs": [{"output_type": "display_data", "json": ["{\"a\":", " 1}"]}]}]}]`},
	{"worksheet not an object", 3, `[1]`},
	{"cell not an object", 3, `[{"cells": [1]}]`},
	{"cell not an object in a later worksheet", 3, `[{"cells": [{"cell_type": "raw", "source": "a"}]}, {"cells": [{}, "x"]}]`},
	{"worksheets not a list", 3, `{"cells": []}`},
	{"JSON data not JSON", 3, `[{"cells": [{"cell_type": "code", "input": "", "outputs": [{"output_type": "pyout", "json": "{nope", "application/json": "[1, 2]"}]}]}]`},
	{"JSON data not a string", 3, `[{"cells": [{"cell_type": "code", "input": "", "outputs": [{"output_type": "display_data", "json": {"b": 1, "a": [2]}}]}]}]`},
	{"JSON data of escapes", 3, `[{"cells": [{"cell_type": "code", "input": "", "outputs": [{"output_type": "display_data", "application/json": "{\"k\u00e9\": \"\\u00e9\", \"a\": 1.50, \"a\": -0}"}]}]}]`},
	{"huge heading level", 3, `[{"cells": [{"cell_type": "heading", "level": 5000, "source": "deep"}]}]`},
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `": ` + string(rune('0'+i%10)))
	}
	return b.String() + `, "kb": "again"`
}

// v3Notebook reads a version 2 or 3 notebook with the given worksheets.
func v3Notebook(t *testing.T, version int, worksheets string) *Notebook {
	t.Helper()
	nb, err := Unmarshal([]byte(`{"nbformat": ` + string(rune('0'+version)) + `, "nbformat_minor": 0, "metadata": {}, "worksheets": ` + worksheets + `}`))
	if err != nil {
		t.Fatalf("%s: %v", worksheets, err)
	}
	return nb
}

// checkV3 compares the upgrade of nb's worksheets (internal/nbv3) with
// the oracle's: the same bytes, or the same error.
func checkV3(t *testing.T, name string, nb *Notebook) {
	t.Helper()
	ws, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage)
	if !ok {
		t.Fatalf("%s: worksheets not kept as read", name)
	}
	got, err := nbv3.Cells(ws, nb.Nbformat == 2, jsontree.Limits{MaxDepth: defaultMaxDepth})
	want, werr := oracleV3Cells(nb)
	if err != nil || werr != nil {
		if werr == nil || err == nil || "nbformat: upgrade: "+err.Error() != werr.Error() {
			t.Errorf("%s: the upgrade's error %v, the oracle's %v", name, err, werr)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: the upgrade writes\n%s\nthe oracle\n%s", name, got, want)
	}
}

// The cells upgraded from the tape are, byte for byte, the oracle's, for
// every rule of the upgrade and every spelling; its errors are the
// oracle's; Upgrade itself agrees.
func TestV3UpgradeIsTheOracle(t *testing.T) {
	t.Parallel()
	fails := map[string]bool{"worksheet not an object": true, "cell not an object": true, "cell not an object in a later worksheet": true}
	for _, tc := range v3TapeCases {
		nb := v3Notebook(t, tc.version, tc.worksheets)
		checkV3(t, tc.name, nb)
		if err := Upgrade(nb); (err != nil) != fails[tc.name] {
			t.Errorf("%s: Upgrade: %v", tc.name, err)
		}
	}
}

// The same over every version 2 and 3 notebook of the corpus.
func TestV3UpgradeOverTheCorpus(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			continue
		}
		if _, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage); !ok {
			continue // no worksheets member
		}
		n++
		checkV3(t, e.Path, nb)
	}
	t.Logf("%d version 2 and 3 notebooks", n)
}

// Worksheets set in memory (not read) upgrade as their JSON does.
func TestV3UpgradeOfWorksheetsInMemory(t *testing.T) {
	for _, tc := range v3TapeCases {
		read := v3Notebook(t, tc.version, tc.worksheets)
		built := v3Notebook(t, tc.version, tc.worksheets)
		g, err := Decode(read.AdditionalProperties["worksheets"].(json.RawMessage))
		if err != nil {
			t.Fatal(err)
		}
		built.AdditionalProperties["worksheets"] = g
		errRead, errBuilt := Upgrade(read), Upgrade(built)
		if (errRead == nil) != (errBuilt == nil) {
			t.Errorf("%s: read %v, built %v", tc.name, errRead, errBuilt)
			continue
		}
		if errRead != nil {
			continue
		}
		a, err1 := Marshal(read)
		b, err2 := Marshal(built)
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: read writes\n%s\nbuilt\n%s (%v, %v)", tc.name, a, b, err1, err2)
		}
	}
}

// A heading of a negative level upgrades as Python's does ("#" * -1 is
// "").
func TestUpgradeNegativeHeadingLevel(t *testing.T) {
	t.Parallel()
	nb := v3Notebook(t, 3, `[{"cells": [{"cell_type": "heading", "level": -3, "source": "Title"}]}]`)
	if err := Upgrade(nb); err != nil {
		t.Fatal(err)
	}
	if got := SourceOf(nb.Cells[0]).String(); got != " Title" {
		t.Errorf("source %q, want %q", got, " Title")
	}
}

// FuzzV3Upgrade: for any worksheets a version 2 or 3 notebook reads
// with, the upgrade writes the oracle's bytes, or fails as it does.
func FuzzV3Upgrade(f *testing.F) {
	for _, tc := range v3TapeCases {
		if len(tc.worksheets) < 4096 {
			f.Add(tc.version == 2, tc.worksheets)
		}
	}
	f.Fuzz(func(t *testing.T, v2 bool, worksheets string) {
		version := "3"
		if v2 {
			version = "2"
		}
		nb, err := Unmarshal([]byte(`{"nbformat": ` + version + `, "nbformat_minor": 0, "metadata": {}, "worksheets": ` + worksheets + `}`))
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			return
		}
		if _, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage); !ok {
			return
		}
		checkV3(t, "fuzz", nb)
	})
}

// BenchmarkV3Cells is the upgrade of the cells of every version 2 and 3
// corpus notebook, one op being all of them: over the tape (Tape) and the
// oracle's, through generic JSON (Oracle).
func BenchmarkV3Cells(b *testing.B) {
	var nbs []*Notebook
	total := 0
	for _, data := range corpus.Files(b) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			continue
		}
		if _, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage); ok {
			nbs = append(nbs, nb)
			total += len(data)
		}
	}
	if len(nbs) == 0 {
		b.Skip("no version 3 notebook in the corpus")
	}
	lim := jsontree.Limits{MaxDepth: defaultMaxDepth}
	b.Run("Tape", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, nb := range nbs {
				if _, err := nbv3.Cells(nb.AdditionalProperties["worksheets"].(json.RawMessage), nb.Nbformat == 2, lim); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("Oracle", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, nb := range nbs {
				if _, err := oracleV3Cells(nb); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// The upgrade over the tape allocates at most a quarter of what the
// oracle does, over the corpus's version 2 and 3 notebooks (it makes no
// generic value per JSON value, and copies texts once).
func TestV3UpgradeAllocatesLess(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	lim := jsontree.Limits{MaxDepth: defaultMaxDepth}
	var tape, generic float64
	for _, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			continue
		}
		ws, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage)
		if !ok {
			continue
		}
		tape += testing.AllocsPerRun(2, func() { _, _ = nbv3.Cells(ws, nb.Nbformat == 2, lim) })
		generic += testing.AllocsPerRun(2, func() { _, _ = oracleV3Cells(nb) })
	}
	if generic == 0 {
		t.Skip("no version 3 notebook in the corpus")
	}
	t.Logf("allocations: tape %.0f, oracle %.0f", tape, generic)
	if tape > generic/4 {
		t.Errorf("the upgrade allocates %.0f, the oracle %.0f: want at most a quarter", tape, generic)
	}
}

// v3Cells is the JSON of one worksheet of n version 3 cells: code cells
// with a pyout, a stream and a display_data output (every mime alias),
// markdown, and one heading (whose text the upgrade rebuilds).
func v3Cells(n int) string {
	var b strings.Builder
	b.WriteString(`[{"cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case i == 1:
			fmt.Fprintf(&b, `{"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Part %d"]}`, i)
		case i%2 == 0:
			fmt.Fprintf(&b, `{"cell_type": "code", "collapsed": false, "input": ["x = %d\n", "x"], "language": "python", "metadata": {"trusted": true}, "outputs": [`+
				`{"output_type": "pyout", "prompt_number": %d, "text": ["%d"], "metadata": {}},`+
				`{"output_type": "stream", "stream": "stdout", "text": ["out\n"]},`+
				`{"output_type": "display_data", "png": "iVBORw0KGgo=\n", "html": ["<b>x</b>"], "svg": "<svg/>", "latex": ["$x$"], "jpeg": "/9j/", "javascript": "1", "metadata": {"png": {"width": 10}}}`+
				`], "prompt_number": %d}`, i, i, i, i)
		default:
			fmt.Fprintf(&b, `{"cell_type": "markdown", "metadata": {}, "source": ["text %d\n", "more"]}`, i)
		}
	}
	b.WriteString(`]}]`)
	return b.String()
}
