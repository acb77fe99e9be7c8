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

// wholeTexts returns the versions of a message both sides changed to
// merge the texts of: a side that made base's message a prompt (see
// above) as its question, the separator and its reply in one text without
// a reply, and the separator to split the merged text at ("" where
// neither side did). joint is MergeOptions.Separator.
func wholeTexts(b, o, t *Message, joint string) (mo, mt *Message, sep string) {
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
		w := cloneMessage(s)
		w.Content = s.Content + sep + r
		w.SetReply("")
		if i == 0 {
			return w, t, sep
		}
		return o, w, sep
	}
	return o, t, ""
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
