package dialog_test

import (
	"fmt"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// scaled builds a dialog of n messages and two sides that each edit,
// insert and delete a message every 50, all ids made up (unkeyed) when
// unkeyed is set, so that matching goes through content alignment.
func scaled(n int, unkeyed bool) (b, o, t *dialog.Dialog, opt dialog.MergeOptions) {
	b = dialog.New("big")
	for i := range n {
		kind := dialog.Code
		if i%3 == 0 {
			kind = dialog.Note
		}
		m := msg(fmt.Sprintf("b%07d", i), kind, fmt.Sprintf("line one of %d\nline two of %d\nline three\n", i, i))
		b.Messages = append(b.Messages, m)
	}
	o, t = clone(b), clone(b)
	for i := 10; i < n; i += 50 {
		o.Messages[i].Content += "ours\n"
		t.Messages[i+20].Content = "theirs\n" + t.Messages[i+20].Content
	}
	for i := n - 40; i > 0; i -= 50 {
		o.Insert(i, msg(fmt.Sprintf("o%07d", i), dialog.Code, fmt.Sprintf("new %d", i)))
		t.Messages = append(t.Messages[:i+5:i+5], t.Messages[i+6:]...)
	}
	if unkeyed {
		for j, d := range []*dialog.Dialog{o, t} {
			for _, m := range d.Messages {
				m.ID = fmt.Sprintf("%d%s", j, m.ID)
			}
		}
		opt.Unkeyed = func(*dialog.Message) bool { return true }
	}
	return b, o, t, opt
}

// Merging grows linearly with the dialog: doubling the messages (and the
// edits) doubles the allocations, give or take, by id and by content.
func TestMergeScalesLinearly(t *testing.T) {
	for _, unkeyed := range []bool{false, true} {
		allocs := func(n int) float64 {
			b, o, th, opt := scaled(n, unkeyed)
			return testing.AllocsPerRun(3, func() {
				if _, cs := dialog.Merge(b, o, th, opt); len(cs) != 0 {
					t.Fatalf("conflicts: %v", cs[0])
				}
			})
		}
		a1, a2 := allocs(2000), allocs(4000)
		if ratio := a2 / a1; ratio > 2.6 {
			t.Errorf("unkeyed %v: allocations grow %.2f× for twice the messages (%.0f → %.0f)", unkeyed, ratio, a1, a2)
		} else {
			t.Logf("unkeyed %v: %.0f → %.0f allocations (%.2f×)", unkeyed, a1, a2, ratio)
		}
	}
}

func BenchmarkMerge(b *testing.B) {
	for _, unkeyed := range []bool{false, true} {
		b.Run(fmt.Sprintf("unkeyed=%v", unkeyed), func(b *testing.B) {
			base, o, t, opt := scaled(5000, unkeyed)
			b.ReportAllocs()
			for b.Loop() {
				dialog.Merge(base, o, t, opt)
			}
		})
	}
}
