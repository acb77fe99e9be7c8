package dialog_test

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// A version 3 heading is one markdown line (its lines joined by spaces),
// so a line added to it or replaced in it leaves no line shared with its
// old version. Without ids it is still that message edited: moved and
// extended by ours while theirs extended it, it is one cell with both
// edits in conflict, not ours' copy beside a delete/edit conflict; made
// raw by theirs (its lines apart again) while ours edited it, it is one
// cell; added by both, once extended, it is one cell.
func TestMergeHeadingLinesPaired(t *testing.T) {
	unkeyed := func(*dialog.Message) bool { return true }
	note := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Note, Content: src} }
	raw := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Raw, Content: src} }
	d := func(ms ...*dialog.Message) *dialog.Dialog { return &dialog.Dialog{Messages: ms} }
	long := "«b1»\nb1.1 x = 1\nb1.2 text"
	for _, c := range []struct {
		name               string
		base, ours, theirs *dialog.Dialog
		want               int // messages merged
		holds              []string
	}{
		{"moved and extended by ours, extended by theirs",
			d(note("b0", "## «b0»"), note("b1", long)),
			d(note("o1", long), note("o0", "## «b0» o2 new line")),
			d(note("t0", "## «b0» t4 new line"), note("t1", long)),
			2, []string{"o2 new line", "t4 new line"}},
		{"made raw by theirs, edited by ours",
			d(note("b0", "## «b0» b0.1 text")),
			d(note("o0", "## «b0» o1 new line")),
			d(raw("t0", "«b0»\nt6 new line")),
			1, []string{"o1 new line", "t6 new line"}},
		{"added by both, extended by theirs",
			d(),
			d(note("o1", "### «o1» o1.1 - item")),
			d(note("t1", "### «o1» o1.1 - item t2 new line")),
			1, []string{"t2 new line"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, cs := mustMerge(t, c.base, c.ours, c.theirs, dialog.MergeOptions{Unkeyed: unkeyed})
			if len(got.Messages) != c.want {
				t.Fatalf("merged %d messages, want %d; conflicts %v", len(got.Messages), c.want, whats(cs))
			}
			var all strings.Builder
			for _, m := range got.Messages {
				all.WriteString(m.Content + "\n")
			}
			for _, h := range c.holds {
				if !strings.Contains(all.String(), h) {
					t.Errorf("the merge has no %q:\n%s", h, all.String())
				}
			}
			if strings.Contains(all.String(), "deleted this cell") {
				t.Errorf("a side's edit read as a deletion:\n%s", all.String())
			}
		})
	}
}

// Messages of one line that share words but neither holds the other at
// its ends are not paired when moved: unrelated generated cells look so.
func TestMergeOneLineWordsNotPaired(t *testing.T) {
	unkeyed := func(*dialog.Message) bool { return true }
	note := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Note, Content: src} }
	d := func(ms ...*dialog.Message) *dialog.Dialog { return &dialog.Dialog{Messages: ms} }
	base := d(note("b0", "## «b3» b3.1 x = 1"), note("b1", "anchor\ntext"))
	ours := d(note("b1", "anchor\ntext"), note("o5", "## «b5» b5.1 x = 1"))
	theirs := d(note("t3", "## «b3» b3.1 x = 2"), note("b1", "anchor\ntext"))
	got, cs := mustMerge(t, base, ours, theirs, dialog.MergeOptions{Unkeyed: unkeyed})
	var all strings.Builder
	for _, m := range got.Messages {
		all.WriteString(m.Content + "\n")
	}
	if !strings.Contains(all.String(), "## «b5» b5.1 x = 1") || len(cs) == 0 {
		t.Errorf("ours' new cell, and a delete/edit conflict of b3, expected; conflicts %v:\n%s", whats(cs), all.String())
	}
}
