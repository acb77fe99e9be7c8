package dialog_test

// Tests of Diff and UnifiedDiff: the changes between two dialogs, unkeyed
// messages matched by content.

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

func describe(cs []dialog.Change) []string {
	var s []string
	for _, c := range cs {
		d := c.Kind.String() + " " + c.ID
		if c.Parts != 0 {
			d += " [" + c.Parts.String() + "]"
		}
		if len(c.Keys) > 0 {
			d += " " + strings.Join(c.Keys, ",")
		}
		s = append(s, d)
	}
	return s
}

func TestDiff(t *testing.T) {
	t.Parallel()
	a := base5()
	a.Meta = map[string]any{"k": 1}
	if cs := dialog.Diff(a, clone(a), dialog.DiffOptions{}); len(cs) != 0 {
		t.Errorf("equal dialogs: %v", describe(cs))
	}
	b := clone(a)
	b.Remove("m3")
	b.Messages[0].Content = "# New title\n"
	b.Messages[0].Meta = map[string]any{"tags": []any{"x"}}
	b.Messages[0].Attrs = map[string]any{"pinned": 1}
	m5 := b.Messages[3]
	b.Messages = append([]*dialog.Message{m5}, b.Messages[:3]...)
	m5.Outputs, m5.ExecutionCount = []dialog.Output{stream("x\n")}, count(4)
	b.Add(dialog.Prompt, "Why?").ID = "p1"
	b.Meta["k"] = 2
	got := describe(dialog.Diff(a, b, dialog.DiffOptions{}))
	want := []string{
		"moved m5 [outputs, count]",
		"changed m1 [content, metadata, attributes] tags,attr:pinned",
		"removed m3",
		"added p1",
		"changed  [metadata] k",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
	cs := dialog.Diff(a, b, dialog.DiffOptions{})
	if cs[0].AIndex != 4 || cs[0].BIndex != 0 || cs[2].BIndex != -1 || cs[3].AIndex != -1 {
		t.Errorf("indexes %+v", cs)
	}
}

// Unkeyed messages are matched by content, as in Merge.
func TestDiffUnkeyed(t *testing.T) {
	t.Parallel()
	a := dlg(msg("a1", dialog.Code, "x = 1\ny = 2\n"), msg("a2", dialog.Note, "n"))
	b := dlg(msg("b1", dialog.Code, "x = 1\ny = 3\n"), msg("b2", dialog.Note, "n"))
	opt := dialog.DiffOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	if diff := cmp.Diff([]string{"changed b1 [content]"}, describe(dialog.Diff(a, b, opt))); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
}

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	got := textdiff.Unified("a", "b", "x\ny\nz\n", "x\nY\nz\n", 1)
	want := "--- a\n+++ b\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n"
	if got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if textdiff.Unified("a", "b", "same", "same", 3) != "" {
		t.Error("equal texts give a diff")
	}
}
