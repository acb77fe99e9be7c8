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
	t.Parallel()
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
	t.Parallel()
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

// PairText gives the texts pairing compares: a heading whose Content
// joins two lines into one ("## Intro Old notebook", a version 3 heading's
// upgrade) and whose file holds them apart ("Intro\nOld notebook") is
// compared by those lines. Ours replaced one of its two lines and added a
// message after it: one line of two shared is the least similarity that
// pairs (as for any message of two lines with one replaced), so it is
// that message edited, and theirs' making it raw is a change of the same
// message: one message, both edits in it, no deletion, beside ours' new
// one. (Its Content, one line each, shares no line: compared so, ours'
// version would be a new message and base's deleted.)
func TestMergePairTextLines(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	b0 := &dialog.Message{ID: "b0", Kind: dialog.Note, Content: "## Intro Old notebook"}
	o0 := &dialog.Message{ID: "o0", Kind: dialog.Note, Content: "## Intro a new line"}
	o1 := &dialog.Message{ID: "o1", Kind: dialog.Note, Content: "added"}
	t0 := &dialog.Message{ID: "t0", Kind: dialog.Raw, Content: "Intro\nOld notebook"}
	lines := map[*dialog.Message]string{b0: "Intro\nOld notebook", o0: "Intro\na new line"}
	pairText := func(m *dialog.Message) string {
		if s, ok := lines[m]; ok {
			return s
		}
		return m.Content
	}
	base := &dialog.Dialog{Messages: []*dialog.Message{b0}}
	ours := &dialog.Dialog{Messages: []*dialog.Message{o0, o1}}
	theirs := &dialog.Dialog{Messages: []*dialog.Message{t0}}
	got, cs := mustMerge(t, base, ours, theirs, dialog.MergeOptions{Unkeyed: unkeyed, PairText: pairText})
	if len(got.Messages) != 2 {
		t.Fatalf("merged %d messages, want 2 (the heading, ours' new one); conflicts %v", len(got.Messages), whats(cs))
	}
	h := got.Messages[0]
	if h.Kind != dialog.Raw || !strings.Contains(h.Content, "a new line") || got.Messages[1].Content != "added" {
		t.Errorf("merged %s %q, %q; want theirs' raw kind holding ours' edit, then ours' new message", h.Kind, h.Content, got.Messages[1].Content)
	}
	for _, c := range cs {
		if c.Ours == nil || c.Theirs == nil {
			t.Errorf("conflict %v: a side's edit read as a deletion", c)
		}
	}
}
