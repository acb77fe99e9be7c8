package convert_test

// Tests that a side that only re-saved a notebook Colab-style changed no value
// in a merge.

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/nbformat"
)

// colabResave re-saves notebooks as Colab does, by Python's json: two
// spaces, every object's keys in reverse order, numbers as Python spells
// them; one notebook per line of the input and of the output (as JSON
// strings).
func colabResave(t *testing.T, nbs [][]byte) [][]byte {
	t.Helper()
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("python3 absent: no Colab-style re-save")
	}
	var in bytes.Buffer
	for _, nb := range nbs {
		line, _ := json.Marshal(string(nb))
		in.Write(line)
		in.WriteByte('\n')
	}
	cmd := exec.Command(py, "-c", `
import json, sys
for line in sys.stdin:
    nb = json.loads(json.loads(line), object_pairs_hook=lambda ps: dict(reversed(ps)))
    print(json.dumps(json.dumps(nb, indent=2, ensure_ascii=False) + "\n"))
`)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var res [][]byte
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		var s string
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		res = append(res, []byte(s))
	}
	if len(res) != len(nbs) {
		t.Fatalf("python re-saved %d of %d", len(res), len(nbs))
	}
	return res
}

// Item 2 of issue 21, over real notebooks: a side that only re-saved a
// notebook Colab-style (re-indented, every key reordered) changed no
// value: merged with a side that changed cell metadata (a nested key
// under "colab"-like objects and the tags) and outputs' metadata, the
// merge is clean and equals that side's notebook as JSON, whichever side
// re-saved; and diff finds nothing between a notebook and its re-save.
// The reference is encoding/json's reading of the notebooks.
func TestMergeColabResavedIsNoChange(t *testing.T) {
	t.Parallel()
	var bases [][]byte
	for e, data := range corpus.Files(t) {
		if e.Schema != "valid" {
			continue
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 || len(nb.Cells) == 0 || bytes.Contains(data, []byte(`\ud`)) || bytes.Contains(data, []byte(`\uD`)) {
			continue
		}
		bases = append(bases, data)
		if len(bases) == 60 {
			break
		}
	}
	if len(bases) == 0 {
		t.Skip("no corpus notebooks")
	}
	resaved := colabResave(t, bases)
	checked := 0
	for i, base := range bases {
		if d, err := convert.Diff(base, resaved[i]); err != nil || len(d) != 0 {
			t.Errorf("notebook %d: diff of its re-save: %v %v", i, d, err)
		}
		edited, ok := editMeta(t, base)
		if !ok {
			continue
		}
		want := decodeJSON(t, edited)
		for _, swap := range []bool{false, true} {
			o, th := edited, resaved[i]
			if swap {
				o, th = th, o
			}
			res, err := merge(base, o, th, dialog.MergeOptions{})
			if err != nil {
				t.Fatalf("notebook %d: %v", i, err)
			}
			if len(res.Conflicts) > 0 {
				t.Errorf("notebook %d (swapped %v): conflicts %v", i, swap, res.Conflicts)
				continue
			}
			if got := decodeJSON(t, res.Data); !cmp.Equal(got, want) {
				t.Errorf("notebook %d (swapped %v): the merge differs from the edited side as JSON", i, swap)
			}
		}
		checked++
	}
	t.Logf("%d notebooks merged with their Colab-style re-saves", checked)
}

// editMeta changes the metadata of a notebook's first cell (a nested
// object and the tags), through encoding/json: ok is false if it cannot.
func editMeta(t *testing.T, data []byte) ([]byte, bool) {
	nb := decodeJSON(t, data)
	cells, _ := nb["cells"].([]any)
	c, _ := cells[0].(map[string]any)
	if c == nil {
		return nil, false
	}
	md, _ := c["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		c["metadata"] = md
	}
	md["colab"] = map[string]any{"base_uri": "https://localhost:8080/", "height": 42.0}
	md["tags"] = []any{"edited"}
	out, err := json.MarshalIndent(nb, "", " ")
	return out, err == nil
}
