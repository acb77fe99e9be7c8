package dialog_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// Without ids, a message rewritten so that it shares nothing with base's
// (a one-line cell reworded) is paired by its place: the merge of
// one-line messages is git's line merge of their lines (git merge-file,
// the reference; a line is "kind:text", with a line between messages as
// a notebook's JSON has), where git merges cleanly and
// the messages' kinds allow it, and a conflict that keeps every side's
// line where git conflicts on a message both sides rewrote.
func TestMergeRewrittenOneLineMessagesAsGit(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	for _, c := range []struct {
		name               string
		base, ours, theirs string // lines "kind:text", space-separated messages
		conflict           bool   // both sides rewrote one message (git conflicts too)
	}{
		{name: "finding 08: each side rewords others, ours appends",
			base:   "note:#Title note:Intro note:Method note:Results",
			ours:   "note:#Title note:Intro note:Approach note:Results note:Appendix",
			theirs: "note:#Title note:Motivation note:Method note:Findings"},
		{name: "seven cells, ours rewords the 2nd and 6th, theirs the 4th",
			base:   "note:a code:b note:c code:d note:e code:f note:g",
			ours:   "note:a code:B2 note:c code:d note:e code:F2 note:g",
			theirs: "note:a code:b note:c code:D3 note:e code:f note:g"},
		{name: "the ends: ours rewords the first, theirs the last and appends",
			base:   "code:a note:b code:c note:d",
			ours:   "code:A2 note:b code:c note:d",
			theirs: "code:a note:b code:c note:D3 raw:e"},
		{name: "ours replaces one message by two, theirs rewords another",
			base:   "note:a note:b note:c note:d note:e",
			ours:   "note:a note:b note:C1 note:C2 note:d note:e",
			theirs: "note:a note:b note:c note:d note:E3"},
		{name: "ours deletes one, theirs rewords two others",
			base:   "raw:a raw:b raw:c raw:d raw:e raw:f",
			ours:   "raw:a raw:b raw:d raw:e raw:f",
			theirs: "raw:A3 raw:b raw:c raw:d raw:E3 raw:f"},
		{name: "two neighbours rewritten by ours, theirs rewords a far one",
			base:   "note:a code:b code:c note:d note:e note:f",
			ours:   "note:a code:B2 code:C2 note:d note:e note:f",
			theirs: "note:a code:b code:c note:d note:e note:F3"},
		{name: "every message rewritten by one side or the other",
			base:   "note:a note:b note:c note:d",
			ours:   "note:A2 note:b note:C2 note:d",
			theirs: "note:a note:B3 note:c note:D3"},
		{name: "both reword one message alike",
			base:   "note:a note:b note:c",
			ours:   "note:a note:same note:c",
			theirs: "note:a note:same note:c"},
		{name: "both reword one message differently",
			base:     "note:a note:b note:c",
			ours:     "note:a note:B2 note:c",
			theirs:   "note:a note:B3 note:c",
			conflict: true},
		{name: "both reword one code message differently, others around",
			base:     "note:a code:b note:c code:d",
			ours:     "note:a code:B2 note:c code:d note:o",
			theirs:   "note:t note:a code:B3 note:c code:d",
			conflict: true},
	} {
		msgs := func(s string) []*dialog.Message {
			var ms []*dialog.Message
			for n, f := range strings.Fields(s) {
				kind, text, _ := strings.Cut(f, ":")
				ms = append(ms, &dialog.Message{ID: "m" + string(rune('a'+n)), Kind: dialog.Kind(kind), Content: text})
			}
			return ms
		}
		// Each message's line is followed by one line all share, as a
		// cell's lines are by the lines of its JSON that close it.
		lines := func(s string) string { return strings.Join(strings.Fields(s), "\n~\n") + "\n~\n" }
		want, clean := gitMergeFile(t, git, lines(c.base), lines(c.ours), lines(c.theirs))
		unkeyed := func(*dialog.Message) bool { return true }
		got, cs := mustMerge(t, &dialog.Dialog{Messages: msgs(c.base)}, &dialog.Dialog{Messages: msgs(c.ours)},
			&dialog.Dialog{Messages: msgs(c.theirs)}, dialog.MergeOptions{Unkeyed: unkeyed})
		var gotLines []string
		for _, m := range got.Messages {
			gotLines = append(gotLines, string(m.Kind)+":"+m.Content)
		}
		if c.conflict {
			if clean || len(cs) == 0 {
				t.Errorf("%s: git clean %v, merge conflicts %v; want a conflict", c.name, clean, whats(cs))
			}
			all := strings.Join(gotLines, "\n")
			for _, f := range strings.Fields(c.ours + " " + c.theirs) {
				if _, text, _ := strings.Cut(f, ":"); !strings.Contains(all, text) {
					t.Errorf("%s: %q is in no merged message: %q", c.name, text, gotLines)
				}
			}
			continue
		}
		if !clean {
			t.Fatalf("%s: git merge-file conflicts: %q", c.name, want)
		}
		wantLines := slices.DeleteFunc(strings.Fields(want), func(l string) bool { return l == "~" })
		if len(cs) != 0 || !slices.Equal(gotLines, wantLines) {
			t.Errorf("%s: merged %q, conflicts %v; git merge-file: %q", c.name, gotLines, whats(cs), wantLines)
		}
	}
}

// Without ids, a code message whose text a side rewrote (sharing nothing
// with base's) is that message edited where it kept its place between
// paired neighbours, or base's outputs and count: the other side's re-run
// of it is kept with the new text (finding 04: "train(model)" rewritten
// "fit(net, epochs=10)" by ours, re-run by theirs for hours). Where the
// place says less (one message replaced by two fresh ones), the deletion
// against the re-run is a conflict that keeps theirs' outputs. The
// expected results are derived by hand from the rule of Merge with ids:
// a side's change of a part applies where the other left it as base.
func TestMergeRewrittenCodeKeepsOtherSidesRerun(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	code := func(src, out string, n int) *dialog.Message {
		m := &dialog.Message{Kind: dialog.Code, Content: src, Outputs: []dialog.Output{}}
		if out != "" {
			m.Outputs = []dialog.Output{stream(out)}
			m.ExecutionCount = count(n)
		}
		return m
	}
	note := func(s string) *dialog.Message { return &dialog.Message{Kind: dialog.Note, Content: s} }
	base := []*dialog.Message{code("a = 1", "1\n", 1), code("train(model)", "loss 0.9\n", 2), note("# end")}
	rerun := func() []*dialog.Message {
		return []*dialog.Message{code("a = 1", "1\n", 1), code("train(model)", "loss 0.1 (after 3 h)\n", 5), note("# end")}
	}
	for _, c := range []struct {
		name      string
		ours      []*dialog.Message
		want      []string // "text | outputs" per merged message
		conflicts int
	}{
		{"finding 04: rewritten in place, outputs kept",
			[]*dialog.Message{code("a = 1", "1\n", 1), code("fit(net, epochs=10)", "loss 0.9\n", 2), note("# end")},
			[]string{"a = 1 | 1\n", "fit(net, epochs=10) | loss 0.1 (after 3 h)\n", "# end | "}, 0},
		{"rewritten, a cell added before it, outputs kept",
			[]*dialog.Message{code("a = 1", "1\n", 1), code("import torch", "", 0), code("fit(net, epochs=10)", "loss 0.9\n", 2), note("# end")},
			[]string{"a = 1 | 1\n", "import torch | ", "fit(net, epochs=10) | loss 0.1 (after 3 h)\n", "# end | "}, 0},
		{"rewritten between neighbours that are themselves edited",
			[]*dialog.Message{code("a = 1\nb = 2", "1\n", 1), code("fit(net, epochs=10)", "loss 0.9\n", 2), note("# end\nsee you")},
			[]string{"a = 1\nb = 2 | 1\n", "fit(net, epochs=10) | loss 0.1 (after 3 h)\n", "# end\nsee you | "}, 0},
	} {
		b := &dialog.Dialog{Messages: base}
		got, cs := mustMerge(t, b, &dialog.Dialog{Messages: c.ours}, &dialog.Dialog{Messages: rerun()}, dialog.MergeOptions{Unkeyed: unkeyed})
		var gotParts []string
		for _, m := range got.Messages {
			gotParts = append(gotParts, m.Content+" | "+streamTexts(m))
		}
		if len(cs) != c.conflicts || !slices.Equal(gotParts, c.want) {
			t.Errorf("%s: merged %q, conflicts %v; want %q, %d conflicts", c.name, gotParts, whats(cs), c.want, c.conflicts)
		}
	}
	// Where the place does not say which (if any) of ours' cells is the
	// rewritten one, theirs' re-run is kept in a conflict.
	for _, ours := range [][]*dialog.Message{
		{code("a = 1", "1\n", 1), code("fit(net)", "", 0), code("evaluate(net)", "", 0), note("# end")},
		{code("a = 1", "1\n", 1), note("Training is done elsewhere now."), note("# end")},
	} {
		got, cs := mustMerge(t, &dialog.Dialog{Messages: base}, &dialog.Dialog{Messages: ours}, &dialog.Dialog{Messages: rerun()}, dialog.MergeOptions{Unkeyed: unkeyed})
		kept := false
		for _, m := range got.Messages {
			kept = kept || strings.Contains(streamTexts(m), "after 3 h")
		}
		if !kept || len(cs) == 0 {
			var parts []string
			for _, m := range got.Messages {
				parts = append(parts, m.Content+" | "+streamTexts(m))
			}
			t.Errorf("ours %d cells: merged %q, conflicts %v; want theirs' re-run kept in a conflict", len(ours), parts, whats(cs))
		}
	}
}

// streamTexts is the text of a message's stream outputs.
func streamTexts(m *dialog.Message) string {
	var b strings.Builder
	for _, o := range m.Outputs {
		if g, err := o.Map(); err == nil && g["output_type"] == "stream" {
			switch t := g["text"].(type) {
			case string:
				b.WriteString(t)
			case []any:
				for _, l := range t {
					s, _ := l.(string)
					b.WriteString(s)
				}
			}
		}
	}
	return b.String()
}
