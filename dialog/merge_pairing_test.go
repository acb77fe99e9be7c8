package dialog_test

// Tests of how a merge pairs each side's messages with base's (by id, in place,
// by content): the pairings internal/mergecheck's seeds found wrong.

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
)

// A one-line message edited inside (an argument added) shares no line
// with its old version, but is that message edited: without ids, a side
// that edited it and replaced its neighbours is not taken to have deleted
// it, so the other side's re-run of it is kept with the edit (the shape
// of the real merge dotnet/interactive@a68e1265, where ours' nine outputs
// of `#r "nuget:…"` were lost).
func TestMergeOneLineEditPaired(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	code := func(id, src string) *dialog.Message {
		return &dialog.Message{ID: id, Kind: dialog.Code, Content: src, Outputs: []dialog.Output{}}
	}
	b := &dialog.Dialog{Messages: []*dialog.Message{
		code("b1", `#r "nuget:Microsoft.DotNet.Interactive.ExtensionLab"`),
		code("b2", "adventureworks.Store.Select(s => s.SalesPerson).Explore()"),
	}}
	o := clone(b)
	for _, m := range o.Messages {
		m.ID = "o" + m.ID
	}
	o.Messages[0].Outputs = []dialog.Output{stream("Installed package ExtensionLab version 2.0.0\n")}
	o.Messages[0].ExecutionCount = count(1)
	th := &dialog.Dialog{Messages: []*dialog.Message{
		code("t1", `#r "nuget:Microsoft.DotNet.Interactive.ExtensionLab,*-*"`),
		code("t2", "#!connect mssql --kernel-name worldwideimporters"),
		code("t3", "var query = from city in worldwideimporters.Cities select city;"),
	}}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	var edited []*dialog.Message
	for _, m := range got.Messages {
		if m.Content == th.Messages[0].Content {
			edited = append(edited, m)
		}
	}
	if len(edited) != 1 || len(edited[0].Outputs) != 1 || outputsText(edited[0].Outputs) != outputsText(o.Messages[0].Outputs) {
		t.Fatalf("theirs' edit of the cell ours re-ran: %d cells hold it, want 1 with ours' output; merged %d messages, conflicts %v", len(edited), len(got.Messages), whats(cs))
	}
}

// A message replaced by one sharing nothing with it is a deletion and an
// insertion, not an edit: where ours added the same new message and kept
// the old one, the merge has the new message once and the old one
// deleted (it had it twice, cleanly: theirs' "edit" beside ours' copy).
func TestMergeReplacedIsNotEdited(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	raw := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Raw, Content: src} }
	b := &dialog.Dialog{Messages: []*dialog.Message{raw("b0", "first draft\nof a paragraph")}}
	o := &dialog.Dialog{Messages: []*dialog.Message{raw("o1", "«new»"), raw("o2", "first draft\nof a paragraph")}}
	th := &dialog.Dialog{Messages: []*dialog.Message{raw("t1", "«new»")}}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	var contents []string
	for _, m := range got.Messages {
		contents = append(contents, m.Content)
	}
	if len(cs) != 0 || len(contents) != 1 || contents[0] != "«new»" {
		t.Errorf("merged %q, conflicts %v; want the new message once", contents, whats(cs))
	}
}

// Among alike messages, one whose kind a side changed in place is paired
// with itself, not with its alike neighbour of the old kind: the other
// side's outputs of the neighbour stay on the neighbour.
func TestMergeKindChangedInPlace(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	code := func(id, src string) *dialog.Message {
		return &dialog.Message{ID: id, Kind: dialog.Code, Content: src, Outputs: []dialog.Output{}}
	}
	b := &dialog.Dialog{Messages: []*dialog.Message{
		code("b1", "import sys\nsys.executable\n"),
		code("b2", "import sys\nsys.executable\nsys.executable\nsys.executable\n"),
	}}
	o := clone(b)
	o.Messages[1].Outputs = []dialog.Output{stream("/usr/bin/python3\n")}
	th := clone(b)
	th.Messages[0].Kind, th.Messages[0].Outputs = dialog.Note, nil
	th.Messages[1].Content = "import sys\nprint(1)\nsys.executable\nsys.executable\nsys.executable\n"
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	if len(cs) != 0 || len(got.Messages) != 2 {
		t.Fatalf("merged %d messages, conflicts %v", len(got.Messages), whats(cs))
	}
	m0, m1 := got.Messages[0], got.Messages[1]
	if m0.Kind != dialog.Note || m0.Content != b.Messages[0].Content || m1.Content != th.Messages[1].Content || outputsText(m1.Outputs) != outputsText(o.Messages[1].Outputs) {
		t.Errorf("merged %s %q, %s %q with outputs %q", m0.Kind, m0.Content, m1.Kind, m1.Content, outputsText(m1.Outputs))
	}
}

// Both sides made one edit of a message's text, which one side's pairing
// finds (the message edited in place) and the other's does not (it also
// inserted a message beside it, so the edited one is no longer alike
// enough to pair): the edit is one message, and the rest of both sides'
// versions merges (ours' output kept), not a deletion conflicting with
// the edit beside an inserted copy.
func TestMergeSameEditPairedOnBothSides(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	code := func(id, src string) *dialog.Message {
		return &dialog.Message{ID: id, Kind: dialog.Code, Content: src, Outputs: []dialog.Output{}}
	}
	b := &dialog.Dialog{Messages: []*dialog.Message{
		code("b1", "a\nb\nc\nd"),
		code("b2", "print('end')"),
	}}
	o := &dialog.Dialog{Messages: []*dialog.Message{
		code("o1", "a\nx\ny\nz\nw"),
		code("o2", "print('end')"),
	}}
	o.Messages[0].Outputs = []dialog.Output{stream("w\n")}
	o.Messages[0].ExecutionCount = count(3)
	th := &dialog.Dialog{Messages: []*dialog.Message{
		code("t1", "a\nx\ny\nz\nw"),
		code("t2", "import os"),
		code("t3", "print('end')"),
	}}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	var texts []string
	for _, m := range got.Messages {
		texts = append(texts, m.Content)
	}
	want := []string{"a\nx\ny\nz\nw", "import os", "print('end')"}
	if diff := cmp.Diff(want, texts); diff != "" || len(cs) != 0 || len(got.Messages[0].Outputs) != 1 {
		t.Fatalf("merged texts (-want +got):\n%s\nconflicts %v, outputs of the edited message %d (want ours' 1)", diff, whats(cs), len(got.Messages[0].Outputs))
	}
}

// An id is an identity: where ours gave a message another id that theirs
// gave a message it added (both sides have that message), ours has that
// message and deleted the base one, rather than renamed it; the message is
// there once, not also as the renamed base message under a new id.
func TestMergeRenamedToAnIDTheOtherAdded(t *testing.T) {
	t.Parallel()
	base := &dialog.Dialog{Messages: []*dialog.Message{{ID: "d0697bb5", Kind: dialog.Code, Content: "x = 1", Outputs: []dialog.Output{}}}}
	note := &dialog.Message{ID: "deb976o4", Kind: dialog.Note, Content: "x = 1"}
	ours := &dialog.Dialog{Messages: []*dialog.Message{note}}
	theirs := clone(base)
	theirs.Messages = append([]*dialog.Message{clone(ours).Messages[0]}, theirs.Messages...)
	got, cs := mustMerge(t, base, ours, theirs, dialog.MergeOptions{})
	var ids []string
	for _, m := range got.Messages {
		ids = append(ids, m.ID+" "+string(m.Kind))
	}
	if diff := cmp.Diff([]string{"deb976o4 note"}, ids); diff != "" || len(cs) != 0 {
		t.Fatalf("merged (-want +got):\n%s\nconflicts %v", diff, whats(cs))
	}
}

// The other shape: theirs' added message of the id ours gave the base
// message holds another text. Ours has that message (ids are
// identities) with the base message's text: both added it differently,
// a conflict that shows both texts, and the base message theirs kept
// unchanged is deleted by ours.
func TestMergeRenamedToAnIDTheOtherAddedDifferently(t *testing.T) {
	t.Parallel()
	base := &dialog.Dialog{Messages: []*dialog.Message{{ID: "d0697bb5", Kind: dialog.Code, Content: "x = 1", Outputs: []dialog.Output{}}}}
	ours := &dialog.Dialog{Messages: []*dialog.Message{{ID: "deb976o4", Kind: dialog.Code, Content: "x = 1", Outputs: []dialog.Output{}}}}
	theirs := clone(base)
	theirs.Messages = append([]*dialog.Message{{ID: "deb976o4", Kind: dialog.Code, Content: "y = 2", Outputs: []dialog.Output{}}}, theirs.Messages...)
	got, cs := mustMerge(t, base, ours, theirs, dialog.MergeOptions{})
	if len(got.Messages) != 1 || len(cs) != 1 || !strings.Contains(got.Messages[0].Content, "x = 1") || !strings.Contains(got.Messages[0].Content, "y = 2") {
		var texts []string
		for _, m := range got.Messages {
			texts = append(texts, m.ID+": "+m.Content)
		}
		t.Fatalf("merged %q, conflicts %v; want one message showing both texts in a conflict", texts, whats(cs))
	}
}

// Without ids, a message one side edited and the other edited further
// (the first side's edit and more) is one message edited by both, though
// the further edit is too far from base's version for its side's own
// pairing: it is alike the other side's version, which is paired. The
// merge has it once, both edits merged (here a conflict of the one line
// both rewrote), not the further edit inserted beside the other side's
// version kept in a delete/edit conflict (the v3 heading of mergecheck's
// seed 2000051: a heading's lines are one line in its upgrade).
func TestMergeFurtherEditPaired(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	msg := func(id string, k dialog.Kind, src string) *dialog.Message {
		m := &dialog.Message{ID: id, Kind: k, Content: src}
		if k == dialog.Code {
			m.Outputs = []dialog.Output{}
		}
		return m
	}
	b := &dialog.Dialog{Messages: []*dialog.Message{
		msg("b1", dialog.Note, "### «b1» b1.1 text"),
		msg("b2", dialog.Raw, "«b2»\nb2.1 # title"),
	}}
	o := &dialog.Dialog{Messages: []*dialog.Message{
		msg("o1", dialog.Note, "### «b1» o1 new line o3 new line"),
		msg("o2", dialog.Code, "«o2»\no2.1 - item"),
		msg("o3", dialog.Raw, "«b2»\nb2.1 # title"),
	}}
	th := &dialog.Dialog{Messages: []*dialog.Message{
		msg("t1", dialog.Note, "### «b1» o1 new line"),
	}}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	var notes []string
	for _, m := range got.Messages {
		if m.Kind == dialog.Note {
			notes = append(notes, m.Content)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], o.Messages[0].Content) || !strings.Contains(notes[0], th.Messages[0].Content) {
		t.Fatalf("notes %q, want one holding both sides' versions; conflicts %v", notes, whats(cs))
	}
	if len(cs) != 1 || cs[0].Part != dialog.PartContent {
		t.Errorf("conflicts %v, want one, of the note's content", whats(cs))
	}
	if len(got.Messages) != 2 || got.Messages[1].Content != o.Messages[1].Content {
		t.Errorf("merged %d messages, want the note and ours' new code (b2 deleted by theirs)", len(got.Messages))
	}
}

// Without ids, a one-line message (a version 3 heading's upgrade: its
// lines joined by spaces after the level's hashes) made a message of
// another kind holding one of its words' runs whole ("«b0»", its first
// line) is that message edited: the other side's deletion of it is a
// delete/edit conflict, the edit kept, not a clean deletion beside an
// insertion (mergecheck's seed 1004789, without the shared corpus).
func TestMergeHeadingLineKeptPaired(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	b := &dialog.Dialog{Messages: []*dialog.Message{{ID: "b0", Kind: dialog.Note, Content: "## «b0» Old notebook"}}}
	o := &dialog.Dialog{Messages: []*dialog.Message{{ID: "o0", Kind: dialog.Code, Content: "«b0»", Outputs: []dialog.Output{}}}}
	th := &dialog.Dialog{}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	if len(cs) != 1 || cs[0].Ours == nil || cs[0].Theirs != nil || cs[0].Base == nil {
		t.Fatalf("conflicts %v, want one: edited by ours, deleted by theirs", whats(cs))
	}
	if len(got.Messages) != 1 || got.Messages[0].Kind != dialog.Code || !strings.Contains(got.Messages[0].Content, "«b0»") {
		t.Errorf("merged %d messages, want ours' code, in its conflict", len(got.Messages))
	}
}

// A message whose versions on both sides have ids that are no identity
// (Unkeyed) while base's is keeps base's id: neither side gave it another
// (ids both sides' files made up alike, or gave another message too, are
// no change); where one side's id is an identity, that one's; where
// base's is none either, ours'.
func TestMergeUnkeyedSidesKeepBaseID(t *testing.T) {
	t.Parallel()
	unkeyed := func(m *dialog.Message) bool { return strings.HasPrefix(m.ID, "u") }
	for _, c := range []struct {
		name       string
		b, o, t    string
		want       string
		conflicted bool
	}{
		{"both made up alike", "b1", "u1", "u1", "b1", false},
		{"both made up apart", "b1", "u1", "u2", "b1", false},
		{"theirs an identity", "b1", "u1", "t1", "t1", false},
		{"ours an identity", "b1", "o1", "u2", "o1", false},
		{"base made up too", "u0", "u1", "u2", "u1", false},
	} {
		b := dlg(msg(c.b, dialog.Code, "x = 1\n"), msg("b2", dialog.Code, "y = 2\n"))
		o := dlg(msg(c.o, dialog.Code, "x = 10\n"), msg("b2", dialog.Code, "y = 2\n"))
		th := dlg(msg(c.t, dialog.Code, "x = 1\n"), msg("b2", dialog.Code, "y = 20\n"))
		got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
		if idList(got) != c.want+" b2" || len(cs) > 0 != c.conflicted || got.Messages[0].Content != "x = 10\n" {
			t.Errorf("%s: merged ids %q (first %q), conflicts %v; want %q", c.name, idList(got), got.Messages[0].Content, whats(cs), c.want+" b2")
		}
	}
}

// Without ids, a message deleted and another of the same shape inserted
// in its place (sharing no line: "«a»\na.1 text" and "«n»\nn.1 text") is
// a deletion and an insertion, not an edit, whatever the other side did
// (seeds 7013081, 7015155 and 7019799 of internal/mergecheck):
//   - the other side edited it: a deletion against an edit, the message
//     kept with a conflict, the new message inserted too;
//   - the other side inserted the same new message: it is there once, and
//     the deleted one, unchanged by the other side, is gone;
//   - the other side edited its line and inserted a message of that
//     shape after it: each side's version is its own message.
func TestMergeReplacedByAlikeShapeUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	note := func(id, text string) *dialog.Message { return msg(id, dialog.Note, text) }
	a, n := "«a»\na.1 text", "«n»\nn.1 text"

	got, cs := mustMerge(t, dlg(note("b", a)), dlg(note("o", n)), dlg(note("t", a+"\nmore")), opt)
	if len(got.Messages) != 2 || !strings.Contains(got.Messages[0].Content+got.Messages[1].Content, "more") ||
		!strings.Contains(got.Messages[0].Content+got.Messages[1].Content, n) || len(cs) != 1 {
		t.Errorf("deleted+inserted, edited: %q, conflicts %v; want the edited message (in a conflict) and ours' new one", contents(got), whats(cs))
	}

	got, cs = mustMerge(t, dlg(note("b", a)), dlg(note("o", n)), dlg(note("t", a), note("t2", n)), opt)
	if want := []string{n}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("deleted+inserted, inserted the same: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}

	// theirs replaced a's second line (one line of two in common with
	// base's a) and inserted n after it; ours added a line to a.
	got, cs = mustMerge(t, dlg(note("b", a)), dlg(note("o", a+"\nours")), dlg(note("t", "«a»\ntheirs"), note("t2", n)), opt)
	if c := contents(got); len(c) != 2 || !strings.Contains(c[0], "theirs") || !strings.Contains(c[0], "ours") || c[1] != n {
		t.Errorf("edited, edited+inserted: %q, conflicts %v; want a with both sides' lines, then n", c, whats(cs))
	}
}

// contents lists a dialog's message contents.
func contents(d *dialog.Dialog) []string {
	var out []string
	for _, m := range d.Messages {
		out = append(out, m.Content)
	}
	return out
}

// Without ids, a message whose text is another's of base, its kind
// changed, is that message, before any message of base merely alike
// (seeds 9001460 and 9005858 of internal/mergecheck: theirs deleted a,
// and made b code; b's code version was paired with a, alike by its
// lines or of b's new kind).
func TestMergeKindChangedBeforeAlikeUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	a := "«a»\nThis cell uses no marker\n\n$$\n\\begin{align}\nx\n$$"
	b := "«b»\nThis cell uses no marker, and a slash\n\n$$\n\\begin{align}\ny\n$$"
	for _, c := range []struct {
		name  string
		kindA dialog.Kind // base's kind of a (b is a note; theirs makes it code)
	}{
		{"a of b's old kind", dialog.Note}, // a is alike b's lines: paired by likeness of any kind
		{"a of b's new kind", dialog.Code}, // a is of the kind theirs gave b: paired by likeness of one kind
	} {
		base := dlg(msg("a", c.kindA, a), msg("b", dialog.Note, b))
		// ours edited a; theirs deleted a and made b code: a is kept
		// with the deletion against ours' edit, b is theirs' code.
		ours := dlg(msg("oa", c.kindA, a+"\nours"), msg("ob", dialog.Note, b))
		theirs := dlg(msg("tb", dialog.Code, b))
		got, cs := mustMerge(t, base, ours, theirs, opt)
		if len(got.Messages) != 2 || !strings.Contains(got.Messages[0].Content, "ours") || got.Messages[1].Content != b ||
			got.Messages[1].Kind != dialog.Code || len(cs) != 1 || cs[0].What != "deleted by theirs, edited by ours" {
			t.Errorf("%s: %q, conflicts %v; want a in a deletion conflict, b as code", c.name, contents(got), whats(cs))
		}
	}
}

// Without ids, a message is paired with the one most like it, not with
// the first one alike: a message that holds another's lines is alike it,
// and so is that message's own edit.
//   - seed 11014773 of internal/mergecheck: base a (which quotes b's
//     lines) and b; ours deleted a and edited b, theirs made the same
//     edit of b: b edited, once, clean (not a edited into b's edit and b
//     deleted against theirs' edit);
//   - theirs merged u into the next message f (u's line prepended to f,
//     u deleted), ours edited f's last line: f with both edits, clean,
//     u gone (not u edited into theirs' message and f deleted against
//     ours' edit).
func TestMergePairsMostAlikeUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	code := func(id, text string) *dialog.Message { return msg(id, dialog.Code, text) }
	note := func(id, text string) *dialog.Message { return msg(id, dialog.Note, text) }
	block := "\\begin{align}\n  \\nabla \\cdot E & = 4 \\pi \\rho \\\\\n  \\nabla \\times E & = 0 \\\\\n  \\nabla \\cdot B & = 0\n\\end{align}"
	a := "«a»\n### Math and LaTeX in Markdown\n\nMarkdown can include latex.\n\nMath content uses `$`.\n\nTo use a LaTex display use `$$...$$`, e.g.\n\n```\n" + block + "\n```\n\nproduces"
	b := "«b»\n" + block
	b2 := strings.Replace(b, "& = 0 \\\\\n", "& = 0 \\\\\nnew line\n", 1)
	got, cs := mustMerge(t, dlg(note("a", a), note("b", b)), dlg(note("o", b2)), dlg(note("ta", a), note("tb", b2)), opt)
	if want := []string{b2}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("same edit, ours deleted a: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}

	u, f := "using DataArrays", "foods = @data([1, 2])\ncalories = @data([3, 4])\ntypeof(calories)"
	ours := "foods = @data([1, 2])\ncalories = @data([3, 4])\ntypeof(foods)"
	got, cs = mustMerge(t, dlg(code("u", u), code("f", f)), dlg(code("ou", u), code("of", ours)), dlg(code("tf", u+"\n"+f)), opt)
	if want := []string{u + "\n" + ours}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("merged into the next, edited: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
}

// Without ids, a message alone of its kind between its paired
// neighbours is the one message there of its kind that shares anything
// with it, however much the side rewrote it (seed 9008480 of
// internal/mergecheck: theirs rewrote a version 3 heading's two lines
// beside its first and put a new message before it, ours deleted it: a
// deletion against an edit, not a message theirs added; seed 5018908:
// ours rewrote a raw message and deleted the note after it, theirs moved
// the raw message to the end: ours' text at theirs' place). Two such
// messages, and it is deleted: nothing says which is its edit; a blank
// line, which paragraphs share, is nothing shared (JuliaTutorials' real
// merge: ours' new note paired with base's by it).
func TestMergeAloneInItsGapUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	note := func(id, text string) *dialog.Message { return msg(id, dialog.Note, text) }
	base := dlg(note("p", "«p»\nbefore"), note("a", "«a»\nA one\nA two"), note("q", "«q»\nafter"))
	ours := dlg(note("op", "«p»\nbefore"), note("oq", "«q»\nafter"))
	theirs := dlg(note("tp", "«p»\nbefore"), note("tn", "«n»\nnew"), note("ta", "«a»\nX\nY"), note("tq", "«q»\nafter"))
	got, cs := mustMerge(t, base, ours, theirs, opt)
	if c := contents(got); len(c) != 4 || c[1] != "«n»\nnew" || !strings.Contains(c[2], "«a»\nX\nY") ||
		len(cs) != 1 || cs[0].What != "deleted by ours, edited by theirs" {
		t.Errorf("rewritten, deleted: %q, conflicts %v; want p, n, a in a deletion conflict, q", c, whats(cs))
	}
	theirs = dlg(note("tp", "«p»\nbefore"), note("t1", "«a»\nX"), note("t2", "«a»\nY"), note("tq", "«q»\nafter"))
	got, cs = mustMerge(t, base, ours, theirs, opt)
	if want := []string{"«p»\nbefore", "«a»\nX", "«a»\nY", "«q»\nafter"}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("two alike, deleted: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
	theirs = dlg(note("tp", "«p»\nbefore"), note("tn", "«n»\n\nN text"), note("tm", "«m»\nM"), note("tq", "«q»\nafter"))
	got, cs = mustMerge(t, dlg(note("p", "«p»\nbefore"), note("a", "«a»\n\nA text"), note("q", "«q»\nafter")), ours, theirs, opt)
	if want := []string{"«p»\nbefore", "«n»\n\nN text", "«m»\nM", "«q»\nafter"}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("a blank line shared, deleted: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
	a, b, c, q := "«b0»\nb0.1 # title", "«b1»\nb1.1 # title\nb1.2 x = 1", "«b2»\nb2.1 - item", "«b3»\nb3.1 text"
	a2 := "«b0»\no3 new line\no4 text"
	base = dlg(msg("a", dialog.Raw, a), note("b", b), note("c", c), msg("q", dialog.Code, q))
	ours = dlg(msg("oa", dialog.Raw, a2), note("oc", c), msg("oq", dialog.Code, q))
	theirs = dlg(note("tb", b), note("tc", c), msg("tq", dialog.Code, q), msg("ta", dialog.Raw, a))
	got, cs = mustMerge(t, base, ours, theirs, opt)
	if want := []string{c, q, a2}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("rewritten beside a deletion, moved: %q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
}

// Without ids, a message moved and edited is that message even where a
// new message barely like it took its old place (paired in place there
// by what they share: seed 15018549 of internal/mergecheck, a version 3
// heading ending as the message did): theirs moved p after q, replaced
// its last line and put n in its place; ours edited p's second line. The
// merge: n, q, p with both edits (theirs' place), clean.
func TestMergeMovedOverWeakInPlaceUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	note := func(id, text string) *dialog.Message { return msg(id, dialog.Note, text) }
	code := func(id, text string) *dialog.Message { return msg(id, dialog.Code, text) }
	p, q, n := "«p»\nP one\nP two\nP # title", "«q»\nq = 1", "### «n» n.1 x = 1 n.2 # title"
	base := dlg(note("p", p), code("q", q))
	ours := dlg(note("op", "«p»\nP 1\nP two\nP # title"), code("oq", q))
	theirs := dlg(note("tn", n), code("tq", q), note("tp", "«p»\nP one\nP two\nX"))
	got, cs := mustMerge(t, base, ours, theirs, opt)
	if want := []string{n, q, "«p»\nP 1\nP two\nX"}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("%q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
}

// The other way round (seed 17018814): theirs deleted a and moved p,
// edited, into a's place before q, where p pairs in place with a by a
// line they share; ours edited p. The merge: p with both edits at
// theirs' place, q; a gone (deleted by theirs, unchanged by ours).
func TestMergeMovedIntoWeakPlaceUnkeyed(t *testing.T) {
	t.Parallel()
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	note := func(id, text string) *dialog.Message { return msg(id, dialog.Note, text) }
	code := func(id, text string) *dialog.Message { return msg(id, dialog.Code, text) }
	a, q, p := "«a»\nA one\n---\nA two", "«q»\nq = 1", "«p»\nP one\n---\nP two\nP three"
	base := dlg(note("a", a), code("q", q), note("p", p))
	ours := dlg(note("oa", a), code("oq", q), note("op", "«p»\nP 1\n---\nP two\nP three"))
	theirs := dlg(note("tp", "«p»\nP one\n---\nP two\nP 3"), code("tq", q))
	got, cs := mustMerge(t, base, ours, theirs, opt)
	if want := []string{"«p»\nP 1\n---\nP two\nP 3", q}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Errorf("%q, conflicts %v; want %q, none", contents(got), whats(cs), want)
	}
}
