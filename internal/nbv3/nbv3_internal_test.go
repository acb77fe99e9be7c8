package nbv3

// Tests of the version 3 upgrade's allocations per cell, of strEndsLine and of
// sortedOrder.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"

	"github.com/nbdialog/ipynb/internal/testtier"
)

var lim = jsontree.Limits{MaxDepth: 10000}

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

// The upgrade reuses its objects from cell to cell and sets the
// members it adds (ids, metadata, sources, execution counts, data, mime
// types) without allocating their keys, and finds whether a list of lines
// ends lines without decoding its first: code and markdown cells allocate
// nothing of their own (at most 0.5 per cell over 270 more cells, for the
// output's growth; 3.35 before).
func TestAllocationsPerCell(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	var allocs [2]float64
	for k, n := range []int{30, 300} {
		ws := []byte(v3Cells(n))
		if _, err := Cells(ws, false, lim); err != nil {
			t.Fatalf("%d cells: %v", n, err)
		}
		allocs[k] = testing.AllocsPerRun(5, func() { _, _ = Cells(ws, false, lim) })
	}
	perCell := (allocs[1] - allocs[0]) / 270
	t.Logf("allocations: 30 cells %.0f, 300 cells %.0f (%.2f per cell)", allocs[0], allocs[1], perCell)
	if perCell > 0.5 {
		t.Errorf("the upgrade allocates %.2f per cell (30 cells %.0f, 300 cells %.0f): want at most 0.5", perCell, allocs[0], allocs[1])
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
