package v3write

// Cases of the conversion and of ours' style, one rule each.

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// cookbook is a version 3 file in the style of the corpus' cookbook
// notebooks: 2-space indentation, keys in its writer's order, texts as
// lists, unrun cells without a prompt number, ASCII only.
const cookbook = `{
  "metadata": {
    "signature": "sha256:00",
    "name": ""
  },
  "nbformat": 3,
  "nbformat_minor": 0,
  "worksheets": [
    {
      "metadata": {},
      "cells": [
        {
          "cell_type": "markdown",
          "source": [
            "Intro\n"
          ],
          "metadata": {}
        },
        {
          "collapsed": false,
          "metadata": {},
          "cell_type": "code",
          "outputs": [],
          "input": [
            "import numpy as np"
          ],
          "language": "julia"
        },
        {
          "collapsed": false,
          "metadata": {},
          "cell_type": "code",
          "outputs": [
            {
              "output_type": "pyout",
              "prompt_number": 2,
              "metadata": {},
              "text": [
                "2"
              ]
            }
          ],
          "input": [
            "1 + 1"
          ],
          "language": "julia",
          "prompt_number": 2
        }
      ]
    }
  ]
}
`

// write writes cells over ours, fatal on an error.
func write(t *testing.T, ours string, nb *Notebook) []byte {
	t.Helper()
	out, err := Write([]byte(ours), nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withNew returns ours' cells followed by new cells.
func withNew(t *testing.T, ours string, cells ...nbformat.Cell) *Notebook {
	t.Helper()
	up, _, err := tryUpgrade([]byte(ours))
	if err != nil {
		t.Fatal(err)
	}
	nb := &Notebook{Cells: oursCells(up)}
	for _, c := range cells {
		nb.Cells = append(nb.Cells, Cell{Cell: c})
	}
	return nb
}

// lastCell returns the last cell written.
func lastCell(t *testing.T, out []byte) []byte {
	t.Helper()
	cs := cellBytes(t, out)
	return cs[len(cs)-1]
}

// A new code cell takes ours' member order, language, list storage and
// left-out prompt number, and no collapsed its metadata lacks.
func TestNewCodeCellInOursStyle(t *testing.T) {
	t.Parallel()
	c := nbformat.NewCodeCell("x = 'é'\ny")
	out := write(t, cookbook, withNew(t, cookbook, c))
	want := `{
          "metadata": {},
          "cell_type": "code",
          "outputs": [],
          "input": [
            "x = '\u00e9'\n",
            "y"
          ],
          "language": "julia"
        }`
	if got := lastCell(t, out); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	b := true
	c.Metadata.Collapsed = &b
	n := 3
	c.ExecutionCount = &n
	out = write(t, cookbook, withNew(t, cookbook, c))
	if got := lastCell(t, out); !bytes.Contains(got, []byte(`"collapsed": true,`)) || !bytes.HasSuffix(got, []byte("\"prompt_number\": 3\n        }")) {
		t.Errorf("got\n%s", got)
	}
}

// In a sorted file whose unrun cells have a null prompt number, a new
// unrun cell gets one.
func TestNullPromptNumber(t *testing.T) {
	t.Parallel()
	ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "code", "input": [], "language": "python", "metadata": {}, "outputs": [], "prompt_number": null}], "metadata": {}}]}`
	out := write(t, ours, withNew(t, ours, nbformat.NewCodeCell("")))
	if got := string(lastCell(t, out)); got != `{"cell_type": "code", "input": [], "language": "python", "metadata": {}, "outputs": [], "prompt_number": null}` {
		t.Errorf("got %s", got)
	}
}

// Markdown cells become heading cells where the heading upgrades to
// their text exactly; a cell of ours keeps its type.
func TestHeadings(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"# Title":       `"cell_type": "heading", "level": 1, "metadata": {}, "source": ["Title"]`,
		"### x  y":      `"cell_type": "heading", "level": 3, "metadata": {}, "source": ["x  y"]`,
		"# ":            `"cell_type": "heading", "level": 1, "metadata": {}, "source": []`,
		"#  two":        `"cell_type": "heading", "level": 1, "metadata": {}, "source": [" two"]`,
		"#x":            `"cell_type": "markdown", "metadata": {}, "source": ["#x"]`,
		"#":             `"cell_type": "markdown", "metadata": {}, "source": ["#"]`,
		"# a\nb":        `"cell_type": "markdown", "metadata": {}, "source": ["# a\n", "b"]`,
		"# a\rb":        `"cell_type": "markdown", "metadata": {}, "source": ["# a\r", "b"]`,
		"#\u00a0x":      `"cell_type": "markdown", "metadata": {}, "source": ["#\u00a0x"]`,
		"not # heading": `"cell_type": "markdown", "metadata": {}, "source": ["not # heading"]`,
	} {
		ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]}`
		out := write(t, ours, withNew(t, ours, nbformat.NewMarkdownCell(src)))
		if got := string(lastCell(t, out)); got != "{"+want+"}" {
			t.Errorf("%q: got %s, want {%s}", src, got, want)
		}
	}
	ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Kept markdown"]}, {"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Head"]}], "metadata": {}}]}`
	up, _, _ := tryUpgrade([]byte(ours))
	up[0].(*nbformat.MarkdownCell).Source = nbformat.Text("# Still markdown")
	up[1].(*nbformat.MarkdownCell).Source = nbformat.Text("## Head\n\nnow two paragraphs")
	out := write(t, ours, &Notebook{Cells: oursCells(up)})
	cs := cellBytes(t, out)
	if string(cs[0]) != `{"cell_type": "markdown", "metadata": {}, "source": ["# Still markdown"]}` ||
		string(cs[1]) != `{"cell_type": "markdown", "metadata": {}, "source": ["## Head\n", "\n", "now two paragraphs"]}` {
		t.Errorf("got\n%s\n%s", cs[0], cs[1])
	}
}

// A text whose list of lines nbformat 3's reader would not join back to
// it is stored as one string.
func TestTextKeptWhole(t *testing.T) {
	t.Parallel()
	ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]}`
	out := write(t, ours, withNew(t, ours, nbformat.NewRawCell("a\u2028b\nc"), nbformat.NewRawCell("a\u2028")))
	cs := cellBytes(t, out)
	if got := string(cs[0]); got != `{"cell_type": "raw", "metadata": {}, "source": "a\u2028b\nc"}` {
		t.Errorf("got %s", got)
	}
	if got := string(cs[1]); got != `{"cell_type": "raw", "metadata": {}, "source": ["a\u2028"]}` {
		t.Errorf("got %s", got)
	}
}

// Output data: version 3 keys for the MIME types that have one, the MIME
// type for the others, application/json as Python's json.dumps text.
func TestOutputData(t *testing.T) {
	t.Parallel()
	ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]}`
	c := nbformat.NewCodeCell("")
	er := nbformat.NewExecuteResult(4, textBundle("text/plain", "a\nb", "image/png", "AAAA\n", "text/markdown", "*x*\ny"))
	if err := er.Data.SetJSON("application/json", json.RawMessage(`{"b":[1,2.50,-0],"a":"é"}`)); err != nil {
		t.Fatal(err)
	}
	er.Metadata = map[string]any{"image/png": map[string]any{"width": 2}}
	c.Outputs = []nbformat.Output{er, nbformat.NewStream("stderr", "w\n"), nbformat.NewError("E", "v", "t1", "t2")}
	out := write(t, ours, withNew(t, ours, c))
	want := `{"cell_type": "code", "input": [], "language": "python", "metadata": {}, "outputs": [` +
		`{"json": ["{\"b\": [1, 2.5, 0], \"a\": \"\\u00e9\"}"], "metadata": {"image/png": {"width": 2}}, "output_type": "pyout", "png": "AAAA\n", "prompt_number": 4, "text": ["a\n", "b"], "text/markdown": "*x*\ny"}, ` +
		`{"output_type": "stream", "stream": "stderr", "text": ["w\n"]}, ` +
		`{"ename": "E", "evalue": "v", "output_type": "pyerr", "traceback": ["t1", "t2"]}], "prompt_number": null}`
	if got := string(lastCell(t, out)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// pyDumps writes what Python's json.dumps writes.
func TestPyDumpsAsPython(t *testing.T) {
	t.Parallel()
	py := python(t)
	texts := []string{
		`{"b": [1, 2.50, -0, 1e400, -1E-7, 1.0, 100000000000000000000000], "a": {"z": null, "y": true, "x": false}}`,
		`"é \u2028 \ud83e\udd16 \u0000 \u007f \t"`, `[]`, `{}`, `{"k": 1, "k": 2, "j": 3}`, `12345678901234567890123`, `0.1`, `-0.0`,
		`NaN`, `[Infinity, -Infinity]`, `"\/"`,
	}
	cmd := exec.Command(py, "-c", "import sys, json\nfor l in sys.stdin.read().split('\\n'):\n    print(json.dumps(json.loads(l)))")
	cmd.Stdin = strings.NewReader(strings.Join(texts, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		v, err := nbformat.Decode([]byte(texts[i]))
		if err != nil {
			t.Fatal(err)
		}
		switch v.(type) {
		case map[string]any, []any:
			v = json.RawMessage(texts[i]) // (as output data holds them)
		}
		if got := string(pyDumps(v)); got != want {
			t.Errorf("%s: got %s, want %s", texts[i], got, want)
		}
	}
}

// A changed cell of ours is written over it: only the members that
// changed are rewritten; an output the cell keeps keeps its bytes.
func TestChangedCellOverOurs(t *testing.T) {
	t.Parallel()
	up, _, _ := tryUpgrade([]byte(cookbook))
	c := up[2].(*nbformat.CodeCell)
	c.Source = nbformat.Text("1 + 2")
	c.Outputs = append(c.Outputs, nbformat.NewStream("stdout", "hi\n"))
	out := write(t, cookbook, &Notebook{Cells: oursCells(up)})
	want := strings.Replace(cookbook, `"1 + 1"`, `"1 + 2"`, 1)
	want = strings.Replace(want, `                "2"
              ]
            }
          ],`, `                "2"
              ]
            },
            {
              "output_type": "stream",
              "stream": "stdout",
              "text": [
                "hi\n"
              ]
            }
          ],`, 1)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Metadata given: only what changed changes; ours' name and signature
// (which the upgrade drops) stay; transient keys are left out.
func TestMetadata(t *testing.T) {
	t.Parallel()
	up, meta, _ := tryUpgrade([]byte(cookbook))
	meta["kernelspec"] = map[string]any{"name": "julia", "display_name": "Julia"}
	meta["orig_nbformat"] = 3
	out := write(t, cookbook, &Notebook{Cells: oursCells(up), Meta: meta})
	want := strings.Replace(cookbook, `    "name": ""
  },`, `    "name": "",
    "kernelspec": {
      "display_name": "Julia",
      "name": "julia"
    }
  },`, 1)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Worksheets: a new cell goes into the worksheet of the cell before it;
// a cell moved before a cell of an earlier worksheet follows it there;
// an emptied worksheet stays, with no cells; a file without worksheets
// gets one.
func TestWorksheets(t *testing.T) {
	t.Parallel()
	ours := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [` +
		`{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["a"]}], "metadata": {}}, ` +
		`{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["b"]}, {"cell_type": "raw", "metadata": {}, "source": ["c"]}], "metadata": {"w": 2}}, ` +
		`{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["d"]}], "metadata": {}}]}`
	up, _, _ := tryUpgrade([]byte(ours))
	nb := &Notebook{Cells: []Cell{
		{Cell: up[1], From: Ours, Index: 1},
		{Cell: nbformat.NewRawCell("new")},
		{Cell: up[0], From: Ours, Index: 0},
		{Cell: up[2], From: Ours, Index: 2},
	}}
	got := string(write(t, ours, nb))
	want := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [` +
		`{"cells": [], "metadata": {}}, ` +
		`{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["b"]}, {"cell_type": "raw", "metadata": {}, "source": ["new"]}, {"cell_type": "raw", "metadata": {}, "source": ["a"]}, {"cell_type": "raw", "metadata": {}, "source": ["c"]}], "metadata": {"w": 2}}, ` +
		`{"cells": [], "metadata": {}}]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	none := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0}`
	got = string(write(t, none, withNew(t, none, nbformat.NewRawCell("x"))))
	if want := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["x"]}], "metadata": {}}]}`; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// New text in a file with characters beyond ASCII is written raw, as the
// file writes them; in an ASCII file, escaped.
func TestASCII(t *testing.T) {
	t.Parallel()
	raw := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "raw", "metadata": {}, "source": ["é"]}], "metadata": {}}]}`
	if got := string(lastCell(t, write(t, raw, withNew(t, raw, nbformat.NewRawCell("☕🤖"))))); got != `{"cell_type": "raw", "metadata": {}, "source": ["☕🤖"]}` {
		t.Errorf("got %s", got)
	}
	ascii := strings.Replace(raw, "é", `\u00e9`, 1)
	if got := string(lastCell(t, write(t, ascii, withNew(t, ascii, nbformat.NewRawCell("☕🤖"))))); got != `{"cell_type": "raw", "metadata": {}, "source": ["\u2615\ud83e\udd16"]}` {
		t.Errorf("got %s", got)
	}
}

// A cell of theirs is theirs' bytes laid out in ours' style; changed, it
// takes ours' member order.
func TestTheirsInOursStyle(t *testing.T) {
	t.Parallel()
	theirs := `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "code", "collapsed": false, "input": ["t = 1"], "language": "julia", "metadata": {}, "outputs": [], "prompt_number": 5}], "metadata": {}}]}`
	tu, _, _ := tryUpgrade([]byte(theirs))
	nb := withNew(t, cookbook)
	nb.Theirs = []byte(theirs)
	nb.Cells = append(nb.Cells, Cell{Cell: tu[0], From: Theirs, Index: 0})
	want := `{
          "cell_type": "code",
          "collapsed": false,
          "input": [
            "t = 1"
          ],
          "language": "julia",
          "metadata": {},
          "outputs": [],
          "prompt_number": 5
        }`
	if got := string(lastCell(t, write(t, cookbook, nb))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	tu[0].(*nbformat.CodeCell).Source = nbformat.Text("t = 2")
	want = `{
          "collapsed": false,
          "metadata": {},
          "cell_type": "code",
          "outputs": [],
          "input": [
            "t = 2"
          ],
          "language": "julia",
          "prompt_number": 5
        }`
	if got := string(lastCell(t, write(t, cookbook, nb))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Inputs that are not version 3 notebooks are refused, saying which and
// where.
func TestBadInputs(t *testing.T) {
	t.Parallel()
	v4 := `{"metadata": {}, "nbformat": 4, "nbformat_minor": 5, "cells": []}`
	for _, tc := range []struct{ ours, theirs, want string }{
		{`{"nbformat": 3,`, "", "v3write: ours: nbformat: 1:16: "},
		{v4, "", "v3write: ours: nbformat 4, not 3: not an nbformat 3 notebook"},
		{`{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": {}}`, "", "v3write: ours /worksheets: not an array"},
		{`{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [1]}]}`, "", "v3write: ours /worksheets/0/cells/0: not an object"},
		{cookbook, v4, "v3write: theirs: nbformat 4, not 3"},
	} {
		nb := &Notebook{Theirs: []byte(tc.theirs)}
		if tc.theirs != "" {
			nb.Cells = []Cell{{Cell: nbformat.NewRawCell(""), From: Theirs, Index: 0}}
		}
		_, err := Write([]byte(tc.ours), nb)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %s…", err, tc.want)
		}
	}
	_, err := Write([]byte(cookbook), &Notebook{Cells: []Cell{{Cell: nbformat.NewRawCell(""), From: Ours, Index: 9}}})
	if err == nil || err.Error() != "v3write: cells /cells/0: ours has no cell 9 (it has 3)" {
		t.Errorf("got %v", err)
	}
}
