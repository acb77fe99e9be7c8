package convert_test

// Tests that conflicts of values with no text are recorded in the cell's
// metadata with the values each side's file holds.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// The reference for these tests: notebooks read by encoding/json, values
// compared as encoding/json decodes them (numbers as float64), pointers
// resolved here as RFC 6901 says.

func decodeJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

// pointerAt resolves an RFC 6901 pointer in decoded JSON.
func pointerAt(v any, p string) (any, bool) {
	if p == "" {
		return v, true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// cellByID finds a cell of a decoded notebook by id, or by index "#N".
func cellByID(nb map[string]any, id string) (map[string]any, bool) {
	cells, _ := nb["cells"].([]any)
	if strings.HasPrefix(id, "#") {
		i, _ := strconv.Atoi(id[1:])
		if i < len(cells) {
			c, ok := cells[i].(map[string]any)
			return c, ok
		}
		return nil, false
	}
	for _, c := range cells {
		if m, ok := c.(map[string]any); ok && m["id"] == id {
			return m, true
		}
	}
	return nil, false
}

// textOf is a notebook text (a string or a list of lines) as one string.
func textOf(v any) any {
	if l, ok := v.([]any); ok {
		var b strings.Builder
		for _, x := range l {
			s, _ := x.(string)
			b.WriteString(s)
		}
		return b.String()
	}
	return v
}

func notebook(minor int, cells ...string) []byte {
	return []byte(fmt.Sprintf(`{"cells": [%s], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": %d}`,
		strings.Join(cells, ", "), minor))
}

// withID adds an id member to a cell's JSON text for minor 5.
func withID(minor int, id, cell string) string {
	if minor < 5 {
		return cell
	}
	return `{"id": "` + id + `", ` + cell[1:]
}

// recordCase is a merge whose conflict has no text: the record expected,
// in the cell at (a cell id, "#N" for an index, "" for the notebook).
type recordCase struct {
	name               string
	base, ours, theirs []string // cells
	nbBase, nbO, nbT   string   // notebook metadata, when not the default
	at, pointer        string
	// kind: a side changes the cell's kind, which without cell ids (before
	// 4.5) makes it another cell (matched by kind and content): deleted
	// and added, not a record.
	kind bool
}

func code(meta, source, outputs string, count string) string {
	return `{"cell_type": "code", "execution_count": ` + count + `, "metadata": ` + meta + `, "outputs": ` + outputs + `, "source": ` + strconv.Quote(source) + `}`
}

func md(meta, source, atts string) string {
	s := `{"cell_type": "markdown", "metadata": ` + meta + `, "source": ` + strconv.Quote(source)
	if atts != "" {
		s += `, "attachments": ` + atts
	}
	return s + "}"
}

var recordCases = []recordCase{
	{name: "tags", base: []string{code(`{"tags": ["a"]}`, "x", "[]", "null")}, ours: []string{code(`{"tags": ["a", "b"]}`, "x", "[]", "null")},
		theirs: []string{code(`{"tags": ["c"]}`, "x", "[]", "null")}, at: "c0", pointer: "/metadata/tags"},
	{name: "nested metadata", base: []string{code(`{"colab": {"height": 1, "w": 2}}`, "x", "[]", "null")},
		ours: []string{code(`{"colab": {"height": 5, "w": 2}}`, "x", "[]", "null")}, theirs: []string{code("{\n  \"colab\": {\n    \"w\": 3,\n    \"height\": 7\n  }\n}", "x", "[]", "null")},
		at: "c0", pointer: "/metadata/colab/height"},
	{name: "attachment", base: []string{md(`{}`, "![](attachment:a.png)", `{"a.png": {"image/png": "aGk="}}`)},
		ours: []string{md(`{}`, "![](attachment:a.png)", `{"a.png": {"image/png": "aGkx"}}`)}, theirs: []string{md(`{}`, "![](attachment:a.png)", `{"a.png": {"image/png": "aGky"}}`)},
		at: "c0", pointer: "/attachments/a.png"},
	{name: "markdown with attachment made code vs attachment edited", kind: true, base: []string{md(`{}`, "![](attachment:a.png)", `{"a.png": {"image/png": "aGk="}}`)},
		ours: []string{code(`{}`, "![](attachment:a.png)", "[]", "null")}, theirs: []string{md(`{}`, "![](attachment:a.png)", `{"a.png": {"image/png": "aGkh"}}`)},
		at: "c0", pointer: "/attachments/a.png"},
	// (A prompt made a note vs its reply edited: a conflict of the cell's
	// source text, marked in it, as git's line merge of the source marks
	// it: cmd/ipynb TestMergePromptMadeAnotherKindMergesTheWholeSource.)
	{name: "kind", kind: true, base: []string{md(`{}`, "text", "")}, ours: []string{code(`{}`, "text", "[]", "null")},
		theirs: []string{`{"cell_type": "raw", "metadata": {}, "source": "text"}`}, at: "c0", pointer: "/cell_type"},
	{name: "code made a note vs outputs changed", kind: true, base: []string{code(`{}`, "1+1", `[{"output_type": "stream", "name": "stdout", "text": "2\n"}]`, "1")},
		ours: []string{md(`{}`, "1+1", "")}, theirs: []string{code(`{}`, "1+1", `[{"output_type": "stream", "name": "stdout", "text": "3\n"}]`, "1")},
		at: "c0", pointer: "/outputs"},
	{name: "counts", base: []string{code(`{}`, "x", "[]", "1")}, ours: []string{code(`{}`, "x", "[]", "2")},
		theirs: []string{code(`{}`, "x", "[]", "3")}, at: "c0", pointer: "/execution_count"},
	{name: "notebook metadata", base: []string{code(`{}`, "x", "[]", "null")}, ours: []string{code(`{}`, "x", "[]", "null")}, theirs: []string{code(`{}`, "x", "[]", "null")},
		nbBase: `{"widgets": {"state": {"a": 1}}}`, nbO: `{"widgets": {"state": {"a": 2}}}`, nbT: `{"widgets": {"state": {"a": 3}}}`, at: "", pointer: "/metadata/widgets/state/a"},
}

// Item 3 of issue 21: a conflict of values that have no text is recorded
// in the file, in the metadata of the cell concerned (the notebook's for
// notebook metadata), with the values each side's file holds at the
// pointer; the cell holds ours' value; the notebook is valid under the
// schema of every minor version (checked by Python nbformat when it is
// there). The sides' values come from the inputs as encoding/json reads
// them. (Without cell ids a cell whose kind changed is another cell: see
// recordCase.kind.)
func TestMergeRecordsConflictsInTheFile(t *testing.T) {
	t.Parallel()
	results := t.TempDir()
	defer pythonValidatesAll(t, results)
	n := 0
	for _, c := range recordCases {
		for minor := range 6 {
			if c.kind && minor < 5 {
				continue
			}
			build := func(cells []string, meta string) []byte {
				var cs []string
				for i, cell := range cells {
					cs = append(cs, withID(minor, fmt.Sprintf("c%d", i), cell))
				}
				nb := notebook(minor, cs...)
				if meta != "" {
					nb = bytes.Replace(nb, []byte(`{"kernelspec": {"name": "python3", "display_name": "Python 3"}}`), []byte(meta), 1)
				}
				return nb
			}
			in := [3][]byte{build(c.base, c.nbBase), build(c.ours, c.nbO), build(c.theirs, c.nbT)}
			name := fmt.Sprintf("%s (4.%d)", c.name, minor)
			res, err := merge(in[0], in[1], in[2], dialog.MergeOptions{})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if len(res.Conflicts) == 0 {
				t.Errorf("%s: clean", name)
				continue
			}
			os.WriteFile(filepath.Join(results, fmt.Sprintf("%03d.ipynb", n)), res.Data, 0o644)
			n++
			at := c.at
			if at != "" && minor < 5 {
				at = "#" + at[1:]
			}
			got := decodeJSON(t, res.Data)
			holder := got
			if at != "" {
				var ok bool
				if holder, ok = cellByID(got, at); !ok {
					t.Errorf("%s: no cell %s in %s", name, at, res.Data)
					continue
				}
			}
			recs, _ := pointerAt(holder, "/metadata/"+convert.ConflictsKey)
			list, _ := recs.([]any)
			var rec map[string]any
			for _, r := range list {
				if m, _ := r.(map[string]any); m != nil && m["pointer"] == c.pointer {
					rec = m
				}
			}
			if rec == nil {
				t.Errorf("%s: no record for %s in %s", name, c.pointer, res.Data)
				continue
			}
			if w, _ := rec["what"].(string); w == "" {
				t.Errorf("%s: the record says nothing of what: %v", name, rec)
			}
			for i, side := range []string{"base", "ours", "theirs"} {
				sideNB := decodeJSON(t, in[i])
				var sideHolder any = sideNB
				if at != "" {
					sideHolder, _ = cellByID(sideNB, at)
				}
				want, has := pointerAt(sideHolder, c.pointer)
				v, in := rec[side]
				if has != in || has && !cmp.Equal(textOf(v), textOf(want)) {
					t.Errorf("%s: record %s = %v (present %v), the %s file holds %v (present %v)", name, side, v, in, side, want, has)
				}
			}
			// The cell holds ours' value where its kind has a place for it.
			if oursCell, ok := pointerAt(decodeJSON(t, in[1]), "/cells/0"); ok && at != "" {
				want, has := pointerAt(oursCell, c.pointer)
				v, in := pointerAt(holder, c.pointer)
				if has != in || has && !cmp.Equal(textOf(v), textOf(want)) {
					t.Errorf("%s: the cell holds %v, ours %v", name, v, want)
				}
			}
		}
	}
}
