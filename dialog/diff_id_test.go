package dialog

import (
	"strings"
	"testing"
)

// Messages matched by content whose ids differ, one of them not made up:
// the id changed (PartID). Two made-up ids that differ (a moved message
// of a notebook without ids) are no change.
func TestDiffPartID(t *testing.T) {
	t.Parallel()
	made := func(m *Message) bool { return strings.HasPrefix(m.ID, "made") }
	d := func(ids ...string) *Dialog {
		out := &Dialog{}
		for i, id := range ids {
			out.Messages = append(out.Messages, &Message{ID: id, Kind: Note, Content: string(rune('a' + i))})
		}
		return out
	}
	for _, c := range []struct {
		a, b *Dialog
		want string
	}{
		{d("aaa", "bbb"), d("aaa", "made2"), "changed 2 [id]"},
		{d("made1", "bbb"), d("aaa", "bbb"), "changed 1 [id]"},
		{d("made1", "made2"), d("made3", "made4"), ""},
		{d("aaa", "bbb"), d("aaa", "bbb"), ""},
	} {
		var got []string
		for _, ch := range Diff(c.a, c.b, DiffOptions{Unkeyed: made}) {
			got = append(got, strings.ToLower(ch.Kind.String())+" "+string(rune('0'+ch.BIndex+1))+" ["+ch.Parts.String()+"]")
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%v → %v: %q, want %q", msgIDs(c.a.Messages), msgIDs(c.b.Messages), got, c.want)
		}
	}
}

func msgIDs(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}
