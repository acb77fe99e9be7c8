package dialog_test

import (
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// Equal messages are paired in their common order with the messages
// paired by id: of base's two equal messages "T", one before q and one
// after, a side's "T" whose id is no identity, after q, is the one after
// q (the shape of seed 22004951 of the fix path: git's hunks put a cell
// twice in base's side). Both sides deleted the one before q, and kept
// the one after: the merge is p, ours' n, q, "T", clean. Paired with the
// first "T" on theirs (which it then moved) and the second on ours, each
// side deleted the "T" the other kept: both were gone.
func TestMergePairsEqualInOrderOfKeyed(t *testing.T) {
	t.Parallel()
	msg := func(id, src string) *dialog.Message { return &dialog.Message{ID: id, Kind: dialog.Note, Content: src} }
	b := &dialog.Dialog{Messages: []*dialog.Message{msg("p", "P"), msg("c1", "T"), msg("q", "Q"), msg("c2", "T")}}
	o := &dialog.Dialog{Messages: []*dialog.Message{msg("p", "P"), msg("n", "N"), msg("q", "Q"), msg("o", "T")}}
	th := &dialog.Dialog{Messages: []*dialog.Message{msg("p", "P"), msg("q", "Q"), msg("t", "T")}}
	unkeyed := func(m *dialog.Message) bool { return m.ID == "o" || m.ID == "t" }
	got, cs := dialog.Merge(b, o, th, dialog.MergeOptions{Unkeyed: unkeyed})
	var texts []string
	for _, m := range got.Messages {
		texts = append(texts, m.Content)
	}
	if want := []string{"P", "N", "Q", "T"}; !slices.Equal(texts, want) || len(cs) > 0 {
		t.Errorf("merged %q, %d conflicts; want %q, clean", texts, len(cs), want)
	}
}
