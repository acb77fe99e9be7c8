// One text for a message a side split into a question and a reply.
package dialog

import "strings"

// A side that turned a note (or a raw or code message) whose text held a
// question, a separator and a reply into a prompt changed the message's
// kind and split its text; a notebook's cell holds a prompt's question and
// reply in one source, and a line merge of the file, such as git's, reads
// them as one text. Merged as a question and a reply apart, the other
// side's edit of that text (its reply's lines deleted, say) would be
// undone by the reply the prompt holds, which base's text held too.

// The other way, a side that made base's prompt a note (or a raw or code
// message) holds in its text what the cell's source holds: the question,
// or the question, the separator and the reply (the prompt flag taken
// out, the source left alone). Merged with base's question alone, the
// first reads as an edit, the second as none, and a deletion of the
// reply's lines by the other side, or its edit, is lost.

// wholeTexts returns the versions of a message both sides changed to
// merge the texts of: a side that made base's message a prompt (see
// above) as its question, the separator and its reply in one text without
// a reply; where base's message is a prompt with a reply and a side's is
// not, base and each side still a prompt so; and the separator to split
// the merged text at ("" where neither applies). joint is
// MergeOptions.Separator.
func wholeTexts(b, o, t *Message, joint string) (mb, mo, mt *Message, sep string) {
	if b.Kind == Prompt && b.Reply() != "" && joint != "" && (o.Kind != Prompt || t.Kind != Prompt) {
		return whole(b, joint), whole(o, joint), whole(t, joint), joint
	}
	for i, s := range [2]*Message{o, t} {
		other := [2]*Message{t, o}[i]
		if s.Kind != Prompt || b.Kind == Prompt || other.Kind == Prompt {
			continue
		}
		r := s.Reply()
		if r == "" {
			continue
		}
		sep := joint
		switch {
		case sep != "":
			if !strings.Contains(b.Content, sep) {
				continue // (a reply added to a note is merged apart)
			}
		case len(b.Content) > len(s.Content)+len(r) && strings.HasPrefix(b.Content, s.Content) && strings.HasSuffix(b.Content, r):
			sep = b.Content[len(s.Content) : len(b.Content)-len(r)]
		default:
			continue
		}
		w := whole(s, sep)
		if i == 0 {
			return b, w, t, sep
		}
		return b, o, w, sep
	}
	return b, o, t, ""
}

// whole returns a prompt with a reply as one text, its question, sep and
// its reply, without a reply (as its cell's source holds it); any other
// message as it is.
func whole(m *Message, sep string) *Message {
	r := m.Reply()
	if m.Kind != Prompt || r == "" {
		return m
	}
	w := cloneMessage(m)
	w.Content = m.Content + sep + r
	w.SetReply("")
	return w
}

// splitWhole sets a prompt m's question and reply from its merged whole
// text, split at the first sep (all of it the question where sep is not
// in it).
func splitWhole(m *Message, sep string) {
	q, r, ok := strings.Cut(m.Content, sep)
	if !ok {
		return
	}
	m.Content = q
	m.SetReply(r)
}
