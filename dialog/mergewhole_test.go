package dialog_test

// Tests of merging a note one side made a prompt: the other side's text edit is
// kept, as git merge-file merges the whole text.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	t.Parallel()
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

// With the caller's Separator, a side that made a note holding a question,
// the separator and a reply a prompt, and edited its question or reply as
// well, still merges its whole text (question, separator, reply) with the
// other side's edit of the note: the result is git's line merge of the
// three texts (git merge-file, the reference), split at the separator
// where it is clean, and the merged text whole, both sides between
// markers, where it conflicts; never a reply the other side deleted put
// back beside the conflict.
func TestMergeNoteMadePromptAndEditedMergesAsGitDoes(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	const sep = "\n\n-- reply --\n\n"
	base := "q1\nq2\nq3" + sep + "r1\nr2\nr3"
	for _, c := range []struct {
		name      string
		q, r      string // the prompt side's
		otherNote string
	}{
		{"question edited, other deleted the reply", "q1\nq2\nq3\nq4", "r1\nr2\nr3", "q1\nq2\nq3"},
		{"question's first line edited, other deleted the reply", "q1 edited\nq2\nq3", "r1\nr2\nr3", "q1\nq2\nq3"},
		{"reply edited, other edited the question", "q1\nq2\nq3", "r1\nr2 edited\nr3", "q1 edited\nq2\nq3" + sep + "r1\nr2\nr3"},
		{"question edited, other added a reply line", "q1 edited\nq2\nq3", "r1\nr2\nr3", "q1\nq2\nq3" + sep + "r1\nr2\nr3\nr4"},
		{"both edited the question alike", "q1\nq2 both\nq3", "r1\nr2\nr3", "q1\nq2 both\nq3" + sep + "r1\nr2\nr3"},
	} {
		for _, promptOurs := range []bool{true, false} {
			p := &dialog.Message{ID: "x", Kind: dialog.Prompt, Content: c.q}
			p.SetReply(c.r)
			n := &dialog.Message{ID: "x", Kind: dialog.Note, Content: c.otherNote}
			ours, theirs := p, n
			oursText, theirsText := c.q+sep+c.r, c.otherNote
			if !promptOurs {
				ours, theirs = n, p
				oursText, theirsText = theirsText, oursText
			}
			want, clean := gitMergeFile(t, git, base, oursText, theirsText)
			d, conflicts := dialog.Merge(&dialog.Dialog{Messages: []*dialog.Message{{ID: "x", Kind: dialog.Note, Content: base}}},
				&dialog.Dialog{Messages: []*dialog.Message{ours}}, &dialog.Dialog{Messages: []*dialog.Message{theirs}},
				dialog.MergeOptions{Separator: sep})
			if len(d.Messages) != 1 {
				t.Fatalf("%s (prompt ours %v): %d messages", c.name, promptOurs, len(d.Messages))
			}
			m := d.Messages[0]
			got := m.Content
			if r := m.Reply(); r != "" {
				got += sep + r
			}
			if m.Kind != dialog.Prompt || got != want || (len(conflicts) == 0) != clean {
				t.Errorf("%s (prompt ours %v): %s %q, %d conflicts; git merge-file: %q (clean %v)", c.name, promptOurs, m.Kind, got, len(conflicts), want, clean)
			}
			if clean && strings.Contains(m.Content, sep) {
				t.Errorf("%s (prompt ours %v): the question holds the separator: %q", c.name, promptOurs, m.Content)
			}
		}
	}
}

// gitMergeFile returns git merge-file's merge of the three texts, with
// the markers labelled as dialog.Merge labels them by default, and
// whether it was clean.
func gitMergeFile(t *testing.T, git, base, ours, theirs string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	names := [3]string{"ours", "base", "theirs"}
	for i, text := range [3]string{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), true
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128:
		return string(out), false
	}
	t.Fatalf("git merge-file: %v", err)
	return "", false
}
