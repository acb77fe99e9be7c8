package dialog_test

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// A side that only made a note a prompt, its question, a separator and
// its reply being the note's text, changed the kind alone: the other
// side's edit of the note's text is the merged text, split at that
// separator into the prompt's question and reply (no reply where the edit
// took the separator out). As a question and a reply merged apart, the
// reply the prompt holds would undo a deletion of its lines.
func TestMergeNoteMadePromptKeepsTheTextEdit(t *testing.T) {
	const sep = "\n\n-- reply --\n\n"
	note := func(text string) *dialog.Message { return &dialog.Message{ID: "x", Kind: dialog.Note, Content: text} }
	prompt := func(q, r string) *dialog.Message {
		m := &dialog.Message{ID: "x", Kind: dialog.Prompt, Content: q}
		m.SetReply(r)
		return m
	}
	base := note("q1\nq2" + sep + "r1\nr2")
	for _, c := range []struct {
		name             string
		edited           *dialog.Message // the other side's
		question, answer string
	}{
		{"the reply's lines deleted", note("q1\nq2"), "q1\nq2", ""},
		{"a line added to the reply", note("q1\nq2" + sep + "r1\nr2\nr3"), "q1\nq2", "r1\nr2\nr3"},
		{"the question edited", note("q1 edited\nq2" + sep + "r1\nr2"), "q1 edited\nq2", "r1\nr2"},
	} {
		for _, promptOurs := range []bool{true, false} {
			ours, theirs := prompt("q1\nq2", "r1\nr2"), c.edited
			if !promptOurs {
				ours, theirs = theirs, ours
			}
			d, conflicts := dialog.Merge(&dialog.Dialog{Messages: []*dialog.Message{base}}, &dialog.Dialog{Messages: []*dialog.Message{ours}},
				&dialog.Dialog{Messages: []*dialog.Message{theirs}}, dialog.MergeOptions{})
			if len(conflicts) > 0 || len(d.Messages) != 1 {
				t.Fatalf("%s (prompt ours %v): %d messages, conflicts %v", c.name, promptOurs, len(d.Messages), conflicts)
			}
			m := d.Messages[0]
			if m.Kind != dialog.Prompt || m.Content != c.question || m.Reply() != c.answer {
				t.Errorf("%s (prompt ours %v): %s %q reply %q, want prompt %q reply %q", c.name, promptOurs, m.Kind, m.Content, m.Reply(), c.question, c.answer)
			}
		}
	}
}
