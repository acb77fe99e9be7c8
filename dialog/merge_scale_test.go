package dialog_test

// Tests that merging grows linearly with the dialog, with identical messages
// and with a budget for pairing similar ones.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// scaled builds a dialog of n messages and two sides that each edit,
// insert and delete a message every 50, all ids made up (unkeyed) when
// unkeyed is set, so that matching goes through content alignment.
func scaled(n int, unkeyed bool) (b, o, t *dialog.Dialog, opt dialog.MergeOptions) {
	b = &dialog.Dialog{Name: "big"}
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
		o.Messages = slices.Insert(o.Messages, i, msg(fmt.Sprintf("o%07d", i), dialog.Code, fmt.Sprintf("new %d", i)))
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

// identical builds n equal messages (made-up ids): ours deletes every
// third, theirs appends n/10 more — the worst case for matching by
// content, where nothing is unique.
func identical(n int) (b, o, t *dialog.Dialog, opt dialog.MergeOptions) {
	b = &dialog.Dialog{Name: "same"}
	for i := range n {
		b.Messages = append(b.Messages, msg(fmt.Sprintf("b%07d", i), dialog.Code, ""))
	}
	o, t = clone(b), clone(b)
	var kept []*dialog.Message
	for i, m := range o.Messages {
		m.ID = "o" + m.ID
		if i%3 != 0 {
			kept = append(kept, m)
		}
	}
	o.Messages = kept
	for _, m := range t.Messages {
		m.ID = "t" + m.ID
	}
	for i := range n / 10 {
		t.Messages = append(t.Messages, msg(fmt.Sprintf("tn%07d", i), dialog.Code, ""))
	}
	opt.Unkeyed = func(*dialog.Message) bool { return true }
	return b, o, t, opt
}

func BenchmarkMergeIdentical(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base, o, t, opt := identical(n)
			b.ReportAllocs()
			for b.Loop() {
				dialog.Merge(base, o, t, opt)
			}
		})
	}
}

// Equal messages are matched one for one: the merge of identical() keeps
// ours' deletions and theirs' additions.
func TestMergeIdenticalMessages(t *testing.T) {
	t.Parallel()
	n := 3000
	b, o, th, opt := identical(n)
	got, cs := dialog.Merge(b, o, th, opt)
	if want := n - n/3 + n/10; len(got.Messages) != want || len(cs) != 0 {
		t.Errorf("%d messages, want %d; %d conflicts", len(got.Messages), want, len(cs))
	}
}

// Pairing similar messages has a budget: a run of many large messages
// replaced by unrelated ones costs in proportion to the input, not to the
// product of the runs.
func TestMergeSimilarityBudget(t *testing.T) {
	big := func(prefix string, n, lines int) []*dialog.Message {
		var ms []*dialog.Message
		for i := range n {
			var b strings.Builder
			for l := range lines {
				fmt.Fprintf(&b, "%s %d %d\n", prefix, i, l)
			}
			ms = append(ms, msg(fmt.Sprintf("%s%05d", prefix, i), dialog.Code, b.String()))
		}
		return ms
	}
	allocs := func(n int) float64 {
		base := &dialog.Dialog{Messages: big("b", n, 400)}
		ours := &dialog.Dialog{Messages: big("o", n+1, 400)} // not one for one
		opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
		// One run, not AllocsPerRun's warm-up and run: each pairs up to
		// the budget's bytes, the test's whole cost.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		dialog.Merge(base, ours, base, opt)
		runtime.ReadMemStats(&after)
		return float64(after.Mallocs - before.Mallocs)
	}
	a1, a2 := allocs(150), allocs(300)
	t.Logf("%.0f → %.0f allocations (%.2f×)", a1, a2, a2/a1)
	if a2/a1 > 2.6 {
		t.Errorf("allocations grow %.2f× for twice the messages", a2/a1)
	}
}
