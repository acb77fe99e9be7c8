package nbformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// v3TapeCases are version 2 and 3 notebooks (their worksheets) exercising
// each rule of upgradeCellV3 and upgradeOutputV3, spelled in the ways
// that make the tape's bytes differ from the generic JSON's.
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

// checkV3Tape compares the tape upgrade of nb's worksheets with the
// generic one: the same bytes, or a decline (and then the generic path
// is taken). It reports whether the tape upgrade answered.
func checkV3Tape(t *testing.T, name string, nb *Notebook) bool {
	t.Helper()
	ws, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage)
	if !ok {
		t.Fatalf("%s: worksheets not kept as read", name)
	}
	got, ok := v3CellsCompact(ws, nb.Nbformat == 2)
	want, err := v3CellsGeneric(nb)
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("%s: the tape upgrade answered where the generic one fails: %v", name, err)
		return true
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: the tape upgrade writes\n%s\nthe generic one\n%s", name, got, want)
	}
	return true
}

// The cells upgraded from the tape are, byte for byte, the generic
// upgrade's, for every rule of the upgrade and every spelling; what it
// declines is left to the generic path (JSON data, which the upgrade
// parses; worksheets or cells that are not objects, which are errors).
func TestV3TapeUpgradeIsTheGenericOne(t *testing.T) {
	declines := map[string]bool{"JSON data": true, "worksheet not an object": true, "cell not an object": true}
	for _, tc := range v3TapeCases {
		nb := v3Notebook(t, tc.version, tc.worksheets)
		if answered := checkV3Tape(t, tc.name, nb); answered == declines[tc.name] {
			t.Errorf("%s: answered %v, want %v", tc.name, answered, !declines[tc.name])
		}
		// And the upgrade as a whole agrees with itself either way.
		if err := Upgrade(nb); err != nil && !declines[tc.name] {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// The same over every version 2 and 3 notebook of the corpus, all of
// which the tape upgrade answers but those with JSON output data.
func TestV3TapeUpgradeOverTheCorpus(t *testing.T) {
	n, declined := 0, 0
	for e, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			continue
		}
		if _, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage); !ok {
			continue // no worksheets member
		}
		n++
		if !checkV3Tape(t, e.Path, nb) {
			declined++
			t.Logf("%s: declined", e.Path)
		}
	}
	t.Logf("%d version 2 and 3 notebooks, %d declined", n, declined)
	if declined*10 > n {
		t.Errorf("the tape upgrade declined %d of %d notebooks", declined, n)
	}
}

// A heading of a negative level upgrades as Python's does ("#" * -1 is
// ""), where it made strings.Repeat panic.
func TestUpgradeNegativeHeadingLevel(t *testing.T) {
	for _, ws := range []string{
		`[{"cells": [{"cell_type": "heading", "level": -3, "source": "Title"}]}]`,
		`[{"cells": [{"cell_type": "heading", "level": -3, "source": "Title"}, {"cell_type": "code", "input": "", "outputs": [{"output_type": "display_data", "json": "{}"}]}]}]`, // generic path
	} {
		nb := v3Notebook(t, 3, ws)
		if err := Upgrade(nb); err != nil {
			t.Fatal(err)
		}
		if got := SourceOf(nb.Cells[0]).String(); got != " Title" {
			t.Errorf("source %q, want %q", got, " Title")
		}
	}
}

// FuzzV3TapeUpgrade: for any worksheets a version 2 or 3 notebook reads
// with, the tape upgrade writes the generic one's bytes or declines.
func FuzzV3TapeUpgrade(f *testing.F) {
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
		ws, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage)
		if !ok {
			return
		}
		got, ok := v3CellsCompact(ws, v2)
		if !ok {
			return
		}
		want, err := v3CellsGeneric(nb)
		if err != nil {
			t.Fatalf("the tape upgrade answered where the generic one fails: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the tape upgrade writes\n%s\nthe generic one\n%s", got, want)
		}
	})
}

// BenchmarkV3Cells is the upgrade of the cells of every version 2 and 3
// corpus notebook, one op being all of them: from the tape (Tape) and
// through generic JSON (Generic).
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
	b.Run("Tape", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, nb := range nbs {
				if _, ok := v3CellsCompact(nb.AdditionalProperties["worksheets"].(json.RawMessage), nb.Nbformat == 2); !ok {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("Generic", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, nb := range nbs {
				if _, err := v3CellsGeneric(nb); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// The tape upgrade allocates at most a quarter of what the generic one does, over
// the corpus's version 2 and 3 notebooks (it makes no generic value per
// JSON value, and copies texts once).
func TestV3TapeUpgradeAllocatesLess(t *testing.T) {
	if raceInternal {
		t.Skip("the race detector's instrumentation allocates")
	}
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
		tape += testing.AllocsPerRun(2, func() { v3CellsCompact(ws, nb.Nbformat == 2) })
		generic += testing.AllocsPerRun(2, func() { _, _ = v3CellsGeneric(nb) })
	}
	if generic == 0 {
		t.Skip("no version 3 notebook in the corpus")
	}
	t.Logf("allocations: tape %.0f, generic %.0f", tape, generic)
	if tape > generic/4 {
		t.Errorf("the tape upgrade allocates %.0f, the generic one %.0f: want at most a quarter", tape, generic)
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

// The tape upgrade reuses its objects from cell to cell and sets the
// members it adds (ids, metadata, sources, execution counts, data, mime
// types) without allocating their keys, and finds whether a list of lines
// ends lines without decoding its first: code and markdown cells allocate
// nothing of their own (at most 0.5 per cell over 270 more cells, for the
// output's growth; 3.35 before).
func TestV3TapeUpgradeAllocationsPerCell(t *testing.T) {
	if raceInternal {
		t.Skip("the race detector's instrumentation allocates")
	}
	var allocs [2]float64
	for k, n := range []int{30, 300} {
		ws := []byte(v3Cells(n))
		out, ok := v3CellsCompact(ws, false)
		if !ok {
			t.Fatalf("%d cells: declined", n)
		}
		nb := v3Notebook(t, 3, string(ws))
		generic, err := v3CellsGeneric(nb)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(generic) {
			t.Fatalf("%d cells: the tape upgrade writes\n%s\nthe generic one\n%s", n, out, generic)
		}
		allocs[k] = testing.AllocsPerRun(5, func() { v3CellsCompact(ws, false) })
	}
	perCell := (allocs[1] - allocs[0]) / 270
	t.Logf("allocations: 30 cells %.0f, 300 cells %.0f (%.2f per cell)", allocs[0], allocs[1], perCell)
	if perCell > 0.5 {
		t.Errorf("the tape upgrade allocates %.2f per cell (30 cells %.0f, 300 cells %.0f): want at most 0.5", perCell, allocs[0], allocs[1])
	}
}

// strEndsLine reads from a string's JSON what endsLine of the decoded
// string says, for every way of spelling its end: plain, two-character
// escapes (\n, \r, \\, \", \/, \t), \u escapes of line breaks and of
// other characters, runs of backslashes before an "n", "r" or "u".
func TestStrEndsLineAsDecoded(t *testing.T) {
	ends := []string{``, `a`, `\n`, `\r`, `\t`, `\\`, `\"`, `\/`, `\u000a`, `\u000A`, `\u000d`, `\u0041`, `\u00e9`, `\ud83d\ude00`, `n`, `r`, `u000a`, `é`, `\b`, `\f`}
	var cases []string
	for _, pre := range []string{``, `x`, `\\`, `\\\\`, `\\\\\\`, `\n`, `ab\\`, `\u005c`} {
		for _, end := range ends {
			cases = append(cases, pre+end)
			for _, bs := range []string{`\\`, `\\\\`} {
				cases = append(cases, pre+bs+end)
			}
		}
	}
	checked := 0
	for _, c := range cases {
		raw := `"` + c + `"`
		tape, err := jsontree.Parse([]byte(raw), jsontree.Limits{MaxDepth: 10})
		if err != nil {
			continue // not a JSON string (a lone backslash before the quote)
		}
		var decoded string
		if err := json.Unmarshal([]byte(raw), &decoded); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		want := endsLine([]byte(decoded))
		if got := strEndsLine(tape, jsontree.Root); got != want {
			t.Errorf("%s (%q): strEndsLine %v, want %v", raw, decoded, got, want)
		}
		checked++
	}
	if checked < 300 {
		t.Errorf("only %d strings checked", checked)
	}
}

// sortedOrder orders members as bytes.Compare orders their keys, at
// every size (by insertion of indices up to the buffer's 16, by the
// library sort of the members above), whatever the order given: keys that
// are prefixes of others, non-ASCII, empty.
func TestSortedOrderAsBytesCompare(t *testing.T) {
	pool := []string{"", "a", "ab", "abc", "b", "id", "source", "metadata", "execution_count", "outputs", "cell_type",
		"é", "\u00ff", "z", "A", "Z", "a\x00", "text/plain", "text/html", "image/png", "\U0001F600", "output_type", "name", "data"}
	rng := uint64(1)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for n := 0; n <= 40; n++ {
		for trial := 0; trial < 20; trial++ {
			seen := map[string]bool{}
			var ms []tmember
			for len(ms) < n {
				k := pool[next(len(pool))]
				if len(ms) >= len(pool)-2 {
					k = fmt.Sprintf("k%03d", next(1000))
				}
				if seen[k] {
					continue
				}
				seen[k] = true
				ms = append(ms, tmember{key: []byte(k), val: tval{node: len(ms)}})
			}
			want := slices.Clone(ms)
			slices.SortFunc(want, func(a, b tmember) int { return bytes.Compare(a.key, b.key) })
			var buf [16]uint8
			order := sortedOrder(ms, buf[:0])
			if (order == nil) != (n > 16) {
				t.Fatalf("%d members: order %v", n, order)
			}
			for i := range ms {
				m := ms[i]
				if order != nil {
					m = ms[order[i]]
				}
				if string(m.key) != string(want[i].key) || m.val.node != want[i].val.node {
					t.Fatalf("%d members: at %d %q, want %q", n, i, m.key, want[i].key)
				}
			}
		}
	}
}
