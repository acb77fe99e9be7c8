package convert_test

// The acceptance tests of dialogs over the corpus: round trip, healing that
// keeps content, edit locality, and version 3 files.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// Acceptance 2: every valid corpus notebook goes through a dialog and back
// byte for byte.
func TestCorpusDialogRoundTrip(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		if e.Schema != "valid" {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: dialog round trip differs %s", e.Path, firstDiff(data, out))
		}
		n++
	}
	t.Logf("%d dialogs round-tripped", n)
}

// Acceptance 3: every invalid corpus notebook is written valid, with every
// cell's source, every code cell's outputs and every attachment.
func TestCorpusDialogHeals(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		if e.Schema != "invalid" {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			// Only what nbformat itself cannot take as a notebook.
			if _, nerr := nbformat.Unmarshal(data); nerr == nil {
				if nb, _ := nbformat.Unmarshal(data); nb.Nbformat >= 3 {
					t.Errorf("%s: %v", e.Path, err)
				}
			}
			continue
		}
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		back, err := nbformat.Unmarshal(out)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if err := nbformat.Validate(back); err != nil {
			t.Errorf("%s: written notebook invalid: %v", e.Path, err)
		}
		want, got := content(t, data), content(t, out)
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Errorf("%s: content lost:\n%s", e.Path, diffLines(want, got))
		}
		n++
	}
	t.Logf("%d invalid notebooks healed", n)
}

// content lists, independently of the code under test (encoding/json), what
// healing must keep: each cell's source text, each code cell's output
// texts, each attachment's data. Version 3 files list their worksheets'
// cells.
func content(t *testing.T, data []byte) []string {
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("content: %v", err)
	}
	cells, _ := nb["cells"].([]any)
	if ws, ok := nb["worksheets"].([]any); ok {
		for _, w := range ws {
			wm, _ := w.(map[string]any)
			c, _ := wm["cells"].([]any)
			cells = append(cells, c...)
		}
	}
	sep := ""
	if nb["nbformat"] == 2.0 {
		sep = "\n" // version 2 stored lines without their newlines
	}
	text := func(v any) string {
		switch v := v.(type) {
		case nil:
			return ""
		case string:
			return v
		case []any:
			var parts []string
			for _, x := range v {
				s, _ := x.(string)
				parts = append(parts, s)
			}
			return strings.Join(parts, sep)
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	var out []string
	for _, c := range cells {
		cm, _ := c.(map[string]any)
		src := cm["source"]
		if src == nil {
			src = cm["input"]
		}
		words := strings.Join(strings.Fields(strings.ReplaceAll(text(src), "#", "")), " ")
		out = append(out, "source: "+words)
		if cm["cell_type"] == "code" {
			outs, _ := cm["outputs"].([]any)
			for _, o := range outs {
				om, _ := o.(map[string]any)
				if ot := om["output_type"]; ot == "pyout" || ot == "display_data" && om["data"] == nil {
					// A version 3 output: its data sits at the top level
					// under short names.
					data := map[string]any{}
					for alias, mime := range map[string]string{"text": "text/plain", "html": "text/html", "svg": "image/svg+xml",
						"png": "image/png", "jpeg": "image/jpeg", "latex": "text/latex", "json": "application/json", "javascript": "application/javascript"} {
						if v, ok := om[alias]; ok {
							data[mime] = v
						}
					}
					om = map[string]any{"data": data}
				}
				var parts []string
				for _, k := range []string{"text", "traceback", "ename", "evalue"} {
					if v, ok := om[k]; ok {
						parts = append(parts, text(v))
					}
				}
				if data, ok := om["data"].(map[string]any); ok {
					for _, k := range sortedKeys(data) {
						parts = append(parts, k+"="+text(data[k]))
					}
				}
				out = append(out, "  output: "+strings.Join(strings.Fields(strings.Join(parts, "|")), " "))
			}
		}
		if atts, ok := cm["attachments"].(map[string]any); ok {
			for _, name := range sortedKeys(atts) {
				out = append(out, "  attachment: "+name+" "+text(atts[name]))
			}
		}
	}
	return out
}

// Acceptance 4: editing one message's content changes no byte outside its
// cell.
func TestCorpusDialogEditLocality(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		if e.Schema != "valid" {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil || len(d.Messages) < 3 {
			continue
		}
		nb, _ := nbformat.Unmarshal(data)
		if nb.Nbformat != 4 {
			continue // a changed version 3 dialog is written as 4.5
		}
		mid := len(d.Messages) / 2
		start, end := cellSpan(t, data, mid)
		m := d.Messages[mid]
		m.Content += "\nedited é"
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		tail := len(data) - end
		if len(out) < start+tail || !bytes.Equal(out[:start], data[:start]) || !bytes.Equal(out[len(out)-tail:], data[end:]) {
			t.Errorf("%s: bytes outside message %d's cell changed %s", e.Path, mid, firstDiff(data, out))
			continue
		}
		back, err := convert.Unmarshal(out, convert.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if got := back.Messages[mid].Content; got != m.Content {
			t.Errorf("%s: edit reads back as %q", e.Path, got)
		}
		n++
	}
	t.Logf("%d dialogs edited", n)
}

// A version 3 dialog is written back unchanged while unedited, and as a
// valid 4.5 notebook once edited.
func TestV3Dialog(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "v3.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 3 || d.Messages[0].Content != "## Old notebook" || d.Messages[2].Kind != dialog.Code {
		t.Fatalf("messages: %s", d.Summary(120, 20))
	}
	out, _ := convert.Marshal(d, convert.WriteOptions{})
	if !bytes.Equal(out, data) {
		t.Error("unedited v3 dialog not written back unchanged")
	}
	d.Messages[1].Content = "changed"
	out, err = convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.Unmarshal(out)
	if err != nil || nb.Nbformat != 4 || nb.NbformatMinor != 5 || nbformat.Validate(nb) != nil {
		t.Errorf("edited v3 dialog written as %d.%d: %v", nb.Nbformat, nb.NbformatMinor, nbformat.Validate(nb))
	}
}
