package v3write

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// TestCorpusUnchangedIsOurs: every version 3 notebook of the corpus,
// given as its own upgrade's cells (with or without its upgraded
// metadata), comes back byte for byte.
func TestCorpusUnchangedIsOurs(t *testing.T) {
	t.Parallel()
	for name, data := range corpusV3(t) {
		cells, meta, err := tryUpgrade(data)
		if err != nil {
			continue // (the upgrade refuses it: no cells to give)
		}
		for _, m := range []map[string]any{nil, meta} {
			out, err := Write(data, &Notebook{Cells: oursCells(cells), Meta: m})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if string(out) != string(data) {
				t.Errorf("%s (metadata given %v): changed:\n%s", name, m != nil, jsonDiff(t, data, out))
			}
		}
	}
}

// TestCorpusAsPythonDowngrade: every corpus version 3 notebook, its cells
// given as new (converted from their upgrade alone, with the notebook's
// upgraded metadata), is what Python nbformat's downgrade of its upgrade
// holds, as JSON values, but for the documented differences: Python
// writes an unrun cell's prompt_number null where ours leaves it out,
// adds a metadata name "" where ours has none, and drops ours' signature. Python reads the
// result, its upgrade of it is its upgrade of the original, and it is
// valid where the original is.
func TestCorpusAsPythonDowngrade(t *testing.T) {
	t.Parallel()
	files := corpusV3(t)
	outs := map[string][]byte{}
	ins := map[string][]byte{}
	for name, data := range files {
		cells, meta, err := tryUpgrade(data)
		if err != nil {
			continue
		}
		cs := make([]Cell, len(cells))
		for i, c := range cells {
			cs[i] = Cell{Cell: c}
		}
		out, err := Write(data, &Notebook{Cells: cs, Meta: meta})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		key := strings.ReplaceAll(name, "/", "_")
		ins[key], outs[key+".out"] = data, out
	}
	all := map[string][]byte{}
	for k, v := range ins {
		all[k] = v
	}
	for k, v := range outs {
		all[k] = v
	}
	ref := reference(t, all)
	compared := 0
	for name := range ins {
		in, out := ref[name], ref[name+".out"]
		if in.Downgrade == nil || in.Upgrade == nil {
			continue // (Python refuses the original)
		}
		if out.Upgrade == nil {
			t.Errorf("%s: Python cannot read the result: %v", name, deref(out.Error))
			continue
		}
		compared++
		if d := jsonDiff(t, []byte(*in.Upgrade), []byte(*out.Upgrade)); d != "" {
			t.Errorf("%s: Python's upgrade of the result is not its upgrade of the original (-want +got):\n%s", name, d)
		}
		if *in.Valid && !*out.Valid {
			t.Errorf("%s: the result is invalid", name)
		}
		want := pythonDifferences(t, []byte(*in.Downgrade), ins[name])
		if d := jsonDiff(t, want, outs[name+".out"]); d != "" {
			t.Errorf("%s: not Python's downgrade (-want +got):\n%s", name, d)
		}
		if *in.Valid {
			nb, err := nbformat.Unmarshal(outs[name+".out"])
			if err != nil {
				t.Fatal(err)
			}
			if err := nbformat.Validate(nb); err != nil {
				t.Errorf("%s: invalid: %v", name, err)
			}
		}
	}
	t.Logf("%d corpus notebooks compared with Python's downgrade", compared)
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// pythonDifferences returns Python's downgrade of a file (ours) with the
// documented differences undone: prompt_number null removed from code
// cells where ours leaves out unrun cells' prompt numbers, the metadata's
// name removed where ours has none, ours' signature kept.
func pythonDifferences(t *testing.T, down, ours []byte) []byte {
	t.Helper()
	f, err := readFile("ours", ours)
	if err != nil {
		t.Fatal(err)
	}
	st := detectStyle(f)
	nb := decode(t, down).(map[string]any)
	if om, _ := decode(t, ours).(map[string]any)["metadata"].(map[string]any); om != nil {
		md := nb["metadata"].(map[string]any)
		if _, ok := om["name"]; !ok {
			delete(md, "name")
		}
		if sig, ok := om["signature"]; ok {
			md["signature"] = sig
		}
	}
	for _, w := range nb["worksheets"].([]any) {
		for _, c := range w.(map[string]any)["cells"].([]any) {
			cm := c.(map[string]any)
			if v, ok := cm["prompt_number"]; ok && v == nil && !st.nullCount {
				delete(cm, "prompt_number")
			}
		}
	}
	out, err := encodeJSON(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
