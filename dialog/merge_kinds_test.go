package dialog_test

// Tests of merges where a side changes a message's kind, replaces messages,
// edits metadata values or renames a message: no edit is lost.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
)

// full returns a message of kind k with every part its kind holds.
func full(k dialog.Kind) *dialog.Message {
	m := &dialog.Message{ID: "x", Kind: k, Content: "line 1\nline 2\n", Meta: map[string]any{"tags": []any{"a"}}}
	switch k {
	case dialog.Code:
		m.Outputs = []dialog.Output{stream("out\n")}
		m.ExecutionCount = count(1)
	case dialog.Prompt:
		m.SetReply("the reply\n")
		m.Attachments = []dialog.Attachment{{ID: "a.png", MIME: "image/png", Data: []byte("png")}}
	case dialog.Note:
		m.Attachments = []dialog.Attachment{{ID: "a.png", MIME: "image/png", Data: []byte("png")}}
	}
	return m
}

// edit is an edit of one part of a message, and how to read that part.
type edit struct {
	part  dialog.Part
	apply func(m *dialog.Message)
	value func(m *dialog.Message) any
}

var partEdits = []edit{
	{dialog.PartContent, func(m *dialog.Message) { m.Content = "line 1\nline 2 edited\n" }, func(m *dialog.Message) any { return m.Content }},
	{dialog.PartReply, func(m *dialog.Message) { m.SetReply("the reply, edited\n") }, func(m *dialog.Message) any { return m.Reply() }},
	{dialog.PartOutputs, func(m *dialog.Message) { m.Outputs = []dialog.Output{stream("new out\n")} }, func(m *dialog.Message) any { return outputsText(m.Outputs) }},
	{dialog.PartCount, func(m *dialog.Message) { m.ExecutionCount = count(9) }, func(m *dialog.Message) any { return countOf(m) }},
	{dialog.PartAttachments, func(m *dialog.Message) {
		m.Attachments = []dialog.Attachment{{ID: "a.png", MIME: "image/png", Data: []byte("png, edited")}}
	},
		func(m *dialog.Message) any { return attachmentsOf(m) }},
	{dialog.PartMeta, func(m *dialog.Message) { m.Meta = map[string]any{"tags": []any{"a", "b"}} }, func(m *dialog.Message) any { return fmt.Sprint(m.Meta["tags"]) }},
}

// holds reports which part kinds hold.
func holds(k dialog.Kind, p dialog.Part) bool {
	switch p {
	case dialog.PartReply:
		return k == dialog.Prompt
	case dialog.PartOutputs, dialog.PartCount:
		return k == dialog.Code
	case dialog.PartAttachments:
		return k == dialog.Note || k == dialog.Prompt
	}
	return true
}

func outputsText(outs []dialog.Output) string {
	var b strings.Builder
	for _, o := range outs {
		j, _ := o.MarshalJSON()
		b.Write(j)
	}
	return b.String()
}

func countOf(m *dialog.Message) any {
	if m.ExecutionCount == nil {
		return nil
	}
	return *m.ExecutionCount
}

func attachmentsOf(m *dialog.Message) string {
	var b strings.Builder
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, "%s %s %s;", a.ID, a.MIME, a.Data)
	}
	return b.String()
}

// Item 3 of issue 21: one side changes a message's kind while the other
// edits any of its parts; whichever side does which, the edit is in the
// merged message, or reported as a conflict that has the edited value
// (for package convert to record), and the merged message holds only
// what its kind has a place for. Found before: a prompt made a note while
// the reply was edited lost the reply; a note with an attachment made
// code while the attachment was edited could not be written.
func TestMergeKindChangeKeepsTheOtherSidesEdit(t *testing.T) {
	t.Parallel()
	kinds := []dialog.Kind{dialog.Note, dialog.Prompt, dialog.Code, dialog.Raw}
	for _, from := range kinds {
		for _, to := range kinds {
			if from == to {
				continue
			}
			for _, e := range partEdits {
				if !holds(from, e.part) {
					continue
				}
				for _, swap := range []bool{false, true} {
					name := fmt.Sprintf("%s->%s vs %v (kind changed by theirs: %v)", from, to, e.part, swap)
					b := dlg(full(from))
					kc, ed := clone(b), clone(b)
					changeKind(kc.Messages[0], to)
					e.apply(ed.Messages[0])
					want := e.value(ed.Messages[0])
					o, th := kc, ed
					if swap {
						o, th = ed, kc
					}
					got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
					m := got.Messages[0]
					if m.Kind != to {
						t.Errorf("%s: kind %s", name, m.Kind)
					}
					if !fits(m) {
						t.Errorf("%s: the merged %s holds what it has no place for: %v", name, m.Kind, m)
					}
					if cmp.Equal(e.value(m), want) || holds(to, e.part) && e.part != dialog.PartAttachments && inText(m, e, want) {
						continue
					}
					if !recorded(cs, e, want, swap) {
						t.Errorf("%s: the edit (%v) is neither in the merge (%v) nor in a conflict: %+v", name, want, e.value(m), cs)
					}
				}
			}
		}
	}
}

// changeKind makes m a message of kind k, dropping what k has no place
// for, as an editor does.
func changeKind(m *dialog.Message, k dialog.Kind) {
	reply := m.Reply()
	m.Kind = k
	if k != dialog.Code {
		m.Outputs, m.ExecutionCount = nil, nil
	}
	if k == dialog.Prompt {
		m.SetReply(reply)
	}
	if k == dialog.Code {
		m.Attachments = nil
	}
}

// fits reports whether m holds only what its kind has a place for.
func fits(m *dialog.Message) bool {
	switch m.Kind {
	case dialog.Code:
		return len(m.Attachments) == 0
	case dialog.Prompt:
		for _, o := range m.Outputs {
			if !o.IsReply() {
				return false
			}
		}
		return m.ExecutionCount == nil
	}
	return len(m.Outputs) == 0 && m.ExecutionCount == nil
}

// inText reports whether the edited text is in the merged message between
// conflict markers.
func inText(m *dialog.Message, e edit, want any) bool {
	s, ok := want.(string)
	if !ok {
		return false
	}
	got, _ := e.value(m).(string)
	return strings.Contains(got, "<<<<<<<") && strings.Contains(got, strings.Split(s, "\n")[1])
}

// recorded reports whether a conflict of part e.part, not shown in text,
// holds the edited value as the editing side's.
func recorded(cs []dialog.Conflict, e edit, want any, oursEdited bool) bool {
	side := 2
	if oursEdited {
		side = 1
	}
	for _, c := range cs {
		if c.Part != e.part || c.InText {
			continue
		}
		v := c.Values[side]
		switch e.part {
		case dialog.PartOutputs:
			outs, _ := v.([]dialog.Output)
			v = outputsText(outs)
		case dialog.PartAttachments:
			a, _ := v.(dialog.Attachment)
			v = attachmentsOf(&dialog.Message{Attachments: []dialog.Attachment{a}})
		}
		if cmp.Equal(v, want) {
			return true
		}
	}
	return false
}

// Item 5 of issue 21: each side deletes the same messages and adds its
// own there: both sides' new messages are kept, ours' then theirs',
// between raw marker messages, and it is a conflict (as nbdime has it).
// Inserting at one place without deleting stays clean (ours first), and
// so does one side replacing while the other only deletes.
func TestMergeReplacedOnBothSides(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	for _, d := range []*dialog.Dialog{o, th} {
		d.Remove("m2")
		d.Remove("m3")
	}
	o.Messages = slices.Insert(o.Messages, 1, msg("o1", dialog.Code, "ours 1"))
	o.Messages = slices.Insert(o.Messages, 2, msg("o2", dialog.Note, "ours 2"))
	th.Messages = slices.Insert(th.Messages, 1, msg("t1", dialog.Code, "theirs 1"))
	for _, opt := range []dialog.MergeOptions{{}, {MarkerSize: 9, OursLabel: "main", TheirsLabel: "topic"}} {
		got, cs := mustMerge(t, b, o, th, opt)
		var contents []string
		for _, m := range got.Messages {
			contents = append(contents, m.Content)
		}
		size, ol, tl := 7, "ours", "theirs"
		if opt.MarkerSize > 0 {
			size, ol, tl = opt.MarkerSize, opt.OursLabel, opt.TheirsLabel
		}
		want := []string{"# Title\n", strings.Repeat("<", size) + " " + ol, "ours 1", "ours 2", strings.Repeat("=", size), "theirs 1",
			strings.Repeat(">", size) + " " + tl, "raw", "print(x)"}
		if !cmp.Equal(contents, want) {
			t.Errorf("contents %q, want %q", contents, want)
		}
		if len(cs) != 1 || cs[0].What != "replaced on both sides" || !cs[0].InText || cs[0].ID != got.Messages[1].ID || got.Messages[1].Kind != dialog.Raw {
			t.Errorf("conflicts %v", whats(cs))
		}
	}
	// Only inserting: clean. One side replacing, the other deleting: clean.
	o2, th2 := clone(b), clone(b)
	o2.Messages = slices.Insert(o2.Messages, 2, msg("o1", dialog.Note, "ours"))
	th2.Messages = slices.Insert(th2.Messages, 2, msg("t1", dialog.Note, "theirs"))
	if _, cs := mustMerge(t, b, o2, th2, dialog.MergeOptions{}); len(cs) != 0 {
		t.Errorf("inserts: %v", whats(cs))
	}
	th3 := clone(b)
	th3.Remove("m2")
	th3.Remove("m3")
	if got, cs := mustMerge(t, b, o, th3, dialog.MergeOptions{}); len(cs) != 0 || idList(got) != "m1 o1 o2 m4 m5" {
		t.Errorf("replaced vs deleted: %q %v", idList(got), whats(cs))
	}
}

// Item 2 of issue 21: metadata held as raw JSON is compared and merged as
// the value it holds: a side that only re-indented or reordered it
// changed nothing, and both sides changing different keys at any depth
// merge cleanly, whatever holds the objects (raw JSON or maps); the
// merged raw object keeps ours' key order, theirs' new keys after.
func TestMergeMetadataValues(t *testing.T) {
	t.Parallel()
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	b := dlg(&dialog.Message{ID: "x", Kind: dialog.Code, Content: "c", Meta: map[string]any{
		"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 100, "deep": {"a": 1, "b": [1, 2]}}`), "n": 1}})
	for _, c := range []struct {
		name      string
		ours, th  map[string]any
		want      map[string]any
		wantBytes string // ours' colab as merged, when raw (compacted: the key order)
	}{
		{"re-indented vs changed", map[string]any{"colab": raw("{\n  \"deep\": {\n    \"b\": [\n      1,\n      2\n    ],\n    \"a\": 1\n  },\n  \"height\": 100,\n  \"base_uri\": \"https://localhost:8080/\"\n}"), "n": 1.0},
			map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 200, "deep": {"a": 1, "b": [1, 2]}}`), "n": 1},
			map[string]any{"colab": map[string]any{"base_uri": "https://localhost:8080/", "height": 200, "deep": map[string]any{"a": 1, "b": []any{1, 2}}}, "n": 1}, ""},
		{"different keys, deep", map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 150, "deep": {"a": 1, "b": [1, 2]}}`), "n": 1},
			map[string]any{"colab": map[string]any{"base_uri": "https://localhost:8080/", "height": 100, "deep": map[string]any{"a": 2, "b": []any{1, 2}, "c": true}}, "n": 1},
			map[string]any{"colab": map[string]any{"base_uri": "https://localhost:8080/", "height": 150, "deep": map[string]any{"a": 2, "b": []any{1, 2}, "c": true}}, "n": 1},
			`{"base_uri":"https://localhost:8080/","height":150,"deep":{"a":2,"b":[1,2],"c":true}}`},
		{"one deletes a key, the other changes another", map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "deep": {"a": 1, "b": [1, 2]}}`), "n": 1},
			map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 100, "deep": {"a": 1, "b": [3]}}`), "n": 1},
			map[string]any{"colab": map[string]any{"base_uri": "https://localhost:8080/", "deep": map[string]any{"a": 1, "b": []any{3}}}, "n": 1},
			`{"base_uri":"https://localhost:8080/","deep":{"a":1,"b":[3]}}`},
	} {
		o, th := clone(b), clone(b)
		o.Messages[0].Meta, th.Messages[0].Meta = c.ours, c.th
		for _, swap := range []bool{false, true} {
			x, y := o, th
			if swap {
				x, y = th, o
			}
			got, cs := mustMerge(t, b, x, y, dialog.MergeOptions{})
			if len(cs) != 0 {
				t.Errorf("%s (swapped %v): conflicts %v", c.name, swap, whats(cs))
				continue
			}
			if !jsonEqual(got.Messages[0].Meta, c.want) {
				t.Errorf("%s (swapped %v): %v, want %v", c.name, swap, got.Messages[0].Meta, c.want)
			}
			var compact bytes.Buffer
			if r, ok := got.Messages[0].Meta["colab"].(json.RawMessage); ok && c.wantBytes != "" && !swap && (json.Compact(&compact, r) != nil || compact.String() != c.wantBytes) {
				t.Errorf("%s: colab %s, want %s", c.name, r, c.wantBytes)
			}
		}
	}
	// Both changing one key differently is a conflict at that key's path,
	// with the three values; ours' is kept.
	o, th := clone(b), clone(b)
	o.Messages[0].Meta = map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 1, "deep": {"a": 1, "b": [1, 2]}}`), "n": 1}
	th.Messages[0].Meta = map[string]any{"colab": raw(`{"base_uri": "https://localhost:8080/", "height": 2, "deep": {"a": 1, "b": [1, 2]}}`), "n": 1}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 1 || cs[0].What != "metadata key colab/height" || !cmp.Equal(cs[0].Key, []string{"colab", "height"}) || cs[0].Part != dialog.PartMeta ||
		cs[0].InText || !jsonEqual(cs[0].Values[1], 1) || !jsonEqual(cs[0].Values[2], 2) {
		t.Errorf("conflicts %+v", cs)
	}
	if v, _ := json.Marshal(got.Messages[0].Meta["colab"]); !strings.Contains(string(v), `"height":1`) {
		t.Errorf("ours' value not kept: %s", v)
	}
}

// jsonEqual compares values as encoding/json reads what it writes of
// them (the reference: numbers as float64, raw JSON decoded).
func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var u, v any
	json.Unmarshal(x, &u)
	json.Unmarshal(y, &v)
	return cmp.Equal(u, v)
}

// A message whose id one side changed is that message, paired by content
// (as git pairs a renamed file): the other side's edit goes into it (not
// into a copy), a deletion meets it as an edit (a conflict), and both
// sides giving ids of their own keep ours' and report it. Without ids, a
// message whose kind changed is paired the same way.
func TestMergeRenamedMessage(t *testing.T) {
	t.Parallel()
	b := base5()
	rename := func(d *dialog.Dialog, id string) *dialog.Dialog {
		c := clone(d)
		c.Messages[1].ID = id
		return c
	}
	o := rename(b, "new2")
	th := clone(b)
	th.Messages[1].Content = "x = 1\ny = 20\nz = 3\n"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if idList(got) != "m1 new2 m3 m4 m5" || len(cs) != 0 || get(t, got, "new2").Content != th.Messages[1].Content {
		t.Errorf("rename vs edit: %q %v", idList(got), whats(cs))
	}
	got, cs = mustMerge(t, b, th, o, dialog.MergeOptions{})
	if idList(got) != "m1 new2 m3 m4 m5" || len(cs) != 0 {
		t.Errorf("edit vs rename: %q %v", idList(got), whats(cs))
	}
	del := clone(b)
	del.Remove("m2")
	if got, cs := mustMerge(t, b, o, del, dialog.MergeOptions{}); len(cs) != 1 || cs[0].What != "deleted by theirs, edited by ours" || idList(got) != "m1 new2 m3 m4 m5" {
		t.Errorf("rename vs delete: %q %v", idList(got), whats(cs))
	}
	if got, cs := mustMerge(t, b, o, rename(b, "other"), dialog.MergeOptions{}); len(cs) != 1 || cs[0].Part != dialog.PartID ||
		cs[0].Values != [3]any{"m2", "new2", "other"} || idList(got) != "m1 new2 m3 m4 m5" {
		t.Errorf("renamed on both sides: %q %+v", idList(got), cs)
	}
	// Without ids: a kind change and an edit of the text, one message.
	unkeyed := func(*dialog.Message) bool { return true }
	ok, tk := clone(b), clone(b)
	ok.Messages[1].Kind, ok.Messages[1].Outputs = dialog.Raw, nil
	tk.Messages[1].Content = "x = 1\ny = 2\nz = 3\nw = 4"
	got, cs = mustMerge(t, b, ok, tk, dialog.MergeOptions{Unkeyed: unkeyed})
	if len(got.Messages) != 5 || len(cs) != 0 || got.Messages[1].Kind != dialog.Raw || got.Messages[1].Content != tk.Messages[1].Content {
		t.Errorf("kind vs edit without ids: %v %v", got.Messages, whats(cs))
	}
}
