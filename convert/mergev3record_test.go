package convert_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// The conflict records of a version 3 merge hold the sides' values as
// their version 3 files hold them (so that a value can be copied back):
// outputs as version 3 has them (pyout with its prompt_number, data
// under "text", "png", "html", texts joined as nbformat 3's reader
// rejoin_lines joins them), a code cell's prompt_number (at
// "/execution_count") and language, a heading's kind and level; pointers
// name the members as version 4 does. The expected values are read off
// the version 3 files below, not made by the merge's code.
func TestMergeV3RecordsHoldVersion3Values(t *testing.T) {
	t.Parallel()
	nb := func(cell string) []byte {
		return []byte(`{"metadata": {"name": "nb"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [` + cell + `], "metadata": {}}]}`)
	}
	const outs = `[{"metadata": {}, "output_type": "pyout", "prompt_number": 3, "text": ["a\n", "b"]},
		{"html": ["<b>\n", "x</b>"], "metadata": {}, "output_type": "display_data", "png": "iVBO"}`
	code := func(more string) string {
		return `{"cell_type": "code", "collapsed": false, "input": ["x = 1\n", "x"], "language": "python", "metadata": {},
			"outputs": ` + outs + more + `], "prompt_number": 3}`
	}
	const v3outs = `[{"metadata": {}, "output_type": "pyout", "prompt_number": 3, "text": "a\nb"},
		{"html": "<b>\nx</b>", "metadata": {}, "output_type": "display_data", "png": "iVBO"}`
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		want               map[string]string // pointer → the record's JSON, without "what"
	}{{
		name:   "outputs of a cell ours made markdown",
		base:   code(""),
		ours:   `{"cell_type": "markdown", "metadata": {}, "source": ["x = 1\n", "x"]}`,
		theirs: code(`, {"output_type": "stream", "stream": "stdout", "text": ["hi\n"]}`),
		want: map[string]string{"/outputs": `{"pointer": "/outputs", "base": ` + v3outs + `],
			"theirs": ` + v3outs + `, {"output_type": "stream", "stream": "stdout", "text": "hi\n"}]}`},
	}, {
		name:   "a code cell's kind changed on both sides",
		base:   code(""),
		ours:   `{"cell_type": "raw", "metadata": {}, "source": ["x = 1\n", "x"]}`,
		theirs: `{"cell_type": "markdown", "metadata": {}, "source": ["x = 1\n", "x"]}`,
		want: map[string]string{
			"/cell_type":       `{"pointer": "/cell_type", "base": "code", "ours": "raw", "theirs": "markdown"}`,
			"/outputs":         `{"pointer": "/outputs", "base": ` + v3outs + `]}`,
			"/execution_count": `{"pointer": "/execution_count", "base": 3}`,
			"/language":        `{"pointer": "/language", "base": "python"}`,
		},
	}, {
		name:   "a heading's kind changed on both sides",
		base:   `{"cell_type": "heading", "level": 2, "metadata": {}, "source": "T"}`,
		ours:   `{"cell_type": "raw", "metadata": {}, "source": "T"}`,
		theirs: `{"cell_type": "code", "collapsed": false, "input": "T", "language": "python", "metadata": {}, "outputs": []}`,
		want: map[string]string{
			"/cell_type": `{"pointer": "/cell_type", "base": "heading", "ours": "raw", "theirs": "code"}`,
			"/level":     `{"pointer": "/level", "base": 2}`,
			"/language":  `{"pointer": "/language", "theirs": "python"}`,
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := merge(nb(c.base), nb(c.ours), nb(c.theirs), dialog.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) == 0 {
				t.Fatalf("clean merge, want a conflict:\n%s", res.Data)
			}
			out := decodeJSON(t, res.Data)
			if out["nbformat"] != 3.0 {
				t.Fatalf("nbformat %v, want 3", out["nbformat"])
			}
			cell, ok := pointerAt(out, "/worksheets/0/cells/0")
			if !ok {
				t.Fatalf("no cell:\n%s", res.Data)
			}
			recs, _ := pointerAt(cell, "/metadata/"+convert.ConflictsKey)
			list, _ := recs.([]any)
			got := map[string]any{}
			for _, r := range list {
				m, _ := r.(map[string]any)
				delete(m, "what")
				if p, ok := m["pointer"].(string); ok {
					got[p] = m
				}
			}
			for p, w := range c.want {
				want := decodeJSON(t, []byte(w))
				if d := cmp.Diff(want, got[p]); d != "" {
					t.Errorf("record %s (-want +got):\n%s\nresult:\n%s", p, d, res.Data)
				}
			}
			for _, v4 := range []string{"execute_result", `"data"`, `"execution_count": 3`, "text/plain"} {
				if strings.Contains(string(res.Data), v4) {
					t.Errorf("the result holds %s, of version 4:\n%s", v4, res.Data)
				}
			}
		})
	}
}
