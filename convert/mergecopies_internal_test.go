package convert

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// Copies of one cell are paired without crossing: the base copies a side
// keeps are those its copies equal (then the first left), paired with
// the side's copies in their order.
func TestPairInOrder(t *testing.T) {
	t.Parallel()
	msg := func(reply string) *dialog.Message {
		m := &dialog.Message{Kind: dialog.Prompt, Content: "«c»"}
		if reply != "" {
			m.SetReply(reply)
		}
		return m
	}
	plain, replied, other := msg(""), msg("an answer"), msg("another")
	for _, c := range []struct {
		name     string
		bs, side []*dialog.Message
		want     map[int]int // base copy → side copy
	}{
		{"alike copies, fewer on the side", []*dialog.Message{plain, plain, plain}, []*dialog.Message{plain, plain}, map[int]int{0: 0, 1: 1}},
		{"the side keeps the copy it equals", []*dialog.Message{replied, plain, other}, []*dialog.Message{other}, map[int]int{2: 0}},
		{"two kept, the equal one second", []*dialog.Message{plain, plain, other}, []*dialog.Message{plain, other}, map[int]int{0: 0, 2: 1}},
		{"an edited copy and an equal one, crossed in the side", []*dialog.Message{replied, plain}, []*dialog.Message{plain, plain}, map[int]int{0: 0, 1: 1}},
		{"more on the side: the equal one kept", []*dialog.Message{plain}, []*dialog.Message{replied, plain}, map[int]int{0: 1}},
	} {
		got := pairInOrder(c.bs, c.side)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d pairs, want %d", c.name, len(got), len(c.want))
		}
		for k, j := range c.want {
			if got[k] != c.side[j] {
				t.Errorf("%s: base copy %d paired with %v, want side copy %d", c.name, k, got[k], j)
			}
		}
	}
}
