package dialog_test

import (
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// A side whose one message replaced base's one, barely alike (a word in
// common: paired as the message alone in its run), with the message the
// other side added beside base's unchanged one, added that message too:
// the merge has it once and base's deleted (the deletion by one side of
// a message the other left as it was). It had it twice, cleanly: one
// side's "edit" beside the other's copy (the shape of property seed
// 32004818, a version 3 heading replaced by a markdown cell).
func TestMergeAddedByBothNotEdited(t *testing.T) {
	t.Parallel()
	unkeyed := func(*dialog.Message) bool { return true }
	note := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Note, Content: src} }
	b := &dialog.Dialog{Messages: []*dialog.Message{note("b0", "# Survey results - the data - what it says")}}
	added := "Plan\nwhat it says"
	o := &dialog.Dialog{Messages: []*dialog.Message{note("o0", added), note("o1", b.Messages[0].Content)}}
	th := &dialog.Dialog{Messages: []*dialog.Message{note("t0", added)}}
	got, cs := mustMerge(t, b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	// Both added the note; theirs deleted base's, which ours left as is.
	if want := []string{added}; !slices.Equal(contents(got), want) || len(cs) != 0 {
		t.Fatalf("merged %q (conflicts %v), want %q and no conflict", contents(got), whats(cs), want)
	}
}
