package dialog_test

// Tests of Merge: sequence changes, text, replies, outputs, counts, metadata,
// attachments, deletions against edits, symmetry.

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
)

func msg(id string, kind dialog.Kind, content string) *dialog.Message {
	return &dialog.Message{ID: id, Kind: kind, Content: content}
}

func dlg(ms ...*dialog.Message) *dialog.Dialog {
	return &dialog.Dialog{Name: "d", Messages: ms}
}

// clone copies a dialog deeply enough for a test to edit a side.
func clone(d *dialog.Dialog) *dialog.Dialog {
	c := *d
	c.Messages = nil
	for _, m := range d.Messages {
		cm := *m
		cm.Meta = cloneMap(m.Meta)
		cm.Attrs = cloneMap(m.Attrs)
		cm.Outputs = slices.Clone(m.Outputs)
		cm.Attachments = slices.Clone(m.Attachments)
		c.Messages = append(c.Messages, &cm)
	}
	c.Meta = cloneMap(d.Meta)
	return &c
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := map[string]any{}
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneMap(sub)
		}
		c[k] = v
	}
	return c
}

func get(t *testing.T, d *dialog.Dialog, id string) *dialog.Message {
	t.Helper()
	m, err := d.Get(id)
	if err != nil {
		t.Fatalf("%v\n%s", err, d.Summary(0, 0))
	}
	return m
}

func idList(d *dialog.Dialog) string {
	var s []string
	for _, m := range d.Messages {
		s = append(s, m.ID)
	}
	return strings.Join(s, " ")
}

func whats(cs []dialog.Conflict) []string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return s
}

// whatsOnly lists the conflicts' What.
func whatsOnly(cs []dialog.Conflict) []string {
	var s []string
	for _, c := range cs {
		s = append(s, c.What)
	}
	return s
}

func mustMerge(t *testing.T, b, o, th *dialog.Dialog, opt dialog.MergeOptions) (*dialog.Dialog, []dialog.Conflict) {
	t.Helper()
	m, cs := dialog.Merge(b, o, th, opt)
	if err := m.Validate(); err != nil {
		t.Fatalf("merged dialog invalid: %v", err)
	}
	return m, cs
}

func base5() *dialog.Dialog {
	return dlg(msg("m1", dialog.Note, "# Title\n"), msg("m2", dialog.Code, "x = 1\ny = 2\nz = 3\n"),
		msg("m3", dialog.Note, "text"), msg("m4", dialog.Raw, "raw"), msg("m5", dialog.Code, "print(x)"))
}

// Every one-sided change to the sequence is applied, from both sides at
// once: inserts, deletes, moves.
func TestMergeSequence(t *testing.T) {
	t.Parallel()
	b := base5()
	o := clone(b)
	o.Messages = slices.Insert(o.Messages, 1, msg("o1", dialog.Note, "ours' note")) // after m1
	o.Remove("m4")
	th := clone(b)
	m5 := th.Messages[4]
	th.Messages = append([]*dialog.Message{m5}, th.Messages[:4]...) // m5 moved first
	th.Add(dialog.Code, "theirs' code").ID = "t1"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 0 {
		t.Fatalf("conflicts: %v", whats(cs))
	}
	if want := "m5 m1 o1 m2 m3 t1"; idList(got) != want {
		t.Errorf("order %q, want %q", idList(got), want)
	}
	// Unchanged messages are the inputs' own values.
	if get(t, got, "m2") != o.Messages[2] && get(t, got, "m2") != th.Messages[2] {
		t.Errorf("an unchanged message was copied")
	}
}

// Both sides inserting at one place keeps both, ours first; the same
// message added by both (same id, same content) appears once.
func TestMergeInsertsAtOnePlace(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages = slices.Insert(o.Messages, 2, msg("o1", dialog.Note, "ours"))
	th.Messages = slices.Insert(th.Messages, 2, msg("t1", dialog.Note, "theirs"))
	o.Messages = slices.Insert(o.Messages, 0, msg("same", dialog.Code, "both"))
	th.Messages = slices.Insert(th.Messages, 0, msg("same", dialog.Code, "both"))
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 0 {
		t.Fatalf("conflicts: %v", whats(cs))
	}
	if want := "same m1 m2 o1 t1 m3 m4 m5"; idList(got) != want {
		t.Errorf("order %q, want %q", idList(got), want)
	}
	// Added by both with different contents: a conflict in one message.
	o.Messages[0].Content, th.Messages[0].Content = "ours'", "theirs'"
	got, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if diff := cmp.Diff([]string{"message same: added on both sides"}, whats(cs)); diff != "" {
		t.Errorf("conflicts (-want +got):\n%s", diff)
	}
	if c := get(t, got, "same").Content; c != "<<<<<<< ours\nours'\n=======\ntheirs'\n>>>>>>> theirs\n" {
		t.Errorf("content %q", c)
	}
}

// Both sides editing one message's text merge line by line; overlapping
// edits conflict, with git's markers (size and labels settable).
func TestMergeContent(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages[1].Content = "x = 10\ny = 2\nz = 3\n"
	th.Messages[1].Content = "x = 1\ny = 2\nz = 30\n"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 0 || get(t, got, "m2").Content != "x = 10\ny = 2\nz = 30\n" {
		t.Errorf("clean merge: %q %v", get(t, got, "m2").Content, whats(cs))
	}
	th.Messages[1].Content = "x = 11\ny = 2\nz = 3\n"
	got, cs = mustMerge(t, b, o, th, dialog.MergeOptions{MarkerSize: 3, OursLabel: "HEAD", TheirsLabel: "topic"})
	if diff := cmp.Diff([]string{"message m2: content"}, whats(cs)); diff != "" {
		t.Fatalf("conflicts (-want +got):\n%s", diff)
	}
	if c := get(t, got, "m2").Content; c != "<<< HEAD\nx = 10\n===\nx = 11\n>>> topic\ny = 2\nz = 3\n" {
		t.Errorf("content %q", c)
	}
	if cs[0].Base != b.Messages[1] || cs[0].Ours != o.Messages[1] || cs[0].Theirs != th.Messages[1] {
		t.Errorf("conflict versions not the inputs")
	}
}

// A prompt's reply merges as text; its question separately.
func TestMergeReply(t *testing.T) {
	t.Parallel()
	p := msg("p", dialog.Prompt, "Question?")
	p.SetReply("Line one.\nLine two.\nLine three.\n")
	b := dlg(p)
	o, th := clone(b), clone(b)
	o.Messages[0].SetReply("Line ONE.\nLine two.\nLine three.\n")
	th.Messages[0].SetReply("Line one.\nLine two.\nLine THREE.\n")
	th.Messages[0].Content = "Question, edited?"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	m := get(t, got, "p")
	if len(cs) != 0 || m.Reply() != "Line ONE.\nLine two.\nLine THREE.\n" || m.Content != "Question, edited?" {
		t.Errorf("reply %q content %q conflicts %v", m.Reply(), m.Content, whats(cs))
	}
	th.Messages[0].SetReply("Line 1.\nLine two.\nLine three.\n")
	_, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if diff := cmp.Diff([]string{"message p: reply"}, whats(cs)); diff != "" {
		t.Errorf("conflicts (-want +got):\n%s", diff)
	}
}

func stream(text string) dialog.Output { return streamOutput("stdout", text) }

func count(n int) *int { return &n }

// Outputs and execution counts: one-sided changes apply; both-sided ones
// follow the strategy.
func TestMergeOutputs(t *testing.T) {
	t.Parallel()
	b := base5()
	b.Messages[1].Outputs = []dialog.Output{stream("base\n")}
	b.Messages[1].ExecutionCount = count(1)
	o, th := clone(b), clone(b)
	o.Messages[1].Outputs, o.Messages[1].ExecutionCount = []dialog.Output{stream("ours\n")}, count(2)
	th.Messages[4].Outputs, th.Messages[4].ExecutionCount = []dialog.Output{stream("theirs\n")}, count(3)
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 0 || !cmp.Equal(get(t, got, "m2").Outputs, o.Messages[1].Outputs, outputMaps) || *get(t, got, "m5").ExecutionCount != 3 {
		t.Errorf("one-sided outputs not applied: %v", whats(cs))
	}
	th.Messages[1].Outputs, th.Messages[1].ExecutionCount = []dialog.Output{stream("theirs\n"), stream("more\n")}, count(5)
	for _, tc := range []struct {
		s       dialog.OutputStrategy
		outs    []dialog.Output
		count   *int
		conflit bool
	}{
		{dialog.OutputsConflict, []dialog.Output{stream("<<<<<<< ours\n"), stream("ours\n"), stream("=======\n"), stream("theirs\n"), stream("more\n"), stream(">>>>>>> theirs\n")}, count(2), true},
		{dialog.OutputsOurs, o.Messages[1].Outputs, count(2), false},
		{dialog.OutputsTheirs, th.Messages[1].Outputs, count(5), false},
		{dialog.OutputsClear, []dialog.Output{}, nil, false},
	} {
		got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Outputs: tc.s})
		m := get(t, got, "m2")
		if !cmp.Equal(m.Outputs, tc.outs, outputMaps) || !cmp.Equal(m.ExecutionCount, tc.count) || (len(cs) > 0) != tc.conflit {
			t.Errorf("%v: outputs %v count %v conflicts %v (-want +got):\n%s", tc.s, m.Outputs, m.ExecutionCount, whats(cs), cmp.Diff(tc.outs, m.Outputs, outputMaps))
		}
	}
}

// Outputs both sides changed in different lines merge as a line merge of
// the file would (no conflict).
func TestMergeOutputsLineByLine(t *testing.T) {
	t.Parallel()
	b := base5()
	b.Messages[1].Outputs = []dialog.Output{stream("a\nb\nc\nd\n")}
	o, th := clone(b), clone(b)
	o.Messages[1].Outputs = []dialog.Output{stream("A\nb\nc\nd\n")}
	th.Messages[1].Outputs = []dialog.Output{stream("a\nb\nc\nD\n")}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if want := []dialog.Output{stream("A\nb\nc\nD\n")}; len(cs) != 0 || !cmp.Equal(get(t, got, "m2").Outputs, want, outputMaps) {
		t.Errorf("outputs %v conflicts %v (-want +got):\n%s", get(t, got, "m2").Outputs, whats(cs), cmp.Diff(want, get(t, got, "m2").Outputs, outputMaps))
	}
}

// Metadata and attributes merge key by key, recursively; a key both
// changed keeps ours' value and is reported with its three values.
func TestMergeMetadata(t *testing.T) {
	t.Parallel()
	b := base5()
	b.Meta = map[string]any{"kernelspec": map[string]any{"name": "python3", "display_name": "Python 3"}, "keep": 1}
	b.Messages[0].Meta = map[string]any{"tags": []any{"a"}, "x": "base"}
	o, th := clone(b), clone(b)
	o.Meta["kernelspec"].(map[string]any)["name"] = "py311"
	th.Meta["kernelspec"].(map[string]any)["display_name"] = "Python 3.11"
	th.Meta["new"] = true
	delete(o.Meta, "keep")
	o.Messages[0].Meta["x"] = "ours"
	th.Messages[0].Meta["x"] = "theirs"
	th.Messages[0].Meta["tags"] = []any{"a", "b"}
	o.Messages[0].Attrs = map[string]any{"pinned": 1}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	wantMeta := map[string]any{"kernelspec": map[string]any{"name": "py311", "display_name": "Python 3.11"}, "new": true}
	if diff := cmp.Diff(wantMeta, got.Meta); diff != "" {
		t.Errorf("notebook metadata (-want +got):\n%s", diff)
	}
	m := get(t, got, "m1")
	if want := map[string]any{"tags": []any{"a", "b"}, "x": "ours"}; !cmp.Equal(m.Meta, want) || m.Attrs["pinned"] != 1 {
		t.Errorf("cell metadata %v attrs %v (metadata -want +got:\n%s)", m.Meta, m.Attrs, cmp.Diff(want, m.Meta))
	}
	if len(cs) != 1 || cs[0].What != "metadata key x" || cs[0].Values != [3]any{"base", "ours", "theirs"} {
		t.Errorf("conflicts %v", cs)
	}
	// Notebook metadata conflicts come last, with no id.
	th.Meta["kernelspec"].(map[string]any)["name"] = "julia"
	_, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if last := cs[len(cs)-1]; last.ID != "" || last.What != "notebook metadata key kernelspec/name" {
		t.Errorf("conflicts %v", whats(cs))
	}
}

// Attachments merge by id: each side's additions kept.
func TestMergeAttachments(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages[0].Attachments = []dialog.Attachment{{ID: "a.png", MIME: "image/png", Data: []byte{1}}}
	th.Messages[0].Attachments = []dialog.Attachment{{ID: "b.png", MIME: "image/png", Data: []byte{2}}}
	th.Messages[0].Content = "# Title\n![](attachment:b.png)\n"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	m := get(t, got, "m1")
	if len(cs) != 0 || len(m.Attachments) != 2 || m.Attachments[0].ID != "a.png" || m.Attachments[1].ID != "b.png" || m.Content != th.Messages[0].Content {
		t.Errorf("attachments %v content %q conflicts %v", m.Attachments, m.Content, whats(cs))
	}
	th.Messages[0].Attachments = []dialog.Attachment{{ID: "a.png", MIME: "image/png", Data: []byte{3}}}
	_, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 1 || cs[0].What != "attachment a.png" {
		t.Errorf("conflicts %v", whats(cs))
	}
}

// A message deleted on one side and edited on the other is kept, its
// content set against nothing between markers that say which side edited
// it and which deleted it, and reported.
func TestMergeDeletedVsEdited(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Remove("m3")
	th.Messages[2].Content = "text, edited"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	if diff := cmp.Diff([]string{"message m3: deleted by ours, edited by theirs"}, whats(cs)); diff != "" {
		t.Fatalf("conflicts (-want +got):\n%s", diff)
	}
	if idList(got) != "m1 m2 m3 m4 m5" || get(t, got, "m3").Content != "<<<<<<< ours (deleted this cell)\n=======\ntext, edited\n>>>>>>> theirs (edited this cell)\n" {
		t.Errorf("order %q content %q", idList(got), get(t, got, "m3").Content)
	}
	// Reverse sides: the same, mirrored.
	got, cs = mustMerge(t, b, th, o, dialog.MergeOptions{})
	if want := []string{"message m3: deleted by theirs, edited by ours"}; !cmp.Equal(whats(cs), want) || get(t, got, "m3").Content != "<<<<<<< ours (edited this cell)\ntext, edited\n=======\n>>>>>>> theirs (deleted this cell)\n" {
		t.Errorf("conflicts %v content %q", whats(cs), get(t, got, "m3").Content)
	}
	// Deleted on one side, untouched on the other: gone.
	th = clone(b)
	got, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if len(cs) != 0 || idList(got) != "m1 m2 m4 m5" {
		t.Errorf("order %q conflicts %v", idList(got), whats(cs))
	}
}

// Messages whose ids are made up (Unkeyed) are matched by content: equal
// ones, then ones edited in place, then similar ones.
func TestMergeUnkeyed(t *testing.T) {
	t.Parallel()
	renumber := func(d *dialog.Dialog, prefix string) *dialog.Dialog {
		c := clone(d)
		for i, m := range c.Messages {
			m.ID = prefix + string(rune('a'+i))
		}
		return c
	}
	b := renumber(base5(), "b")
	o := renumber(b, "o")
	th := renumber(b, "t")
	o.Messages[1].Content = "x = 10\ny = 2\nz = 3\n"                                   // edited in place
	th.Messages[1].Content = "x = 1\ny = 2\nz = 30\n"                                  // the other line
	th.Messages = slices.Insert(th.Messages, 0, msg("tnew", dialog.Note, "new first")) // inserted
	th.Messages = slices.Delete(th.Messages, 4, 5)                                     // m4 (raw) deleted
	unkeyed := func(*dialog.Message) bool { return true }
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	if len(cs) != 0 {
		t.Fatalf("conflicts %v", whats(cs))
	}
	var contents []string
	for _, m := range got.Messages {
		contents = append(contents, m.Content)
	}
	want := []string{"new first", "# Title\n", "x = 10\ny = 2\nz = 30\n", "text", "print(x)"}
	if diff := cmp.Diff(want, contents); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	// Without Unkeyed the made-up ids are identities: each side renamed
	// every message, paired by content (as git pairs renamed files): an id
	// conflict each (ours' ids kept), and the message theirs deleted is
	// kept, ours having renamed it.
	got, cs = mustMerge(t, b, o, th, dialog.MergeOptions{})
	if idList(got) != "tnew oa ob oc od oe" || !cmp.Equal(whatsOnly(cs), []string{"id", "id", "id", "deleted by theirs, edited by ours", "id"}) {
		t.Errorf("keyed merge of renamed messages: %q, conflicts %v", idList(got), whats(cs))
	}
}

// Merge is symmetric: swapping the sides swaps the labels only.
func TestMergeSymmetric(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages[1].Content = "x = 10\ny = 2\nz = 3\n"
	th.Messages[1].Content = "x = 11\ny = 2\nz = 30\n"
	o.Remove("m3")
	th.Add(dialog.Note, "theirs").ID = "t1"
	opt := dialog.MergeOptions{OursLabel: "A", TheirsLabel: "B"}
	x, cx := mustMerge(t, b, o, th, opt)
	y, cy := mustMerge(t, b, th, o, dialog.MergeOptions{OursLabel: "B", TheirsLabel: "A"})
	if idList(x) != idList(y) || len(cx) != len(cy) {
		t.Fatalf("%q vs %q, %v vs %v", idList(x), idList(y), whats(cx), whats(cy))
	}
	cm := get(t, x, "m2").Content
	swapped := get(t, y, "m2").Content
	if cm != "<<<<<<< A\nx = 10\n=======\nx = 11\n>>>>>>> B\ny = 2\nz = 30\n" || swapped != "<<<<<<< B\nx = 11\n=======\nx = 10\n>>>>>>> A\ny = 2\nz = 30\n" {
		t.Errorf("contents %q / %q", cm, swapped)
	}
}

// The strategies' names are the ones their documentation gives.
func TestOutputStrategyString(t *testing.T) {
	t.Parallel()
	for s, want := range map[dialog.OutputStrategy]string{dialog.OutputsConflict: "conflict", dialog.OutputsOurs: "ours", dialog.OutputsTheirs: "theirs", dialog.OutputsClear: "clear", 9: "OutputStrategy(9)"} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", int(s), got, want)
		}
	}
}

// A side turning code into a note while the other changed its outputs:
// the outputs have no place; reported, and the result stays valid.
func TestMergeKindChangeDropsOutputs(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages[1].Kind = dialog.Note
	th.Messages[1].Outputs = []dialog.Output{stream("new\n")}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	m := get(t, got, "m2")
	if m.Kind != dialog.Note || m.Outputs != nil || len(cs) != 1 || cs[0].What != "outputs of a message that is no longer code" {
		t.Errorf("kind %v outputs %v conflicts %v", m.Kind, m.Outputs, whats(cs))
	}
}

// Under every output strategy, a message deleted on one side and only
// re-run on the other (outputs, count, or both) is deleted without a
// conflict, either side deleting it: outputs and counts are derived data
// (what people commit; nbdime does so).
func TestMergeDeletedVsRerun(t *testing.T) {
	t.Parallel()
	b := base5()
	for _, rerun := range []func(m *dialog.Message){
		func(m *dialog.Message) { m.Outputs, m.ExecutionCount = []dialog.Output{stream("1\n")}, count(7) },
		func(m *dialog.Message) { m.ExecutionCount = count(8) },
		func(m *dialog.Message) { m.Outputs = nil },
	} {
		o, th := clone(b), clone(b)
		o.Remove("m5")
		rerun(th.Messages[4])
		for _, s := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsOurs, dialog.OutputsTheirs, dialog.OutputsClear} {
			for _, swap := range []bool{false, true} {
				x, y := o, th
				if swap {
					x, y = th, o
				}
				got, cs := mustMerge(t, b, x, y, dialog.MergeOptions{Outputs: s})
				if len(cs) != 0 || idList(got) != "m1 m2 m3 m4" {
					t.Errorf("%v (swapped %v): %q %v", s, swap, idList(got), whats(cs))
				}
			}
		}
	}
	// An edit of its text is no re-run: a conflict.
	o, th := clone(b), clone(b)
	o.Remove("m5")
	th.Messages[4].Content, th.Messages[4].ExecutionCount = "print(y)", count(9)
	if _, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Outputs: dialog.OutputsOurs}); len(cs) != 1 {
		t.Errorf("edited and deleted: %v", whats(cs))
	}
}

// Execution counts both sides changed differently follow the strategy:
// by default a conflict (ours' count kept, the conflict reported for a
// record); ours', theirs', or none.
func TestMergeCountsFollowStrategy(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Messages[4].ExecutionCount, th.Messages[4].ExecutionCount = count(5), count(6)
	for s, want := range map[dialog.OutputStrategy]*int{dialog.OutputsConflict: count(5), dialog.OutputsOurs: count(5),
		dialog.OutputsTheirs: count(6), dialog.OutputsClear: nil} {
		got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Outputs: s})
		m := get(t, got, "m5")
		if (m.ExecutionCount == nil) != (want == nil) || want != nil && *m.ExecutionCount != *want {
			t.Errorf("%v: count %v, want %v", s, m.ExecutionCount, want)
		}
		wantConflicts := 0
		if s == dialog.OutputsConflict {
			wantConflicts = 1
		}
		if len(cs) != wantConflicts || wantConflicts == 1 && (cs[0].Part != dialog.PartCount || cs[0].InText || cs[0].Values != [3]any{nil, 5, 6}) {
			t.Errorf("%v: conflicts %+v", s, cs)
		}
	}
}

// Without a base, both sides' messages are added; the same message
// (same id and text) once.
func TestMergeWithoutBase(t *testing.T) {
	t.Parallel()
	o := dlg(msg("a", dialog.Note, "shared"), msg("b", dialog.Code, "ours"))
	th := dlg(msg("a", dialog.Note, "shared"), msg("c", dialog.Code, "theirs"))
	got, cs := mustMerge(t, nil, o, th, dialog.MergeOptions{})
	if len(cs) != 0 || idList(got) != "a b c" {
		t.Errorf("%q %v", idList(got), whats(cs))
	}
}

// Added by both sides under one id with different kinds: ours' kind
// (the kind conflict reported for a record), both texts between markers;
// conflicts of a renamed message follow its new id, not an earlier
// message's.
func TestMergeAddedBothKinds(t *testing.T) {
	t.Parallel()
	b := base5()
	o, th := clone(b), clone(b)
	o.Add(dialog.Code, "x").ID = "new"
	th.Add(dialog.Note, "y").ID = "new"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{})
	m := get(t, got, "new")
	if m.Kind != dialog.Code || !cmp.Equal(whats(cs), []string{"message new: kind", "message new: added on both sides"}) ||
		cs[0].Values != [3]any{nil, "code", "note"} || cs[0].InText || !cs[1].InText {
		t.Errorf("kind %v conflicts %v", m.Kind, whats(cs))
	}
}
