package dialog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Aligning messages without ids by content costs work bounded in the
// input's size: counted in the text diff's steps (textdiff.Work, where
// comparing two messages' lines counts their lines and their bytes by
// 64), merging twice the messages at most about doubles it, whether the
// messages are many short ones of nested repeats or a run of long
// one-line messages all replaced (every pair a candidate, most of the
// work the similarity budget's). Not parallel: Work is the program's.
func TestAlignmentWorkScales(t *testing.T) {
	unkeyed := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	nested := func(n int) (b, o, th *dialog.Dialog) {
		b, o, th = &dialog.Dialog{Name: "b"}, &dialog.Dialog{Name: "o"}, &dialog.Dialog{Name: "t"}
		lines := []string{"t0"}
		for k := 1; len(lines) < n; k++ {
			lines = append(lines, fmt.Sprintf("t%d", k), fmt.Sprintf("t%d", k-1))
		}
		for i, l := range lines[:n] {
			b.Messages = append(b.Messages, msg(fmt.Sprintf("b%07d", i), dialog.Code, l))
		}
		for i := 0; i+1 < n; i += 2 { // ours swaps every pair
			o.Messages = append(o.Messages, msg(fmt.Sprintf("o%07d", i), dialog.Code, lines[i+1]), msg(fmt.Sprintf("o%07d", i+1), dialog.Code, lines[i]))
		}
		th.Messages = append(clone(b).Messages, msg("tend", dialog.Code, "end"))
		return b, o, th
	}
	long := func(n int) (b, o, th *dialog.Dialog) {
		b, o = &dialog.Dialog{Name: "b"}, &dialog.Dialog{Name: "o"}
		for i := range n {
			b.Messages = append(b.Messages, msg(fmt.Sprintf("b%07d", i), dialog.Code, strings.Repeat(fmt.Sprint(i, " "), 4000)))
			o.Messages = append(o.Messages, msg(fmt.Sprintf("o%07d", i), dialog.Code, strings.Repeat(fmt.Sprint(-i, " "), 4000)))
		}
		o.Messages = append(o.Messages, msg("extra", dialog.Code, "x")) // not one for one
		return b, o, clone(b)
	}
	for _, c := range []struct {
		name  string
		sizes []int
		gen   func(n int) (b, o, th *dialog.Dialog)
	}{{"nested repeats", []int{4000, 8000, 16000}, nested}, {"long one-line messages replaced", []int{200, 400, 800}, long}} {
		prev := 0
		for _, n := range c.sizes {
			b, o, th := c.gen(n)
			w := textdiff.Work()
			dialog.Merge(b, o, th, unkeyed)
			dialog.Diff(b, o, dialog.DiffOptions{Unkeyed: unkeyed.Unkeyed})
			steps := int(textdiff.Work() - w)
			t.Logf("%s: %d messages, %d steps", c.name, n, steps)
			if prev > 0 && float64(steps) > 2.3*float64(prev) {
				t.Errorf("%s: %d → %d messages: work grows ×%.2f", c.name, n/2, n, float64(steps)/float64(prev))
			}
			prev = steps
		}
	}
}
