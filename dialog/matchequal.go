package dialog

// Messages of one content that a notebook holds more than once, matched in order equal in every part first.

import "github.com/nbdialog/ipynb/internal/textdiff"

// Without ids, equal contents are the first evidence that two messages
// are one; but where a holds one content in more than one message (a
// cell copied, or, in a file git's line merge wrote, one cell's text
// given another cell's outputs and metadata), the content alone does not
// say which of them a message of b is, and the first in order would be
// taken: the two sides of a merge could then pair one cell with different
// copies, each deleting the copy the other kept (both gone, though both
// sides hold the cell), or a side's message left as base had it with the
// copy it is not (an edit read where there is none). So where a content
// repeats in a, messages equal in every part (sameMessage) are matched
// in order first, and the others of equal content in order between
// those pairs.

// maxCopyClasses bounds the versions of one repeated content told apart
// (each message is compared with one of each): past it, a message is
// matched by its content alone.
const maxCopyClasses = 32

// equalKeys returns the keys of the unmatched messages of a and b (m.ra,
// m.rb) that are their content keys with, for a content a holds more than
// once, which version of it the message is (messages equal in every part
// share one); ok is false where no content of b repeats in a (the keys
// are the content keys then).
func (m *matcher) equalKeys() (fa, fb []string, ok bool) {
	count := make(map[string]int, len(m.ka))
	for _, k := range m.ka {
		count[k]++
	}
	for _, k := range m.kb {
		if count[k] > 1 {
			ok = true
			break
		}
	}
	if !ok {
		return nil, nil, false
	}
	classes := map[string][]*Message{} // per repeated content, one message of each version
	version := func(k string, x *Message) string {
		if count[k] < 2 {
			return k
		}
		cs := classes[k]
		for n, c := range cs {
			if sameMessage(c, x) {
				return k + "\x00" + string(rune('0'+n))
			}
		}
		if len(cs) == maxCopyClasses {
			return k
		}
		classes[k] = append(cs, x)
		return k + "\x00" + string(rune('0'+len(cs)))
	}
	fa, fb = make([]string, len(m.ka)), make([]string, len(m.kb))
	for x, i := range m.ra {
		fa[x] = version(m.ka[x], m.a[i])
	}
	for y, j := range m.rb {
		fb[y] = version(m.kb[y], m.b[j])
	}
	return fa, fb, true
}

// equalThenContent matches messages in their common order: by keys fa
// and fb (see equalKeys), then, between those pairs, by content keys ka
// and kb. It returns, for each key of fa, its match in fb or -1.
func equalThenContent(fa, fb, ka, kb []string) []int {
	out := textdiff.MatchAnchored(fa, fb)
	gap := func(x0, x1, y0, y1 int) {
		if x0 >= x1 || y0 >= y1 {
			return
		}
		for x, y := range textdiff.MatchAnchored(ka[x0:x1], kb[y0:y1]) {
			if y >= 0 {
				out[x0+x] = y0 + y
			}
		}
	}
	x0, y0 := 0, 0
	for x, y := range out {
		if y < 0 {
			continue
		}
		gap(x0, x, y0, y)
		x0, y0 = x+1, y+1
	}
	gap(x0, len(out), y0, len(fb))
	return out
}
