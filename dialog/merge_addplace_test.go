package dialog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
)

// The spec these tests state (see Merge): a message both sides added (one
// id, or equal content where ids are made up) is one message; its place
// on a side is the message before it among those base, ours and theirs
// all have (none: first). The same place on both sides is clean; other
// places are a conflict ("added on both sides at different places", Part
// 0, not in the text, Values nil and its index in ours and theirs), the
// message where ours put it.

// addedApart describes the conflicts of cs of a message added at
// different places: "ID ours,theirs".
func addedApart(t *testing.T, cs []dialog.Conflict) []string {
	t.Helper()
	var out []string
	for _, c := range cs {
		if c.What != "added on both sides at different places" {
			continue
		}
		if c.Part != 0 || c.InText || c.Base != nil || c.Ours == nil || c.Theirs == nil || c.Values[0] != nil {
			t.Errorf("%v: Part %v, InText %v, versions %v %v %v, base value %v", c, c.Part, c.InText, c.Base != nil, c.Ours != nil, c.Theirs != nil, c.Values[0])
		}
		out = append(out, fmt.Sprintf("%s %v,%v", c.ID, c.Values[1], c.Values[2]))
	}
	return out
}

func TestMergeAddedOnBothSidesApart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, base, ours, theirs string
		order                    string   // the merged order
		apart                    []string // the place conflicts
	}{
		// Both added x after a: one place, one x.
		{"same place", "a b c", "a x b c", "a x b c", "a x b c", nil},
		// x after a on ours, after b on theirs: ours' place (index 1),
		// theirs' (index 2) recorded.
		{"after other cells", "a b c", "a x b c", "a b x c", "a x b c", []string{"x 1,2"}},
		// The mirror: ours' place is theirs' above.
		{"mirror", "a b c", "a b x c", "a x b c", "a b x c", []string{"x 2,1"}},
		// First on ours, last on theirs, and the reverse.
		{"start and end", "a b c", "x a b c", "a b c x", "x a b c", []string{"x 0,3"}},
		{"end and start", "a b c", "a b c x", "x a b c", "a b c x", []string{"x 3,0"}},
		// Two such messages, each recorded: x first on ours, last on
		// theirs; y after a on ours, after b on theirs (index 2 there,
		// behind a b).
		{"two cells", "a b c", "x a y b c", "a b y c x", "x a y b c", []string{"x 0,4", "y 2,2"}},
		// Theirs put z before x, both after a: the message before x
		// among those all three have is a on both sides, one place;
		// insertions at one place keep both sides' orders (z before x,
		// as theirs put it), ours' first where both orders allow either.
		{"same gap, other added cells", "a b c", "a x b c", "a z x b c", "a z x b c", nil},
		{"same gap, each side's own", "a b c", "a x y b c", "a x z y b c", "a x z y b c", nil},
		{"same gap, both sides' own between", "a b c", "a x w y b c", "a x z y b c", "a x w z y b c", nil},
		// Both added the same notebook (an empty base): theirs' b
		// stands between a and c, as on theirs.
		{"empty base", "", "a c d", "a b c d", "a b c d", nil},
		// Ours deleted b, after which theirs put x: a is before x on
		// both sides among the messages all three have.
		{"after a cell one side deleted", "a b c", "a x c", "a b x c", "a x c", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := letters(tc.base)
			got, cs := mustMerge(t, b, letters(tc.ours), letters(tc.theirs), dialog.MergeOptions{})
			if idList(got) != tc.order {
				t.Errorf("order %q, want %q", idList(got), tc.order)
			}
			if diff := cmp.Diff(tc.apart, addedApart(t, cs)); diff != "" {
				t.Errorf("place conflicts (-want +got):\n%s", diff)
			}
			if len(cs) != len(tc.apart) {
				t.Errorf("conflicts %v, want only the place ones", whats(cs))
			}
		})
	}
}

// Without identities (made-up ids, each side its own) equal messages
// pair by content and are judged the same way; the conflict names the
// merged message (ours' id).
func TestMergeAddedOnBothSidesApartUnkeyed(t *testing.T) {
	t.Parallel()
	side := func(order, prefix string) *dialog.Dialog {
		d := letters(order)
		for _, m := range d.Messages {
			m.ID = prefix + m.ID
		}
		return d
	}
	opt := dialog.MergeOptions{Unkeyed: func(*dialog.Message) bool { return true }}
	for _, tc := range []struct {
		ours, theirs, order string
		apart               []string
	}{
		{"a x b c", "a b x c", "oa ox ob oc", []string{"ox 1,2"}},
		{"a x b c", "a x b c", "oa ox ob oc", nil},
	} {
		got, cs := mustMerge(t, side("a b c", "b"), side(tc.ours, "o"), side(tc.theirs, "t"), opt)
		if idList(got) != tc.order {
			t.Errorf("%s/%s: order %q, want %q", tc.ours, tc.theirs, idList(got), tc.order)
		}
		if diff := cmp.Diff(tc.apart, addedApart(t, cs)); diff != "" || len(cs) != len(tc.apart) {
			t.Errorf("%s/%s: conflicts %v (-want +got):\n%s", tc.ours, tc.theirs, whats(cs), diff)
		}
	}
}

// A message both sides added with different texts at different places
// is the text conflict and the place conflict.
func TestMergeAddedApartEdited(t *testing.T) {
	t.Parallel()
	o, th := letters("a x b c"), letters("a b x c")
	get(t, th, "x").Content = "x theirs\n"
	get(t, o, "x").Content = "x ours\n"
	got, cs := mustMerge(t, letters("a b c"), o, th, dialog.MergeOptions{})
	if idList(got) != "a x b c" || !strings.Contains(get(t, got, "x").Content, "<<<<<<<") {
		t.Errorf("order %q, x %q; want ours' place, the texts between markers", idList(got), get(t, got, "x").Content)
	}
	if diff := cmp.Diff([]string{"x 1,2"}, addedApart(t, cs)); diff != "" || len(cs) != 2 {
		t.Errorf("conflicts %v, want the text's and the place's", whats(cs))
	}
}
