package dialog_test

// Tests of Make (placement as the seed's mk_message, outputs as JSON,
// refusals), shared ids, and replies marked by Python's truthiness.

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/truthy"
)

// Make places a message as the seed's mk_message does (append by default,
// idx, after, before) and fills it in the same call.
func TestMakePlacement(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	d.Random = rand.NewChaCha8([32]byte{1})
	a, err := d.Make(dialog.Note, "a", dialog.MakeOptions{ID: "aaaa0001"})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := d.Make(dialog.Code, "c", dialog.MakeOptions{ID: "cccc0003", Outputs: codeOutput("3"), ExecutionCount: new(4)})
	b, _ := d.Make(dialog.Prompt, "b", dialog.MakeOptions{Before: "cccc", Reply: "B!", Meta: map[string]any{"k": 1}, Attrs: map[string]any{"pinned": 1}})
	first, _ := d.Make(dialog.Raw, "first", dialog.MakeOptions{At: 1})
	last, _ := d.Make(dialog.Note, "last", dialog.MakeOptions{Attachments: []dialog.Attachment{{Data: []byte("png"), MIME: "image/png"}}})
	mid, _ := d.Make(dialog.Note, "mid", dialog.MakeOptions{After: a.ID})
	if diff := cmp.Diff([]string{first.ID, "aaaa0001", mid.ID, b.ID, "cccc0003", last.ID}, ids(d)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if out, _ := c.Outputs[0].Map(); out["data"].(map[string]any)["text/plain"] != "3" || *c.ExecutionCount != 4 {
		t.Errorf("code message %+v", c)
	}
	if b.Reply() != "B!" || b.Meta["k"] != 1 || b.Attrs["pinned"] != 1 {
		t.Errorf("prompt %+v", b)
	}
	if len(last.Attachments) != 1 || len(last.Attachments[0].ID) != 36 || string(last.Attachments[0].Data) != "png" {
		t.Errorf("attachments %+v", last.Attachments)
	}
	if !hexID.MatchString(mid.ID) {
		t.Errorf("fresh id %q", mid.ID)
	}
	if m, err := d.Make(dialog.Raw, "nil option", dialog.MakeOptions{}); err != nil || d.Messages[len(d.Messages)-1] != m {
		t.Errorf("a nil option: %v", err)
	}
	// The options' maps are copied, not shared.
	meta := map[string]any{"x": 1}
	m, _ := d.Make(dialog.Note, "n", dialog.MakeOptions{Meta: meta})
	meta["x"] = 2
	if m.Meta["x"] != 1 {
		t.Error("WithMeta shares the caller's map")
	}
}

// Outputs as JSON text (the seed's output='[…]' for code): numbers as a
// notebook read gives them.
func TestMakeOutputsJSON(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	m, err := d.Make(dialog.Code, "1+1", dialog.MakeOptions{OutputsJSON: `[{"output_type": "execute_result", "execution_count": 3,
		"data": {"text/plain": "2.5"}, "metadata": {"f": 1.5, "big": 123456789012345678901234567890}}]`})
	if err != nil {
		t.Fatal(err)
	}
	want := []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "execute_result", "execution_count": 3, "data": map[string]any{"text/plain": "2.5"},
		"metadata": map[string]any{"f": 1.5, "big": json.Number("123456789012345678901234567890")}})}
	if diff := cmp.Diff(want, m.Outputs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if e, _ := d.Make(dialog.Code, "x", dialog.MakeOptions{OutputsJSON: ""}); e == nil || len(e.Outputs) != 0 {
		t.Errorf("empty JSON: %v", e)
	}
}

// Every refusal names the problem and adds nothing.
func TestMakeRefuses(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	d.Messages = append(d.Messages, &dialog.Message{ID: "ab000001", Kind: dialog.Note})
	d.Messages = append(d.Messages, &dialog.Message{ID: "ab000002", Kind: dialog.Note})
	cases := []struct {
		kind dialog.Kind
		opts dialog.MakeOptions
		want string
		is   error
	}{
		{dialog.Note, dialog.MakeOptions{After: "zz"}, "after", dialog.ErrNotFound},
		{dialog.Note, dialog.MakeOptions{Before: "ab"}, "before", dialog.ErrAmbiguous},
		{dialog.Note, dialog.MakeOptions{ID: "ab000001"}, `id "ab000001"`, dialog.ErrDuplicateID},
		{dialog.Note, dialog.MakeOptions{At: 4}, "position 4: the dialog has 2 messages", nil},
		{dialog.Note, dialog.MakeOptions{At: -4}, "position -4", nil},
		{dialog.Note, dialog.MakeOptions{At: 1, After: "ab000001"}, "2 placements", nil},
		{dialog.Note, dialog.MakeOptions{Outputs: codeOutput("1")}, "only code messages have outputs", nil},
		{dialog.Code, dialog.MakeOptions{Reply: "r"}, "only prompts have replies", nil},
		{dialog.Note, dialog.MakeOptions{ExecutionCount: new(1)}, "execution count", nil},
		{dialog.Code, dialog.MakeOptions{Attachments: []dialog.Attachment{{Data: []byte("x"), MIME: "image/png"}}}, "attachments", nil},
		{dialog.Code, dialog.MakeOptions{Outputs: []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "bogus"})}}, `output_type "bogus"`, nil},
		{dialog.Note, dialog.MakeOptions{Meta: map[string]any{"f": func() {}}}, "metadata is not JSON", nil},
		{"chart", dialog.MakeOptions{}, "unknown kind", nil},
		{dialog.Code, dialog.MakeOptions{OutputsJSON: `[{"output_type": "stream"`}, "outputs JSON", nil},
		{dialog.Code, dialog.MakeOptions{OutputsJSON: `[1]`}, "outputs JSON", nil},
		{dialog.Code, dialog.MakeOptions{OutputsJSON: `[] []`}, "text after the array", nil},
		{dialog.Note, dialog.MakeOptions{OutputsJSON: `[]`}, "only code messages have outputs", nil},
		{dialog.Note, dialog.MakeOptions{ID: "has space"}, `id "has space": an id is 1 to 64`, nil},
		{dialog.Note, dialog.MakeOptions{ID: strings.Repeat("a", 65)}, "an id is 1 to 64", nil},
	}
	for _, c := range cases {
		m, err := d.Make(c.kind, "x", c.opts)
		if err == nil || m != nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "dialog: ") || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s %q: %v, %v", c.kind, c.want, m, err)
		}
		if len(d.Messages) != 2 {
			t.Fatalf("a refused Make added a message (%q)", c.want)
		}
	}
}

// The seed's find_id: an id that two messages share is ambiguous, not the
// first of them.
func TestGetSharedID(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	for _, id := range []string{"abcd0001", "dup00000", "dup00000"} {
		d.Messages = append(d.Messages, &dialog.Message{ID: id, Kind: dialog.Note})
	}
	if _, err := d.Get("dup00000"); !errors.Is(err, dialog.ErrAmbiguous) || !strings.Contains(err.Error(), "at 1, 2") {
		t.Errorf("Get of a shared id: %v", err)
	}
	if _, err := d.Remove("dup00000"); !errors.Is(err, dialog.ErrAmbiguous) || len(d.Messages) != 3 {
		t.Errorf("Remove of a shared id: %v", err)
	}
	if _, err := d.Make(dialog.Note, "x", dialog.MakeOptions{After: "dup00000"}); !errors.Is(err, dialog.ErrAmbiguous) {
		t.Errorf("Make after a shared id: %v", err)
	}
	if m, err := d.Get("abcd"); err != nil || m.ID != "abcd0001" {
		t.Errorf("unique prefix: %v %v", m, err)
	}
}

// Python's truthiness decides whether an output is a reply (the seed's
// ai_res filters on nested_idx(x, 'metadata', 'is_ai_res')); the expected
// verdicts are Python's own bool(json.loads(v)).
func TestReplyMarkedTruthy(t *testing.T) {
	t.Parallel()
	lits := []string{`true`, `false`, `1`, `0`, `2`, `0.0`, `-1.5`, `""`, `"yes"`, `"0"`, `[]`, `[0]`, `{}`, `{"a":1}`, `null`}
	want := pythonBools(t, lits)
	for i, lit := range lits {
		var v any
		if err := json.Unmarshal([]byte(lit), &v); err != nil {
			t.Fatal(err)
		}
		if f, ok := v.(float64); ok && f == float64(int(f)) && !strings.Contains(lit, ".") {
			v = int(f) // nbformat.Decode gives ints for integers
		}
		m := &dialog.Message{Kind: dialog.Prompt, Outputs: []dialog.Output{
			dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": v}, "data": map[string]any{"text/markdown": "R"}})}}
		if got := m.Reply() == "R"; got != want[i] {
			t.Errorf("is_ai_res %s: reply %v, Python says %v", lit, got, want[i])
		}
		if truthy.Of(v) != want[i] {
			t.Errorf("Truthy(%s) = %v, Python says %v", lit, !want[i], want[i])
		}
		m.SetReply("new")
		if m.Reply() != "new" || len(m.Outputs) != 1+boolInt(!want[i]) {
			t.Errorf("is_ai_res %s: SetReply left %v", lit, m.Outputs)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pythonBools asks Python for bool(json.loads(lit)) of each literal.
func pythonBools(t *testing.T, lits []string) []bool {
	t.Helper()
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("python3 not found")
	}
	in, _ := json.Marshal(lits)
	out, err := exec.Command(py, "-c", "import json,sys; print(json.dumps([bool(json.loads(s)) for s in json.loads(sys.argv[1])]))", string(in)).Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	var bs []bool
	if err := json.Unmarshal(out, &bs); err != nil || len(bs) != len(lits) {
		t.Fatalf("python3 said %s: %v", out, err)
	}
	return bs
}

// Messages made by Add and Make have metadata ready to be written to; the
// metadata given to Make is copied.
func TestNewMessagesHaveMeta(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	a := d.Add(dialog.Note, "a")
	a.Meta["k"] = 1 // would panic on a nil map
	m, err := d.Make(dialog.Code, "x = 1", dialog.MakeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Meta["k"] = 2
	given := map[string]any{"g": 1}
	p, err := d.Make(dialog.Prompt, "q", dialog.MakeOptions{Meta: given, Attrs: map[string]any{"pinned": 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Meta["h"] = 2
	if _, ok := given["h"]; ok {
		t.Error("Make shares the metadata given")
	}
	if a.Meta["k"] != 1 || m.Meta["k"] != 2 || p.Attrs["pinned"] != 1 {
		t.Errorf("metadata %v %v %v", a.Meta, m.Meta, p.Attrs)
	}
}
