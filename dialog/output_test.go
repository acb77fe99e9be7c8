package dialog_test

// Tests of outputs: values never shared, JSON read and written as a notebook
// does, and merges that never decode unedited outputs read.

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbtest"
)

// countingSource is an output kept as JSON text, counting its decodes; two
// of them are Same when their texts are.
type countingSource struct {
	typ     string
	text    string
	decodes *atomic.Int64
}

func (s *countingSource) Type() string { return s.typ }

func (s *countingSource) Decode() (map[string]any, error) {
	s.decodes.Add(1)
	var m map[string]any
	err := json.Unmarshal([]byte(s.text), &m)
	return m, err
}

func (s *countingSource) Size() (int, bool) { return 0, false }

func (s *countingSource) Same(other dialog.OutputSource) bool {
	o, ok := other.(*countingSource)
	return ok && o.text == s.text
}

func sourced(n *atomic.Int64, text string) dialog.Output {
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		panic(err)
	}
	typ, _ := m["output_type"].(string)
	return dialog.SourcedOutput(&countingSource{typ: typ, text: text, decodes: n})
}

// readDialog is a dialog as a reader makes it: each call gives new output
// values over the same texts, as reading one file twice does.
func readDialog(n *atomic.Int64, streams ...string) *dialog.Dialog {
	d := &dialog.Dialog{Name: "read"}
	for i, s := range streams {
		m := &dialog.Message{ID: fmt.Sprintf("c%03d", i), Kind: dialog.Code, Content: "print()"}
		m.Outputs = []dialog.Output{sourced(n, `{"output_type": "stream", "name": "stdout", "text": "`+s+`\n"}`),
			sourced(n, `{"output_type": "display_data", "metadata": {}, "data": {"image/png": "`+strings.Repeat("iVBO", 100)+`"}}`)}
		d.Messages = append(d.Messages, m)
	}
	return d
}

// Merging and diffing dialogs whose outputs are read and not edited never
// decodes an output: they compare by OutputSource.Same. An output one side
// changed costs the decoding of the pairs Same cannot tell (it is unsure,
// not sure they differ), whatever the number of outputs unchanged.
func TestMergeComparesReadOutputsUndecoded(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	texts := make([]string, 60)
	for i := range texts {
		texts[i] = strings.Repeat("x", i)
	}
	base, ours, theirs := readDialog(&n, texts...), readDialog(&n, texts...), readDialog(&n, texts...)
	ours.Messages[0].Content = "print(1)"
	theirs.Messages[2].Content = "print(3)"
	merged, conflicts := dialog.Merge(base, ours, theirs, dialog.MergeOptions{})
	if len(conflicts) != 0 || merged.Messages[0].Content != "print(1)" || merged.Messages[2].Content != "print(3)" {
		t.Fatalf("merge: %v conflicts, %v", conflicts, merged)
	}
	if changes := dialog.Diff(base, ours, dialog.DiffOptions{}); len(changes) != 1 {
		t.Errorf("diff: %v", changes)
	}
	if got := n.Load(); got != 0 {
		t.Errorf("merging and diffing unedited outputs decoded %d of them", got)
	}
	// Theirs ran a cell again: its new output is taken as it is.
	texts[1] = "new"
	theirs = readDialog(&n, texts...)
	merged, conflicts = dialog.Merge(base, ours, theirs, dialog.MergeOptions{})
	if len(conflicts) != 0 || !merged.Messages[1].Outputs[0].Equal(theirs.Messages[1].Outputs[0]) {
		t.Fatalf("merge: %v conflicts, outputs %v", conflicts, merged.Messages[1].Outputs)
	}
	if got := n.Load(); got > 4 {
		// Two pairs Same is unsure of (base or ours against theirs' new
		// output), decoded to compare: nothing else.
		t.Errorf("merging one changed output among %d decoded %d outputs", 2*len(texts), got)
	}
}

// Outputs are values: NewOutput copies the map given, Map returns a copy,
// and an edit is a new output.
func TestOutputIsAValue(t *testing.T) {
	t.Parallel()
	data := map[string]any{"text/plain": "1"}
	src := map[string]any{"output_type": "execute_result", "execution_count": 1, "metadata": map[string]any{}, "data": data}
	o := dialog.NewOutput(src)
	data["text/plain"] = "changed"
	g, err := o.Map()
	if err != nil {
		t.Fatal(err)
	}
	if g["data"].(map[string]any)["text/plain"] != "1" {
		t.Error("a change to the map given reached the output")
	}
	g["data"].(map[string]any)["text/plain"] = "2"
	if again, _ := o.Map(); again["data"].(map[string]any)["text/plain"] != "1" {
		t.Error("a change to the map returned reached the output")
	}
	edited := dialog.NewOutput(g)
	if edited.Equal(o) || !edited.Equal(dialog.NewOutput(g)) {
		t.Error("an edited output compares as the original")
	}
	var zero dialog.Output
	if j, err := zero.MarshalJSON(); zero.Type() != "" || zero.IsReply() || !zero.Equal(dialog.Output{}) || string(j) != "{}" || err != nil {
		t.Errorf("zero output: type %q, %s, %v", zero.Type(), j, err)
	}
}

// Outputs as JSON: MarshalJSON writes what encoding/json writes of the
// map, UnmarshalJSON (and MakeOptions.OutputsJSON) read numbers as a
// notebook read gives them, and text that is not an array of objects is
// refused.
func TestOutputJSON(t *testing.T) {
	t.Parallel()
	var outs []dialog.Output
	err := json.Unmarshal([]byte(`[{"output_type": "stream", "name": "stdout", "text": "hi\n"},
		{"output_type": "execute_result", "execution_count": 2, "metadata": {"x": 1.5, "big": 123456789012345678901234567890}, "data": {"text/plain": "<b>"}}]`), &outs)
	if err != nil {
		t.Fatal(err)
	}
	if !outs[0].Equal(streamOutput("stdout", "hi\n")) {
		t.Errorf("stream %v", outs[0])
	}
	g, _ := outs[1].Map()
	md := g["metadata"].(map[string]any)
	if g["execution_count"] != 2 || md["x"] != 1.5 || md["big"] != json.Number("123456789012345678901234567890") {
		t.Errorf("numbers %#v", g)
	}
	b, err := json.Marshal(outs)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal([]map[string]any{mustMap(t, outs[0]), g})
	if string(b) != string(want) {
		t.Errorf("MarshalJSON %s, want %s", b, want)
	}
	var back []dialog.Output
	if err := json.Unmarshal(b, &back); err != nil || len(back) != 2 || !back[0].Equal(outs[0]) || !back[1].Equal(outs[1]) {
		t.Errorf("UnmarshalJSON: %v %v", back, err)
	}
	for _, bad := range []string{`{}`, `[1]`, `[{}] x`, `[{"a": }]`, ``} {
		d := &dialog.Dialog{Name: "d"}
		if _, err := d.Make(dialog.Code, "x", dialog.MakeOptions{OutputsJSON: bad}); bad != "" && (err == nil || !strings.Contains(err.Error(), "outputs JSON")) {
			t.Errorf("OutputsJSON %q: %v", bad, err)
		}
		var outs []dialog.Output
		if err := json.Unmarshal([]byte(bad), &outs); err == nil {
			t.Errorf("json.Unmarshal(%q) into []Output: no error", bad)
		}
	}
	var o dialog.Output
	if err := json.Unmarshal([]byte(`[1]`), &o); err == nil {
		t.Error("an array read as an output")
	}
}

func mustMap(t *testing.T, o dialog.Output) map[string]any {
	t.Helper()
	m, err := o.Map()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	codeOutput   = nbtest.CodeOutput
	streamOutput = nbtest.StreamOutput
)
